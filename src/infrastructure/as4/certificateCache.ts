import { X509Certificate } from 'node:crypto';

/** Certificates kept parsed; the peers of one access point are few, so this holds them all. */
const MAX_ENTRIES = 512;
const parsed = new Map<string, X509Certificate>();

/**
 * The certificate of a base64 DER text (a BinarySecurityToken, an SMP entry), parsed once: every
 * message from a peer carries the same certificate, and parsing it cost more than verifying the
 * signature made with it. Least recently used entries go first; a certificate object is immutable.
 * Throws as `new X509Certificate` does for text that is not a certificate (which is not kept).
 */
export function certificateOfBase64(base64: string): X509Certificate {
  const key = base64.replace(/\s+/g, '');
  const known = parsed.get(key);
  if (known) {
    parsed.delete(key);
    parsed.set(key, known);
    return known;
  }
  const certificate = new X509Certificate(Buffer.from(key, 'base64'));
  if (parsed.size >= MAX_ENTRIES) parsed.delete(parsed.keys().next().value!);
  parsed.set(key, certificate);
  return certificate;
}
