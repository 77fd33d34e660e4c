// Generated from the public code list (5 codes); do not edit by hand.
// Credit note type codes allowed in Peppol profile 01 (P0101)
export const peppolCreditNoteTypes: ReadonlySet<string> = new Set(['381', '396', '81', '83', '532']);
