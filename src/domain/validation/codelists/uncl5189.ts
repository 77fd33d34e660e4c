// Generated from the public code list (19 codes); do not edit by hand.
// UNCL 5189 allowance reason codes, EN 16931 subset (BR-CL-19, CL002)
export const uncl5189: ReadonlySet<string> = new Set([
  '41',
  '42',
  '60',
  '62',
  '63',
  '64',
  '65',
  '66',
  '67',
  '68',
  '70',
  '71',
  '88',
  '95',
  '100',
  '102',
  '103',
  '104',
  '105',
]);
