/**
 * The fixed values of Peppol MLS 1.0 (OpenPeppol eDEC) that its rules check: the specification and
 * process identifiers, the two code lists and the SPID pattern. Kept beside the rules, which the
 * MLS document model (domain/peppol/mls) builds on.
 */
export const MLS_CUSTOMIZATION_ID = 'urn:peppol:edec:mls:1.0';
export const MLS_PROFILE_ID = 'urn:peppol:edec:mls';

/** AP: delivered with a confirmation; AB: delivered without one; RE: rejected, not delivered. */
export const MLS_RESPONSE_CODES = ['AP', 'AB', 'RE'] as const;
export type MlsResponseCode = (typeof MLS_RESPONSE_CODES)[number];
/** BV/BW: a business rule failed (fatal/warning); SV: a syntax violation; FD: failure of delivery. */
export const MLS_STATUS_REASONS = ['BV', 'BW', 'FD', 'SV'] as const;
export type MlsStatusReason = (typeof MLS_STATUS_REASONS)[number];

/** The participant identifier scheme (ISO 6523 ICD) of Peppol service providers (SPIS). */
export const SPIS_ICD = '0242';

/** The SPID pattern of the MLS specification (section 3.4), applied case-insensitively. */
const SPID = /^[0-9]{6}(-[0-9A-Z_]{3,12}(\.[0-9A-Z\-._~]{3,24})?)?$/i;

export const isSpid = (value: string): boolean => SPID.test(value);
