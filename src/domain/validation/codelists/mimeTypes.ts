// Generated from the public code list (6 codes); do not edit by hand.
// Attachment MIME codes (BR-CL-24, PEPPOL-EN16931-CL001)
export const mimeTypes: ReadonlySet<string> = new Set([
  'application/pdf',
  'image/png',
  'image/jpeg',
  'text/csv',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.oasis.opendocument.spreadsheet',
]);
