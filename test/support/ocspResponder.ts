import { spawn, type ChildProcess } from 'node:child_process';
import { createPrivateKey, sign } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { normalizedHex } from '../../src/infrastructure/peppol/derReader.js';
import { parseOcspResponse } from '../../src/infrastructure/peppol/ocspMessages.js';
import type { TestPki } from './testPki.js';

/**
 * OCSP responders for tests: `openssl ocsp` on a free port over the test PKI's CA database, behind
 * a small HTTP front on loopback whose URL the test PKI writes into AP certificates (so the URL is
 * fixed before anything is issued, and the front decides per test what a request meets: the
 * responder, a responder that is down, an answer from two hours ago).
 */

export interface OpensslResponder {
  url: string;
  stop(): Promise<void>;
}

/**
 * `openssl ocsp -index … -port 0` answering for the AP CA, signing with `signer` (default the
 * delegated responder certificate); answers are valid for `minutes` (nextUpdate; null: answers
 * without nextUpdate).
 */
export async function startOpensslResponder(
  pki: TestPki,
  options: {
    index?: string;
    signer?: { certificateFile: string; keyFile: string };
    minutes?: number | null;
    extra?: string[];
  } = {},
): Promise<OpensslResponder> {
  const signer = options.signer ?? {
    certificateFile: pki.ocspResponderCertificateFile,
    keyFile: pki.ocspResponderKeyFile,
  };
  const args = [
    'ocsp',
    '-index',
    options.index ?? pki.caIndexFile,
    '-CA',
    pki.apCaCertificateFile,
    '-rsigner',
    signer.certificateFile,
    '-rkey',
    signer.keyFile,
    '-port',
    '0',
    ...(options.minutes === null ? [] : ['-nmin', String(options.minutes ?? 10)]),
    // A request it cannot read must not stop it.
    '-ignore_err',
    ...(options.extra ?? []),
  ];
  const child: ChildProcess = spawn('openssl', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const port = await new Promise<number>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`openssl ocsp did not start:\n${output}`)), 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = /ACCEPT \S*:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`openssl ocsp exited (${code}):\n${output}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}/`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/** A copy of the PKI's CA database without the certificates of these serials (hex): the responder says "unknown" for them. */
export async function indexWithout(pki: TestPki, serials: string[], file: string): Promise<string> {
  const lines = (await readFile(pki.caIndexFile, 'utf8')).split('\n');
  const left = new Set(serials.map(normalizedHex));
  const kept = lines.filter((line) => !left.has(normalizedHex(line.split('\t')[3] ?? '')));
  await writeFile(file, kept.join('\n'));
  await writeFile(`${file}.attr`, 'unique_subject = no\n');
  return path.resolve(file);
}

/**
 * The answer a responder gave `hours` ago: its producedAt, thisUpdate and nextUpdate moved back and
 * signed again with the responder's key (the same length, so it is rewritten in place).
 */
export function agedResponse(der: Buffer, signerKeyPem: string, hours: number): Buffer {
  const copy = Buffer.from(der);
  const parsed = parseOcspResponse(copy);
  if (parsed.status !== 'successful') throw new Error(`cannot age a "${parsed.status}" answer`);
  // Views into `copy`: what is written into them is written into the answer.
  const { signed, signature } = parsed.basic;
  for (let i = 0; i + 17 <= signed.length; i++) {
    const text = signed.toString('latin1', i + 2, i + 17);
    if (signed[i] !== 0x18 || signed[i + 1] !== 0x0f || !/^\d{14}Z$/.test(text)) continue;
    const at = new Date(
      Date.UTC(
        +text.slice(0, 4),
        +text.slice(4, 6) - 1,
        +text.slice(6, 8),
        +text.slice(8, 10),
        +text.slice(10, 12),
        +text.slice(12, 14),
      ) -
        hours * 3600_000,
    );
    signed.write(at.toISOString().replace(/[-:T]/g, '').slice(0, 14) + 'Z', i + 2, 'latin1');
  }
  const resigned = sign('sha256', signed, createPrivateKey(signerKeyPem));
  if (resigned.length !== signature.length) throw new Error('the new signature does not fit');
  resigned.copy(signature);
  return copy;
}

export type FrontMode =
  /** Forward each request to this responder. */
  | { kind: 'forward'; to: string }
  /** Close every connection without an answer (a responder that is down). */
  | { kind: 'down' }
  /** Take the request and never answer (a responder that hangs). */
  | { kind: 'silent' }
  /** Answer with this HTTP status and body. */
  | { kind: 'answer'; status: number; body: Buffer }
  /** Forward, and answer what the responder gave as if it were `hours` old. */
  | { kind: 'aged'; to: string; hours: number; signerKeyPem: string };

export interface OcspFront {
  /** The OCSP URL to put into certificates. */
  url: string;
  mode: FrontMode;
  /** Requests received so far. */
  requests: number;
  /** The last answer it sent (to replay it later). */
  last: Buffer | null;
  close(): Promise<void>;
}

async function forward(to: string, body: Buffer): Promise<{ status: number; body: Buffer }> {
  const response = await fetch(to, {
    method: 'POST',
    body: new Uint8Array(body),
    headers: { 'Content-Type': 'application/ocsp-request' },
  });
  return { status: response.status, body: Buffer.from(await response.arrayBuffer()) };
}

export async function startOcspFront(): Promise<OcspFront> {
  const front: OcspFront = {
    url: '',
    mode: { kind: 'down' },
    requests: 0,
    last: null,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server = http.createServer((req, res) => {
    front.requests++;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const mode = front.mode;
      if (mode.kind === 'silent') return;
      if (mode.kind === 'down') {
        req.socket.destroy();
        return;
      }
      const answered = mode.kind === 'answer' ? Promise.resolve(mode) : forward(mode.to, Buffer.concat(chunks));
      answered.then(
        (answer) => {
          const body = mode.kind === 'aged' ? agedResponse(answer.body, mode.signerKeyPem, mode.hours) : answer.body;
          front.last = body;
          res.writeHead(answer.status, { 'Content-Type': 'application/ocsp-response' }).end(body);
        },
        () => req.socket.destroy(),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  front.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/ocsp`;
  return front;
}
