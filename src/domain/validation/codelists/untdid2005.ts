// Generated from the public code list (3 codes); do not edit by hand.
// UNTDID 2005 VAT date codes subset (BR-CL-06, CL006)
export const untdid2005: ReadonlySet<string> = new Set(['3', '35', '432']);
