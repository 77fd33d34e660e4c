import { randomUUID } from 'node:crypto';
import type { EventMetadata } from '../ports/eventStore.js';
import type { DocumentCommands } from './documentCommands.js';
import { DocumentRejected, fileNameOf } from './documentCommands.js';
import type { PdfReader, PdfRenderer } from './pdfPorts.js';
import type { DocumentRecord } from '../../domain/document/documentAggregate.js';
import { checkDocument, issueFromRule } from '../../domain/document/documentCheck.js';
import type { DocumentCheck, ValidationResultIssue } from '../../domain/document/documentCheck.js';
import { completeDocument } from '../../domain/document/documentTotals.js';
import { writeUbl } from '../../domain/document/ublWriter.js';
import { validateUbl } from '../../domain/validation/index.js';
import { fromDocumentJson } from '../../domain/document/documentJson.js';
import type { Attachment, Document } from '../../domain/document/documentModel.js';
import { embeddedDocumentOf } from '../../domain/document/embeddedDocument.js';
import { recoverFromText } from '../../domain/document/textRecovery/recoverDocument.js';
import type { TextHints } from '../../domain/document/textRecovery/recoverDocument.js';

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
  record: DocumentRecord | null;
  document: Document;
  success: boolean;
  ubl: string | null;
  /** Why it is not compliant: what is missing or inconsistent (empty on success). */
  issues: ValidationResultIssue[];
  extraction: Extraction;
}

const safeName = (name: string): string => name.replace(/[^A-Za-z0-9._-]/g, '_');
const baseNameOf = (doc: Pick<Document, 'invoice_id'>): string => safeName(doc.invoice_id ?? 'document');

const isFatal = (i: ValidationResultIssue) => i.flag === 'fatal';

/** A reason the whole upload could not become a document, in the shape of a validation issue. */
const pdfIssue = (ruleId: string, message: string): ValidationResultIssue => ({
  message, type: 'error', flag: 'fatal', rule_id: ruleId, location: null, schematron: 'PDF',
});

/** Attachment ids are fixed before the UBL is written, so that the UBL embedded in a PDF and the stored one agree. */
const withIds = (attachments: Attachment[]): Attachment[] => attachments.map((a) => ({ ...a, id: a.id ?? randomUUID() }));

/**
 * Structured data (UBL, CII) is an e-invoice already: it is held to the EN 16931 and Peppol rules
 * with their tolerances, as POST /api/documents/ubl holds uploaded UBL, not to the minimum the JSON
 * API asks of callers (category O documents, for one, carry no VAT numbers at all).
 */
function checkEmbedded(document: Document): DocumentCheck {
  const { document: completed } = completeDocument(document, 'rules');
  const ubl = writeUbl(completed);
  const issues = validateUbl(ubl).map(issueFromRule);
  return { document: completed, ubl, issues, isValid: !issues.some(isFatal) };
}

const pdfAttachment = (fileName: string, pdf: Buffer): Attachment => ({
  id: randomUUID(), file_name: fileName, file_type: 'application/pdf', file_size: pdf.length, file_data: pdf.toString('base64'), file_url: null,
});

/**
 * PDF both ways: rendering documents (on creation with construct_pdf, and on demand) and creating
 * drafts from uploaded PDFs, from their embedded UBL/CII when they carry one, else from their text.
 */
export class DocumentPdfs {
  constructor(
    private readonly documents: DocumentCommands,
    private readonly renderer: PdfRenderer,
    private readonly reader: PdfReader,
  ) {}

  /**
   * The create request with its rendering added as a PDF attachment (construct_pdf=true). The PDF
   * carries the UBL of the document as it is before the PDF is attached (a document cannot embed
   * itself), so uploading the PDF again gives back the same document.
   */
  async withRenderedPdf(input: Document): Promise<Document> {
    const document = { ...input, attachments: withIds(input.attachments) };
    const check = checkDocument(document);
    if (!check.isValid) throw new DocumentRejected(check.issues.filter(isFatal));
    const base = baseNameOf(check.document);
    const pdf = await this.renderer.render(check.document, [{ fileName: `${base}.xml`, mimeType: 'application/xml', content: Buffer.from(check.ubl) }]);
    return { ...document, attachments: [...document.attachments, pdfAttachment(`${base}.pdf`, pdf)] };
  }

  /** A stored document (outbound or received) rendered now, with its UBL embedded. */
  async render(record: DocumentRecord): Promise<{ fileName: string; pdf: Buffer }> {
    const document = { ...fromDocumentJson(record.document), state: record.state };
    const base = baseNameOf(document);
    const pdf = await this.renderer.render(document, [{ fileName: record.file_name, mimeType: 'application/xml', content: Buffer.from(record.ubl) }]);
    return { fileName: `${base}.pdf`, pdf };
  }

  /** A DRAFT from an uploaded PDF. PdfUnreadable for files that are not PDFs we can open. */
  async createFromPdf(
    tenantId: string,
    file: { bytes: Buffer; fileName: string | null },
    hints: TextHints,
    metadata: EventMetadata,
  ): Promise<PdfCreation> {
    let embedded: ReturnType<typeof embeddedDocumentOf> = { found: null, problems: [] };
    // The text layer is only read when there is no structured data to read instead.
    const content = await this.reader.read(file.bytes, (files) => {
      embedded = embeddedDocumentOf(files);
      return embedded.found === null;
    });
    const extraction: Extraction = { method: 'none', embedded_file: null, pages: content.pageCount, warnings: [...embedded.problems] };
    let document: Document;
    if (embedded.found) {
      document = embedded.found.document;
      extraction.method = embedded.found.format === 'ubl' ? 'embedded_ubl' : 'embedded_cii';
      extraction.embedded_file = embedded.found.fileName;
    } else {
      const recovered = recoverFromText(content.pages, hints);
      extraction.warnings.push(...recovered.warnings);
      if (!recovered.hasText) {
        return this.nothing(recovered.document, extraction, pdfIssue('PDF-NO-TEXT', 'The PDF has no text layer (it looks like a scanned image); nothing could be read from it. Upload the original PDF or an e-invoice (UBL) instead.'));
      }
      document = recovered.document;
      extraction.method = 'text';
      const d = document;
      if (d.invoice_id === null && d.items.length === 0 && d.invoice_total === null && d.amount_due === null && d.vendor_name === null) {
        return this.nothing(d, extraction, pdfIssue('PDF-NOT-INVOICE', 'No invoice data (number, lines, totals, seller) was found in the text of this PDF.'));
      }
    }

    // The uploaded PDF stays with the draft (and goes into its UBL) as the human-readable original.
    const fileName = file.fileName && /\.pdf$/i.test(file.fileName) ? safeName(file.fileName) : `${baseNameOf(document)}.pdf`;
    document = { ...document, state: 'DRAFT', direction: 'OUTBOUND', attachments: [...withIds(document.attachments), pdfAttachment(fileName, file.bytes)] };
    const check = embedded.found ? checkEmbedded(document) : checkDocument(document);
    // A compliant document is kept with every total computed; one that is not keeps what the PDF said.
    const kept = check.isValid ? check.document : document;
    const record = await this.documents.createDraft(tenantId, 'pdf', kept, check.ubl, fileNameOf(kept), metadata);
    return {
      record,
      document: kept,
      success: check.isValid,
      ubl: check.isValid ? check.ubl : null,
      issues: check.issues.filter(isFatal),
      extraction,
    };
  }

  private nothing(document: Document, extraction: Extraction, issue: ValidationResultIssue): PdfCreation {
    return { record: null, document, success: false, ubl: null, issues: [issue], extraction };
  }
}
