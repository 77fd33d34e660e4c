import type { Document } from '../../domain/document/invoice/documentModel.js';
import type { TextPage } from '../../domain/document/pdf-text/textLayout.js';

/** A file carried inside a PDF (e.g. the UBL of our own renderings, or the CII XML of a Factur-X PDF). */
export interface EmbeddedFile {
  fileName: string;
  mimeType: string | null;
  content: Buffer;
}

/** Renders a document as a human-readable PDF, with files embedded in it. */
export interface PdfRenderer {
  render(document: Document, embed: EmbeddedFile[]): Promise<Buffer>;
}

/** What a PDF holds that we can use: its embedded files and the positioned text of each page. */
export interface PdfContent {
  pageCount: number;
  embeddedFiles: EmbeddedFile[];
  /** Empty when the text was not wanted. */
  pages: TextPage[];
  /** Whether the file was encrypted (readable without a password, e.g. only restricted from editing). */
  encrypted: boolean;
}

/** too_large: a limit on size (decompressed bytes, memory); timed_out: the time one file may take to read. */
/** `busy`: the tenant has too many uploads waiting to be read; not about the file. */
export type PdfUnreadableReason = 'not_pdf' | 'encrypted' | 'corrupt' | 'too_large' | 'timed_out' | 'busy';

/** The upload is not a PDF we can open; the message says why, for the caller. */
export class PdfUnreadable extends Error {
  constructor(
    readonly reason: PdfUnreadableReason,
    message: string,
  ) {
    super(message);
    this.name = 'PdfUnreadable';
  }
}

/**
 * Opens a PDF: embedded files, then (when `wantText` says so, given those files) the text layer,
 * which is the slow part. Throws PdfUnreadable.
 */
export interface PdfReader {
  read(
    bytes: Buffer,
    wantText?: (embeddedFiles: EmbeddedFile[]) => boolean | Promise<boolean>,
    owner?: { tenantId: string },
  ): Promise<PdfContent>;
}
