import { formatPeppolId, type PeppolId } from '../document/invoice/peppolId.js';
import { PARTICIPANT_SCHEME } from './participantId.js';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';

/** RFC 4648 base32 without padding, lower case (DNS names are case-insensitive; the SML publishes lower case). */
export function base32NoPadding(bytes: Uint8Array): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1;
  }
  if (bits > 0) out += BASE32[(buffer << (5 - bits)) & 31];
  return out;
}

/*
 * The SML (BDXL / U-NAPTR) DNS name of a participant, per the Peppol SML specification 1.3:
 * base32(sha256(lowercase("<scheme>:<identifier>"))) without padding, then the identifier
 * scheme, then the SML zone. Only the value is hashed (the scheme is a label of its own), which
 * is what the peppol-commons vectors in ../shared/peppol-vectors show. The domain states the rule;
 * the SHA-256 itself is computed by the caller (application/peppol/smlDnsName.ts), so nothing here
 * needs a crypto library.
 */

/** The text whose SHA-256 names a participant: its `<scheme>:<identifier>`, lower case. */
export const smlHashInput = (id: PeppolId): string => formatPeppolId(id).toLowerCase();

/** The full DNS name, from the hashed label: base32NoPadding of the hash input's SHA-256 digest. */
export const smlDnsNameOf = (hashLabel: string, zone: string): string =>
  `${hashLabel}.${PARTICIPANT_SCHEME}.${zone.replace(/\.$/, '')}`;

/** The current Peppol production SML zone (OpenPeppol's SML; the old EC zone edelivery.tech.ec.europa.eu is retired). */
export const PEPPOL_PRODUCTION_SML_ZONE = 'participant.sml.prod.tech.peppol.org';
