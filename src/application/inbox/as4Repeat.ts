import type { PartDigest } from '../../domain/peppol/as4/signalMessage.js';
import type { As4MessageReceived } from '../documents/as4MessageRecord.js';
import type { InboundAs4Message } from '../ports/as4Reception.js';

/**
 * A message whose MessageId was received before is a sender's retry when it carries the same
 * payloads as signed: the digests its signature gives the attachments (the SBDH and business
 * document, compressed). Everything else a sender may build anew for a retry is left out: the
 * encryption (a fresh key), the MIME boundary, the signature's ids and the ebMS header's timestamp.
 * The same bytes are the same payloads, so a retry of the very same request is one too.
 */
export function payloadDigests(references: readonly PartDigest[]): string[] {
  return references
    .filter((r) => r.uri.startsWith('cid:'))
    .map((r) => `${r.digestMethod} ${r.digestValue}`)
    .sort();
}

export type Repeat =
  /** The same message again: answered with its first receipt. */
  | { kind: 'retry' }
  /** The MessageId from another access point. */
  | { kind: 'other-sender' }
  /** The MessageId with other payloads: another message, which must have its own id. */
  | { kind: 'other-content' };

/**
 * What `message` is to the message first recorded under its MessageId. One recorded before the
 * digests were kept is taken as a retry, as it was then.
 */
export function repeatOf(first: As4MessageReceived['data'], message: InboundAs4Message): Repeat {
  if (first.sender_ap !== message.senderAp) return { kind: 'other-sender' };
  if (!first.payload_digests) return { kind: 'retry' };
  const digests = payloadDigests(message.references);
  const same =
    digests.length === first.payload_digests.length && digests.every((d, i) => d === first.payload_digests![i]);
  return same ? { kind: 'retry' } : { kind: 'other-content' };
}
