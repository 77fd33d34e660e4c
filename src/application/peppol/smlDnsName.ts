import { createHash } from 'node:crypto';
import type { PeppolId } from '../../domain/document/invoice/peppolId.js';
import { base32NoPadding, smlDnsNameOf, smlHashInput } from '../../domain/peppol/smlName.js';

/** The hashed label alone, of exactly the text given (callers lower-case it). */
export function smlHashLabel(hashInput: string): string {
  return base32NoPadding(createHash('sha256').update(hashInput, 'utf8').digest());
}

/** The SML (U-NAPTR) DNS name of a participant in a zone (the rule: domain/peppol/smlName.ts). */
export function smlDnsName(id: PeppolId, zone: string): string {
  return smlDnsNameOf(smlHashLabel(smlHashInput(id)), zone);
}

/**
 * The older SML CNAME name of a participant: `B-` + hex MD5 of the lower-cased `<icd>:<identifier>`,
 * the scheme, the zone. SMLs that predate U-NAPTR publish a CNAME to the SMP's host there.
 */
export function smlCnameName(id: PeppolId, zone: string): string {
  return smlDnsNameOf(`B-${createHash('md5').update(smlHashInput(id), 'utf8').digest('hex')}`, zone);
}
