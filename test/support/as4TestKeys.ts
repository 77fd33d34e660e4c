import type { SignerProblem } from '../../src/infrastructure/as4/as4Inbound.js';
import { execFile } from 'node:child_process';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { SigningKey } from '../../src/infrastructure/as4/wsSecuritySignature.js';

const run = promisify(execFile);

export interface TestAccessPointKey extends SigningKey {
  seatId: string;
  certificatePem: string;
  keyPem: string;
}

export interface TestAs4Pki {
  ca: X509Certificate;
  accessPoints: Record<string, TestAccessPointKey>;
  dispose(): Promise<void>;
}

const made = new Map<string, Promise<TestAs4Pki>>();

/**
 * A throw-away CA and one access point certificate per seat id (subject CN = the seat id, as in
 * Peppol), made with the openssl command: Node can create keys but not certificates. For the AS4
 * core's tests only; scripts/test-pki makes the PKI the service instances use.
 *
 * Made once per process and set of seat ids, held in memory (the files are removed at once): key
 * generation is the slowest step of these suites, and the mutation run (npm run mutation) runs a
 * suite's hooks again for every mutant its tests cover.
 */
export function makeTestAs4Pki(seatIds: readonly string[]): Promise<TestAs4Pki> {
  const key = seatIds.join(',');
  let pki = made.get(key);
  if (!pki) {
    pki = generate(seatIds);
    made.set(key, pki);
    pki.catch(() => made.delete(key));
  }
  return pki;
}

async function generate(seatIds: readonly string[]): Promise<TestAs4Pki> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'as4-pki-'));
  try {
    return await generateIn(dir, seatIds);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function generateIn(dir: string, seatIds: readonly string[]): Promise<TestAs4Pki> {
  const file = (name: string) => path.join(dir, name);
  await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-sha256',
    '-days',
    '2',
    '-subj',
    '/C=BE/O=Invoicing service tests/CN=AS4 TEST AP CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.pem'),
  ]);
  const accessPoints: Record<string, TestAccessPointKey> = {};
  await Promise.all(
    seatIds.map(async (seatId) => {
      await run('openssl', [
        'req',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-sha256',
        '-subj',
        `/C=BE/O=Invoicing service tests/OU=PEPPOL TEST AP/CN=${seatId}`,
        '-keyout',
        file(`${seatId}.key`),
        '-out',
        file(`${seatId}.csr`),
      ]);
      fs.writeFileSync(
        file(`${seatId}.ext`),
        'basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment,dataEncipherment\n',
      );
      await run('openssl', [
        'x509',
        '-req',
        '-sha256',
        '-days',
        '2',
        '-in',
        file(`${seatId}.csr`),
        '-CA',
        file('ca.pem'),
        '-CAkey',
        file('ca.key'),
        '-set_serial',
        `0x${Buffer.from(seatId).toString('hex')}`,
        '-extfile',
        file(`${seatId}.ext`),
        '-out',
        file(`${seatId}.pem`),
      ]);
      const keyPem = await readFile(file(`${seatId}.key`), 'utf8');
      const certificatePem = await readFile(file(`${seatId}.pem`), 'utf8');
      accessPoints[seatId] = {
        seatId,
        keyPem,
        certificatePem,
        privateKey: createPrivateKey(keyPem),
        certificate: new X509Certificate(certificatePem),
      };
    }),
  );
  return {
    ca: new X509Certificate(await readFile(file('ca.pem'))),
    accessPoints,
    // Nothing to remove: the files went when the keys were read.
    dispose: async () => undefined,
  };
}

/** A certificate check's error as the AS4 opening's signer problem (never temporary: no OCSP here). */
export const asProblem = (reason: string | null): SignerProblem | null =>
  reason === null ? null : { reason, temporary: false };
