import { X509Certificate } from 'node:crypto';

/**
 * Certificates of base64 DER texts (a BinarySecurityToken, an SMP entry), each parsed once: every
 * message from a peer carries the same certificate, and parsing it cost more than verifying the
 * signature made with it. Least recently used entries go first when `capacity` is reached; a
 * certificate object is immutable, so it is shared.
 */
export class CertificateCache {
  private readonly parsed = new Map<string, X509Certificate>();

  constructor(private readonly capacity: number) {}

  /** Throws as `new X509Certificate` does for text that is not a certificate (which is not kept). */
  certificateOf(base64: string): X509Certificate {
    // White space is no part of base64 (a token may be wrapped over lines): one entry per certificate.
    const key = base64.replace(/\s/g, '');
    const known = this.parsed.get(key);
    if (known) {
      this.parsed.delete(key);
      this.parsed.set(key, known);
      return known;
    }
    const certificate = new X509Certificate(Buffer.from(key, 'base64'));
    if (this.parsed.size === this.capacity) this.parsed.delete(this.parsed.keys().next().value!);
    this.parsed.set(key, certificate);
    return certificate;
  }
}

/** The peers of one access point are few: this holds them all. */
const peers = new CertificateCache(512);

/** The certificate of a base64 DER text, parsed once per process (see CertificateCache). */
export const certificateOfBase64 = (base64: string): X509Certificate => peers.certificateOf(base64);
