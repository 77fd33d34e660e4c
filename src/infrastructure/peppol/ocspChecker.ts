import { randomBytes, type X509Certificate } from 'node:crypto';
import { httpPost } from '../httpPost.js';
import { DerError } from './derReader.js';
import { certIdOf, ocspRequest, parseOcspResponse } from './ocspMessages.js';
import { checkOcspResponse, OcspInvalid } from './ocspResponseCheck.js';

/**
 * Asks a certificate's OCSP responder (the URL in its Authority Information Access) whether it is
 * revoked, and keeps the answer while it is valid.
 *
 * - An answer is kept until its nextUpdate, never longer than `maxCacheMs` (so a revocation is
 *   seen within that time even where a responder gives days of validity); an answer without
 *   nextUpdate for `maxCacheMs`.
 * - When no answer could be had (responder down, an error status, an invalid, stale or "unknown"
 *   answer), that is kept for `failureCacheMs`: during an outage each certificate costs one
 *   request (and one time-out) per period, not one per message.
 * - Concurrent checks of one certificate share one request.
 *
 * The URL comes from a certificate already verified as issued by a trusted Peppol AP CA: only
 * such CAs choose where these requests go. Redirects are not followed.
 */

export interface OcspSettings {
  /** Time limit of one request, answer included (AS4_OCSP_TIMEOUT_MS). */
  timeoutMs: number;
  /** Longest time an answer is kept (AS4_OCSP_CACHE_MAX_SECONDS). */
  maxCacheMs: number;
  /** How long "no answer" is kept before the responder is asked again. */
  failureCacheMs: number;
  /** Send a nonce (AS4_OCSP_NONCE) and require it back. */
  nonce: boolean;
  /** Tolerated clock difference with responders. */
  skewMs: number;
  /** The largest answer read. */
  maxResponseBytes: number;
  /** Most certificates kept; the oldest entry goes first. */
  maxEntries: number;
}

export const DEFAULT_OCSP_SETTINGS: OcspSettings = {
  timeoutMs: 5000,
  maxCacheMs: 60 * 60 * 1000,
  failureCacheMs: 60 * 1000,
  nonce: false,
  skewMs: 5 * 60 * 1000,
  maxResponseBytes: 64 * 1024,
  maxEntries: 10_000,
};

export type OcspStatus =
  /** The certificate names no OCSP responder: OCSP cannot say anything about it. */
  | { kind: 'no-responder' }
  | { kind: 'good'; url: string; signer: string; thisUpdate: Date }
  | { kind: 'revoked'; url: string; signer: string; revokedAt: Date; reason: string | null }
  /** No usable answer: `why` says what happened (unreachable, error status, invalid, stale, unknown). */
  | { kind: 'undetermined'; url: string; why: string };

/** POSTs a DER OCSPRequest and resolves with the HTTP status and body (at most `maxBytes`). */
export type OcspPost = (
  url: string,
  body: Buffer,
  options: { timeoutMs: number; maxBytes: number },
) => Promise<{ status: number; body: Buffer }>;

/** POSTs over httpPost (node:http: fetch took about four times its CPU per OCSP request here). */
export const postOcspRequest: OcspPost = async (url, body, options) => {
  const answer = await httpPost(
    new URL(url),
    body,
    { 'Content-Type': 'application/ocsp-request', Accept: 'application/ocsp-response' },
    options,
  );
  return { status: answer.status, body: answer.body };
};

/** The first http(s) OCSP responder URL of a certificate's Authority Information Access, or null. */
export function ocspUrlOf(certificate: X509Certificate): string | null {
  for (const line of (certificate.infoAccess ?? '').split('\n')) {
    const match = /^OCSP - URI:(https?:\/\/\S+)$/i.exec(line.trim());
    if (match) return match[1]!;
  }
  return null;
}

interface Kept {
  status: OcspStatus;
  until: number;
}

export class OcspChecker {
  private readonly kept = new Map<string, Kept>();
  private readonly asking = new Map<string, Promise<Kept>>();
  private readonly settings: OcspSettings;

  constructor(
    settings: Partial<OcspSettings> = {},
    private readonly post: OcspPost = postOcspRequest,
  ) {
    this.settings = { ...DEFAULT_OCSP_SETTINGS, ...settings };
  }

  /** The OCSP status of `certificate` (issued by `issuer`) at `now`, from the cache or its responder. */
  async status(certificate: X509Certificate, issuer: X509Certificate, now: Date): Promise<OcspStatus> {
    const url = ocspUrlOf(certificate);
    if (!url) return { kind: 'no-responder' };
    const key = `${issuer.fingerprint256}/${certificate.fingerprint256}`;
    const kept = this.kept.get(key);
    if (kept && kept.until > now.getTime()) return kept.status;
    let pending = this.asking.get(key);
    if (!pending) {
      pending = this.ask(url, certificate, issuer, now).finally(() => this.asking.delete(key));
      this.asking.set(key, pending);
    }
    const fresh = await pending;
    this.keep(key, fresh);
    return fresh.status;
  }

  private keep(key: string, fresh: Kept): void {
    this.kept.delete(key);
    if (this.kept.size >= this.settings.maxEntries) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(key, fresh);
  }

  private async ask(url: string, certificate: X509Certificate, issuer: X509Certificate, now: Date): Promise<Kept> {
    const { settings } = this;
    const undetermined = (why: string): Kept => ({
      status: { kind: 'undetermined', url, why },
      until: now.getTime() + settings.failureCacheMs,
    });
    const certId = certIdOf(certificate, issuer);
    const nonce = settings.nonce ? randomBytes(16) : null;
    let answer;
    try {
      answer = await this.post(url, ocspRequest(certId, nonce), {
        timeoutMs: settings.timeoutMs,
        maxBytes: settings.maxResponseBytes,
      });
    } catch (error) {
      return undetermined(`the OCSP responder ${url} did not answer (${(error as Error).message})`);
    }
    if (answer.status !== 200) return undetermined(`the OCSP responder ${url} answered HTTP ${answer.status}`);
    let checked;
    try {
      checked = checkOcspResponse(parseOcspResponse(answer.body), {
        certificate,
        issuer,
        certId,
        nonce,
        now,
        maxAgeMs: settings.maxCacheMs,
        skewMs: settings.skewMs,
      });
    } catch (error) {
      if (error instanceof DerError)
        return undetermined(`the OCSP responder ${url} answered no valid OCSP response: ${error.message}`);
      if (error instanceof OcspInvalid)
        return undetermined(`the answer of the OCSP responder ${url} is not usable: ${error.message}`);
      throw error;
    }
    const { status, signer, thisUpdate, nextUpdate } = checked;
    const until = Math.min(nextUpdate?.getTime() ?? Infinity, now.getTime() + settings.maxCacheMs);
    switch (status.kind) {
      case 'good':
        return { status: { kind: 'good', url, signer, thisUpdate }, until };
      case 'revoked':
        return {
          status: { kind: 'revoked', url, signer, revokedAt: status.revokedAt, reason: status.reason },
          until,
        };
      case 'unknown':
        return undetermined(`the OCSP responder ${url} does not know the certificate (status unknown)`);
    }
  }
}
