import { PARTICIPANT_SCHEME } from '../participantId.js';
import { isSpid, SPIS_ICD } from '../../validation/rules/mls/mlsCodes.js';

export { isSpid, SPIS_ICD };

/**
 * OpenPeppol Service Provider Identification Scheme (SPIS): a service provider is a participant
 * `0242:<SPID>`, its SPID the six digits of its seat id (POP000123 → 000123), optionally with a
 * suffix naming a unit and a sub-unit. MLS travels between SPIDs; the Peppol Reporting is sent from one.
 */

/** `0242:<six digits of the seat>`: where a provider with this seat id receives MLS by default; null for no seat id. */
export function spidParticipantOfSeat(seatId: string): string | null {
  const match = /^P[A-Z]{2}(\d{6})$/i.exec(seatId.trim());
  return match ? `${SPIS_ICD}:${match[1]}` : null;
}

/** The SPID of a `0242:<SPID>` participant id, or null when it is not one. */
export function spidOf(participant: string): string | null {
  const colon = participant.indexOf(':');
  if (colon < 0 || participant.slice(0, colon) !== SPIS_ICD) return null;
  const spid = participant.slice(colon + 1).trim();
  return isSpid(spid) ? spid : null;
}

/** The six-digit main id of a SPID (the part a seat id carries). */
const mainId = (spid: string): string => spid.slice(0, 6);

/**
 * Whether an SBDH's MLS_TO may be used as given: a participant id in the Peppol scheme naming a
 * SPID whose main id is the sending provider's (its seat's six digits). Anything else goes to the
 * sender's default SPID instead (MLS Service Provider Operational Guideline, 5.1), so a sender
 * cannot have us send status messages to a third party.
 */
export function acceptableMlsTo(mlsTo: { scheme: string; value: string }, senderSeatId: string): boolean {
  if (mlsTo.scheme !== PARTICIPANT_SCHEME) return false;
  const spid = spidOf(mlsTo.value);
  const own = spidParticipantOfSeat(senderSeatId);
  return spid !== null && own !== null && mainId(spid).toLowerCase() === spidOf(own)!.toLowerCase();
}
