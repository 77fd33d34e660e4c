import type { EventMetadata } from '../ports/eventStore.js';
import { DocumentCommands, fileNameOf } from './documentCommands.js';
import { inject, injectable } from '../injection.js';
import { DOCUMENT_WORK, MAX_RENDERED_LINES, PDF_READER } from './documentTokens.js';
import { DEFAULT_DOCUMENT_SIZE_LIMITS, renderLimitMessage } from '../../domain/document/invoice/documentLimits.js';
import { invalid } from '../../domain/errors.js';
import type { EmbeddedFile, PdfReader } from './pdfPorts.js';
import type { DocumentWork, PdfDraftResult } from './documentWork.js';
import { DocumentContent, type DocumentWithContent } from './documentContent.js';
import { PersonalDataErasedError } from '../personalData/personalDataVault.js';
import { hasXmlFile } from '../../domain/document/ubl/embeddedDocument.js';
import type { ValidationResultIssue } from '../../domain/document/rules/documentCheck.js';
import type { DocumentJson } from '../../domain/document/invoice/documentJson.js';
import type { TextHints } from '../../domain/document/pdf-text/recoverDocument.js';

/** How the content of an uploaded PDF was obtained. */
export type ExtractionMethod = 'embedded_ubl' | 'embedded_cii' | 'text' | 'none';

export interface Extraction {
  method: ExtractionMethod;
  /** The embedded XML file that was read, when there was one. */
  embedded_file: string | null;
  pages: number;
  warnings: string[];
}

/** The outcome of POST /api/documents/pdf: the draft (when anything was found), and whether it is compliant. */
export interface PdfCreation {
  record: DocumentWithContent | null;
  document: DocumentJson;
  success: boolean;
  ubl: string | null;
  /** Why it is not compliant: what is missing or inconsistent (empty on success). */
  issues: ValidationResultIssue[];
  extraction: Extraction;
}

/**
 * PDF both ways: rendering documents (on demand; on creation see DocumentCommands.createFromJson)
 * and creating drafts from uploaded PDFs, from their embedded UBL/CII when they carry one, else
 * from their text. The reading runs in the PDF reader's worker, everything after it on the task pool.
 */
@injectable()
export class DocumentPdfs {
  constructor(
    @inject(DocumentCommands) private readonly documents: DocumentCommands,
    @inject(DOCUMENT_WORK) private readonly work: DocumentWork,
    @inject(PDF_READER) private readonly reader: PdfReader,
    /** The documents' payloads: a carried rendering, the UBL a new one embeds. */
    @inject(DocumentContent) private readonly content: DocumentContent,
    /** Lines of the longest document rendered (PDF_RENDER_MAX_LINES). */
    @inject(MAX_RENDERED_LINES) private readonly maxRenderedLines = DEFAULT_DOCUMENT_SIZE_LIMITS.maxRenderedLines,
  ) {}

  /**
   * A stored document (outbound or received) as a PDF: the rendering that travels in its UBL when
   * it has one (construct_pdf attaches it as <number>.pdf; a received document may carry its
   * sender's), so the seller and the buyer see the same file; else rendered now, with its UBL embedded.
   */
  async render(tenantId: string, record: DocumentWithContent): Promise<{ fileName: string; pdf: Buffer }> {
    // Its UBL (which a rendering embeds) and attachments went with its tenant's personal data.
    if (await this.content.erasedSince(record)) throw new PersonalDataErasedError(record.tenant_id);
    const fileName = fileNameOf(record.header, 'pdf');
    const carried = record.attachments.find(
      (a) => a.file_name === fileName && a.file_type === 'application/pdf' && a.content !== null,
    );
    // The same blob the attachment and the UBL's embedded binary are: one copy of the file.
    if (carried) return { fileName, pdf: await this.content.attachment(carried) };
    const lines = record.document.items.length;
    if (lines > this.maxRenderedLines)
      throw invalid(renderLimitMessage(lines, this.maxRenderedLines), ['path', 'documentId']);
    const embed: EmbeddedFile[] = [
      {
        fileName: record.file_name,
        mimeType: 'application/xml',
        content: Buffer.from(await this.content.ubl(record.ubl_ref)),
      },
    ];
    const pdf = await this.work.renderPdf({ tenantId }, record.document, record.state, embed);
    return { fileName, pdf: Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength) };
  }

  /** A DRAFT from an uploaded PDF. PdfUnreadable for files that are not PDFs we can open. */
  async createFromPdf(
    tenantId: string,
    file: { bytes: Buffer; fileName: string | null },
    hints: TextHints,
    metadata: EventMetadata,
  ): Promise<PdfCreation> {
    const owner = { tenantId };
    const pdf = { fileName: file.fileName, bytes: file.bytes };
    const ruleSet = this.documents.ruleSet();
    let result: PdfDraftResult = { kind: 'needs_text', warnings: [] };
    // The text layer is only read when there is no structured data to read instead; the embedded
    // files go to a worker only when one of them may be an invoice.
    const content = await this.reader.read(
      file.bytes,
      async (files) => {
        if (!hasXmlFile(files)) return true;
        result = await this.work.pdfDraft(owner, { files, pages: [], textRead: false, hints, pdf, ruleSet });
        return result.kind === 'needs_text';
      },
      owner,
    );
    if (result.kind === 'needs_text') {
      result = await this.work.pdfDraft(owner, {
        files: [],
        pages: content.pages,
        textRead: true,
        warnings: result.warnings,
        hints,
        pdf,
        ruleSet,
      });
    }
    const extraction = (method: ExtractionMethod, embeddedFile: string | null, warnings: string[]): Extraction => ({
      method,
      embedded_file: embeddedFile,
      pages: content.pageCount,
      warnings,
    });
    switch (result.kind) {
      case 'needs_text':
        throw new Error('the text of the PDF was read but not used');
      case 'nothing':
        return {
          record: null,
          document: result.document,
          success: false,
          ubl: null,
          issues: [result.issue],
          extraction: extraction(result.method, null, result.warnings),
        };
      case 'draft': {
        const record = await this.documents.createDraft(
          tenantId,
          'pdf',
          result.document,
          result.ubl,
          fileNameOf(result.document),
          metadata,
        );
        return {
          record,
          document: result.document,
          success: result.isValid,
          ubl: result.isValid ? result.ubl : null,
          issues: result.issues,
          extraction: extraction(result.method, result.embeddedFile, result.warnings),
        };
      }
    }
  }
}
