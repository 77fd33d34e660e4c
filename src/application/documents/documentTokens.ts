/**
 * Injection tokens of the document use cases' ports and settings (the ports themselves are in
 * documentWork.ts and pdfPorts.ts; the composition root binds them).
 */

/** `DocumentWork`: the heavy steps, off the event loop. */
export const DOCUMENT_WORK = Symbol('DocumentWork');
/** `PdfReader`: opens uploaded PDFs. */
export const PDF_READER = Symbol('PdfReader');
/** `DocumentSizeLimits & { text?: HygieneLimits }`: lines and attachments of one document, text limits. */
export const DOCUMENT_LIMITS = Symbol('DocumentLimits');
/** `number`: lines one list page carries in all (LIST_MAX_LINES). */
export const LIST_LINE_BUDGET = Symbol('ListLineBudget');
/** `number`: lines of the longest document rendered as a PDF (PDF_RENDER_MAX_LINES). */
export const MAX_RENDERED_LINES = Symbol('MaxRenderedLines');
