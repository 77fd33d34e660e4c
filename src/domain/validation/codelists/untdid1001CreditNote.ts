// Generated from the public code list (11 codes); do not edit by hand.
// UNTDID 1001 credit note subset (BR-CL-01)
export const untdid1001CreditNote: ReadonlySet<string> = new Set([
  '81',
  '83',
  '261',
  '262',
  '296',
  '308',
  '381',
  '396',
  '420',
  '458',
  '532',
]);
