import type { X509Certificate } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import {
  DEFAULT_OCSP_SETTINGS,
  OcspChecker,
  ocspUrlOf,
  postOcspRequest,
  type OcspPost,
  type OcspSettings,
} from '../../../src/infrastructure/peppol/ocspChecker.js';
import { certIdOf, ocspRequest } from '../../../src/infrastructure/peppol/ocspMessages.js';
import { DerCursor, readDer, TAG } from '../../../src/infrastructure/peppol/derReader.js';
import { octetString } from '../../../src/infrastructure/peppol/derWriter.js';
import {
  basicResponse,
  extension,
  NONCE,
  OCSP_TEST_URL,
  ocspPki,
  ocspResponseDer,
  revokedStatus,
  singleResponse,
  UNKNOWN,
  type OcspPki,
} from '../../support/ocspAnswers.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The nonce of a DER OCSPRequest ocspRequest wrote, or null. */
function nonceOf(request: Buffer): Buffer | null {
  const tbs = DerCursor.of(DerCursor.of(readDer(request, TAG.sequence, 'OCSPRequest')).next(TAG.sequence));
  tbs.next(TAG.sequence);
  const extensions = tbs.optional(0xa2);
  if (!extensions) return null;
  const nonce = DerCursor.of(DerCursor.of(readDer(extensions.content, TAG.sequence, 'x')).next(TAG.sequence));
  nonce.next(TAG.oid);
  return readDer(nonce.next(TAG.octetString).content, TAG.octetString, 'nonce').content;
}

describe('OcspChecker: asking, caching, and what no answer means (a responder played in memory)', function () {
  this.timeout(600_000);
  let pki: OcspPki;
  let now: Date;
  before(async () => {
    pki = await ocspPki();
    now = new Date(Math.floor(Date.now() / 1000) * 1000);
  });

  interface Call {
    url: string;
    body: Buffer;
    options: { timeoutMs: number; maxBytes: number };
  }
  /** A responder: what it answers for each request (by default, good for an hour, the nonce echoed). */
  const responder = (answer?: (call: Call) => { status: number; body: Buffer } | Promise<never>) => {
    const calls: Call[] = [];
    const post: OcspPost = async (url, body, options) => {
      const call = { url, body, options };
      calls.push(call);
      return answer ? answer(call) : { status: 200, body: good(pki.leaf.certificate, call.body) };
    };
    return { calls, post };
  };
  const good = (
    certificate: X509Certificate,
    request: Buffer,
    status?: Buffer,
    nextUpdate: Date | null = new Date(now.getTime() + 2 * HOUR),
  ) => {
    const nonce = nonceOf(request);
    return ocspResponseDer(
      0,
      basicResponse({
        signer: pki.ca,
        singles: [
          singleResponse({
            certId: certIdOf(certificate, pki.ca.certificate),
            status,
            thisUpdate: new Date(now.getTime() - MINUTE),
            nextUpdate,
          }),
        ],
        extensions: nonce ? [extension(NONCE, octetString(nonce))] : undefined,
      }),
    );
  };
  const checker = (post: OcspPost, settings: Partial<OcspSettings> = {}) => new OcspChecker(settings, post);
  const later = (ms: number) => new Date(now.getTime() + ms);

  it('finds the responder in the Authority Information Access, or none', () => {
    expect(ocspUrlOf(pki.leaf.certificate)).to.equal(OCSP_TEST_URL);
    expect(ocspUrlOf(pki.ca.certificate)).to.equal(null);
  });

  it('asks nothing about a certificate that names no responder', async () => {
    const { calls, post } = responder();
    expect(await checker(post).status(pki.ca.certificate, pki.ca.certificate, now)).to.deep.equal({
      kind: 'no-responder',
    });
    expect(calls).to.have.length(0);
  });

  it('posts the request for the certificate to its responder, within the time and size limits, and says good', async () => {
    const { calls, post } = responder();
    const status = await checker(post, { timeoutMs: 1234, maxResponseBytes: 999 }).status(
      pki.leaf.certificate,
      pki.ca.certificate,
      now,
    );
    expect(status).to.deep.equal({
      kind: 'good',
      url: OCSP_TEST_URL,
      signer: 'Invoicing Test Access Point CA',
      thisUpdate: new Date(now.getTime() - MINUTE),
    });
    expect(calls).to.have.length(1);
    expect(calls[0]!.url).to.equal(OCSP_TEST_URL);
    expect(calls[0]!.options).to.deep.equal({ timeoutMs: 1234, maxBytes: 999 });
    expect(calls[0]!.body.equals(ocspRequest(certIdOf(pki.leaf.certificate, pki.ca.certificate), null))).to.equal(true);
  });

  it('uses the default limits: five seconds, 64 KiB, no nonce', async () => {
    expect(DEFAULT_OCSP_SETTINGS).to.deep.equal({
      timeoutMs: 5000,
      maxCacheMs: HOUR,
      failureCacheMs: MINUTE,
      nonce: false,
      skewMs: 5 * MINUTE,
      maxResponseBytes: 64 * 1024,
      maxEntries: 10_000,
    });
    const { calls, post } = responder();
    await new OcspChecker({}, post).status(pki.leaf.certificate, pki.ca.certificate, now);
    expect(calls[0]!.options).to.deep.equal({ timeoutMs: 5000, maxBytes: 64 * 1024 });
  });

  it('says revoked, with when and why', async () => {
    const revokedAt = new Date('2026-01-02T03:04:05Z');
    const { post } = responder((call) => ({
      status: 200,
      body: good(pki.leaf.certificate, call.body, revokedStatus(revokedAt, 1)),
    }));
    expect(await checker(post).status(pki.leaf.certificate, pki.ca.certificate, now)).to.deep.equal({
      kind: 'revoked',
      url: OCSP_TEST_URL,
      signer: 'Invoicing Test Access Point CA',
      revokedAt,
      reason: 'keyCompromise',
    });
  });

  it('keeps an answer until its nextUpdate, never longer than the bound, and asks again then', async () => {
    const { calls, post } = responder();
    const ocsp = checker(post, { maxCacheMs: HOUR });
    const ask = (at: Date) => ocsp.status(pki.leaf.certificate, pki.ca.certificate, at);
    await ask(now);
    await ask(later(HOUR - 1000));
    expect(calls).to.have.length(1);
    await ask(later(HOUR));
    expect(calls).to.have.length(2);

    const short = responder((call) => ({
      status: 200,
      body: good(pki.leaf.certificate, call.body, undefined, later(10 * MINUTE)),
    }));
    const shortly = checker(short.post, { maxCacheMs: HOUR });
    await shortly.status(pki.leaf.certificate, pki.ca.certificate, now);
    await shortly.status(pki.leaf.certificate, pki.ca.certificate, later(10 * MINUTE - 1000));
    expect(short.calls).to.have.length(1);
    await shortly.status(pki.leaf.certificate, pki.ca.certificate, later(10 * MINUTE));
    expect(short.calls).to.have.length(2);

    const open = responder((call) => ({ status: 200, body: good(pki.leaf.certificate, call.body, undefined, null) }));
    const unbounded = checker(open.post, { maxCacheMs: HOUR });
    await unbounded.status(pki.leaf.certificate, pki.ca.certificate, now);
    await unbounded.status(pki.leaf.certificate, pki.ca.certificate, later(HOUR - 1000));
    expect(open.calls).to.have.length(1);
  });

  it('keeps each certificate apart, and at most maxEntries of them (the oldest goes first)', async () => {
    const { calls, post } = responder((call) => ({
      status: 200,
      body: good(
        call.body.includes(certIdOf(pki.other, pki.ca.certificate).serial) ? pki.other : pki.leaf.certificate,
        call.body,
      ),
    }));
    const ocsp = checker(post, { maxEntries: 1 });
    expect((await ocsp.status(pki.leaf.certificate, pki.ca.certificate, now)).kind).to.equal('good');
    expect((await ocsp.status(pki.other, pki.ca.certificate, now)).kind).to.equal('good');
    expect(calls).to.have.length(2);
    await ocsp.status(pki.other, pki.ca.certificate, now);
    expect(calls).to.have.length(2);
    await ocsp.status(pki.leaf.certificate, pki.ca.certificate, now);
    expect(calls).to.have.length(3);

    // Room for two, the other's answer good for ten minutes: asked again, it becomes the newest, and
    // the leaf's answer (older, still good) stays.
    const two = responder((call) =>
      call.body.includes(certIdOf(pki.other, pki.ca.certificate).serial)
        ? { status: 200, body: good(pki.other, call.body, undefined, later(10 * MINUTE)) }
        : { status: 200, body: good(pki.leaf.certificate, call.body) },
    );
    const roomy = checker(two.post, { maxEntries: 2 });
    for (const [certificate, at] of [
      [pki.leaf.certificate, now],
      [pki.other, now],
      [pki.leaf.certificate, now],
      [pki.other, later(10 * MINUTE)],
      [pki.leaf.certificate, later(10 * MINUTE)],
    ] as const)
      await roomy.status(certificate, pki.ca.certificate, at);
    expect(two.calls).to.have.length(3);
  });

  it('asks once for concurrent checks of one certificate', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { calls, post } = responder();
    const slow: OcspPost = async (...args) => {
      await gate;
      return post(...args);
    };
    const ocsp = checker(slow);
    const both = Promise.all([
      ocsp.status(pki.leaf.certificate, pki.ca.certificate, now),
      ocsp.status(pki.leaf.certificate, pki.ca.certificate, now),
    ]);
    release();
    const [a, b] = await both;
    expect(a).to.deep.equal(b);
    expect(calls).to.have.length(1);
    // Settled: the next check after the cache's time asks again (the pending request is gone).
    await ocsp.status(pki.leaf.certificate, pki.ca.certificate, later(3 * HOUR));
    expect(calls).to.have.length(2);
  });

  it('has no answer from a responder that is down, errs, answers no OCSP, an unusable or an unknown one, and keeps that for a while', async () => {
    const cases: Array<[string, (call: Call) => { status: number; body: Buffer } | Promise<never>, RegExp]> = [
      [
        'down',
        () => Promise.reject(new Error('connect ECONNREFUSED')),
        /^the OCSP responder http:\/\/ocsp\.test\/responder did not answer \(connect ECONNREFUSED\)$/,
      ],
      [
        'HTTP 503',
        () => ({ status: 503, body: Buffer.alloc(0) }),
        /^the OCSP responder http:\/\/ocsp\.test\/responder answered HTTP 503$/,
      ],
      [
        'no OCSP',
        () => ({ status: 200, body: Buffer.from('<html/>') }),
        /^the OCSP responder http:\/\/ocsp\.test\/responder answered no valid OCSP response: /,
      ],
      [
        'tryLater',
        () => ({ status: 200, body: ocspResponseDer(3, null) }),
        /^the answer of the OCSP responder http:\/\/ocsp\.test\/responder is not usable: the responder answered "tryLater"$/,
      ],
      [
        'unknown',
        (call) => ({ status: 200, body: good(pki.leaf.certificate, call.body, UNKNOWN) }),
        /^the OCSP responder http:\/\/ocsp\.test\/responder does not know the certificate \(status unknown\)$/,
      ],
    ];
    for (const [name, answer, why] of cases) {
      const { calls, post } = responder(answer);
      const ocsp = checker(post, { failureCacheMs: MINUTE });
      const status = await ocsp.status(pki.leaf.certificate, pki.ca.certificate, now);
      expect(status, name).to.deep.include({ kind: 'undetermined', url: OCSP_TEST_URL });
      expect((status as { why: string }).why, name).to.match(why);
      await ocsp.status(pki.leaf.certificate, pki.ca.certificate, later(MINUTE - 1000));
      expect(calls, name).to.have.length(1);
      await ocsp.status(pki.leaf.certificate, pki.ca.certificate, later(MINUTE));
      expect(calls, name).to.have.length(2);
    }
  });

  it('lets an error that is no answer to judge go through', async () => {
    const { post } = responder(() => ({ status: 200, body: null as unknown as Buffer }));
    let error: unknown;
    try {
      await checker(post).status(pki.leaf.certificate, pki.ca.certificate, now);
    } catch (e) {
      error = e;
    }
    expect(error).to.be.instanceOf(TypeError);
  });

  it('sends a fresh nonce when asked to, and takes only an answer that echoes it', async () => {
    const { calls, post } = responder();
    const ocsp = checker(post, { nonce: true, failureCacheMs: 0, maxCacheMs: 0 });
    expect((await ocsp.status(pki.leaf.certificate, pki.ca.certificate, now)).kind).to.equal('good');
    expect((await ocsp.status(pki.leaf.certificate, pki.ca.certificate, now)).kind).to.equal('good');
    const [first, second] = calls.map((c) => nonceOf(c.body)!);
    expect(first).to.have.length(16);
    expect(first!.equals(second!)).to.equal(false);
    const deaf = responder(() => ({
      status: 200,
      body: good(pki.leaf.certificate, ocspRequest(certIdOf(pki.leaf.certificate, pki.ca.certificate), null)),
    }));
    const status = await checker(deaf.post, { nonce: true }).status(pki.leaf.certificate, pki.ca.certificate, now);
    expect((status as { why: string }).why).to.match(/does not echo the nonce sent/);
    expect(nonceOf(deaf.calls[0]!.body)).to.have.length(16);
  });

  it('posts a DER request over HTTP as application/ocsp-request, asking for application/ocsp-response', async () => {
    const seen: Array<{ method?: string; url?: string; type?: string; accept?: string; body: Buffer }> = [];
    const server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        seen.push({
          method: request.method,
          url: request.url,
          type: request.headers['content-type'],
          accept: request.headers.accept,
          body: Buffer.concat(chunks),
        });
        response
          .writeHead(202, { 'Content-Type': 'application/ocsp-response' })
          .end(Buffer.from([0x30, 0x03, 0x0a, 0x01, 0x03]));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const request = Buffer.from([0x30, 0x00]);
      const answer = await postOcspRequest(`http://127.0.0.1:${port}/ocsp`, request, {
        timeoutMs: 10_000,
        maxBytes: 1024,
      });
      expect(answer).to.deep.equal({ status: 202, body: Buffer.from([0x30, 0x03, 0x0a, 0x01, 0x03]) });
      expect(seen).to.deep.equal([
        {
          method: 'POST',
          url: '/ocsp',
          type: 'application/ocsp-request',
          accept: 'application/ocsp-response',
          body: request,
        },
      ]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
