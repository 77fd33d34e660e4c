// Generated from the public code list (10 codes); do not edit by hand.
// UNCL 5305 VAT category codes, EN 16931 subset (BR-CL-17/18)
export const uncl5305: ReadonlySet<string> = new Set(['AE', 'L', 'M', 'E', 'S', 'Z', 'G', 'O', 'K', 'B']);
