import type { PartDigest } from './signalMessage.js';

export type ReceiptMatch = { matches: true } | { matches: false; reason: string };

/**
 * Whether a non-repudiation Receipt acknowledges exactly the parts we signed: every reference we
 * sent must come back with the same URI, digest method and digest value, and the receipt may name
 * nothing we did not send. A receipt that leaves out the payload, or carries another digest for it,
 * proves nothing about what the receiver got.
 */
export function matchReceipt(sent: readonly PartDigest[], acknowledged: readonly PartDigest[]): ReceiptMatch {
  if (acknowledged.length === 0)
    return { matches: false, reason: 'the receipt carries no non-repudiation information' };
  const byUri = new Map<string, PartDigest>();
  for (const reference of acknowledged) {
    if (byUri.has(reference.uri)) return { matches: false, reason: `the receipt names ${reference.uri} twice` };
    byUri.set(reference.uri, reference);
  }
  for (const reference of sent) {
    const back = byUri.get(reference.uri);
    if (!back) return { matches: false, reason: `the receipt does not acknowledge ${reference.uri}` };
    if (back.digestMethod !== reference.digestMethod) {
      return {
        matches: false,
        reason: `the receipt digests ${reference.uri} with ${back.digestMethod}, we used ${reference.digestMethod}`,
      };
    }
    if (back.digestValue.replace(/\s+/g, '') !== reference.digestValue.replace(/\s+/g, '')) {
      return { matches: false, reason: `the receipt's digest of ${reference.uri} differs from what we sent` };
    }
    byUri.delete(reference.uri);
  }
  const extra = [...byUri.keys()];
  if (extra.length > 0)
    return { matches: false, reason: `the receipt acknowledges parts we did not send: ${extra.join(', ')}` };
  return { matches: true };
}
