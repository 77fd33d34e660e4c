import { formatPeppolId, type PeppolId } from '../document/invoice/peppolId.js';

/** The Peppol participant identifier scheme: every Peppol id is an ISO 6523 `<icd>:<identifier>`. */
export const PARTICIPANT_SCHEME = 'iso6523-actorid-upis';

/**
 * The key one participant is known by: Peppol participant ids of this scheme are
 * case-insensitive (Policy for use of identifiers), so `0088:ABC` and `0088:abc` are one.
 * Works on unchecked text too, so a lookup of a malformed id simply finds nothing.
 */
export function participantKey(text: string): string | null {
  const bare = text.trim().replace(/^iso6523-actorid-upis::/i, '');
  const match = /^(\d{4}):(\S{1,135})$/.exec(bare);
  return match ? `${match[1]}:${match[2]!.toLowerCase()}` : null;
}

/** Whether two texts name the same participant (false when either is not a participant id). */
export const sameParticipant = (a: string | null, b: string | null): boolean => {
  const key = a === null ? null : participantKey(a);
  return key !== null && b !== null && key === participantKey(b);
};

/** `iso6523-actorid-upis::0208:0123456749`, the form SMP URLs and the SML use. */
export const participantUri = (id: PeppolId): string => `${PARTICIPANT_SCHEME}::${formatPeppolId(id)}`;

/** Whether an SMP path segment names a participant of our scheme (so SMP routes match nothing else). */
export const isParticipantUri = (text: string): boolean => /^iso6523-actorid-upis::/i.test(text);
