// Generated from the public code list (26 codes); do not edit by hand.
// Invoice type codes allowed in Peppol profile 01 (P0100)
export const peppolInvoiceTypes: ReadonlySet<string> = new Set([
  "71", "80", "82", "84", "102", "218", "219", "326", "331", "380", "382", "383",
  "384", "386", "388", "393", "395", "553", "575", "623", "780", "817", "870", "875",
  "876", "877",
]);
