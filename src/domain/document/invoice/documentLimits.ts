/** How large one document may be: its cost (totals, UBL, rules, PDF) grows with these. */
export interface DocumentSizeLimits {
  /** Lines (MAX_DOCUMENT_LINES). */
  maxLines: number;
  /** Attachments (MAX_DOCUMENT_ATTACHMENTS). */
  maxAttachments: number;
  /** Lines of the longest document rendered as a PDF (PDF_RENDER_MAX_LINES): pdfmake needs about 10 ms and 1 MB a page. */
  maxRenderedLines: number;
}

/**
 * maxLines 10,000: every line is carried in the document's events (its JSON and its UBL) until
 * payloads move out of them, and a 28,000-line document (17 MB of UBL) costs the service's own
 * thread blocks of 40 to 130 ms as it is recorded and projected, enough to push another tenant's
 * p99 over 100 ms when one tenant creates such documents in a loop (see docs/operating/limits.md); at 10,000
 * it stays under 50 ms. Larger documents work when the operator raises the limit.
 */
export const DEFAULT_DOCUMENT_SIZE_LIMITS: DocumentSizeLimits = {
  maxLines: 10_000,
  maxAttachments: 50,
  maxRenderedLines: 5_000,
};

export const linesLimitMessage = (max: number) => `A document has at most ${max} lines (limit MAX_DOCUMENT_LINES)`;
export const attachmentsLimitMessage = (max: number) =>
  `A document has at most ${max} attachments (limit MAX_DOCUMENT_ATTACHMENTS)`;

/** Why a document is not rendered as a PDF. */
export const renderLimitMessage = (lines: number, max: number) =>
  `This document has ${lines} lines; PDFs are rendered for documents of at most ${max} lines (about ${Math.round(max / 23)} pages; limit PDF_RENDER_MAX_LINES)`;
