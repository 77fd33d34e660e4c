import * as t from 'io-ts';
import type { DocumentCommands } from '../../../application/documents/documentCommands.js';
import type { DocumentPdfs, PdfCreation } from '../../../application/documents/documentPdfs.js';
import { PdfUnreadable } from '../../../application/documents/pdfPorts.js';
import type { PdfUnreadableReason } from '../../../application/documents/pdfPorts.js';
import { toResponse } from '../../../domain/document/invoice/documentModel.js';
import { fromDocumentJson } from '../../../domain/document/invoice/documentJson.js';
import { vatIdentifierOf } from '../../../domain/document/invoice/partyIdentifiers.js';
import { vatNumberProblem } from '../../../domain/document/invoice/vatNumber.js';
import { assertNever } from '../../../domain/decider.js';
import { documentResponse, withSendBlock } from '../../../application/readModels/documentView.js';
import type { ParticipantHolder } from '../../../domain/peppol/senderIdentity.js';
import { tenantOf } from '../../auth.js';
import { decode } from '../../codecs.js';
import { HttpError } from '../../errors.js';
import type { FieldProblem } from '../../errors.js';
import { commandMetadata } from '../../requestContext.js';
import type { RouteRegistry } from '../../routeRegistry.js';
import { uploadedFile } from '../../uploads.js';
import { PdfCreationAnswer } from '../../codecs/documentAnswers.js';

const PdfQuery = t.partial({ vendor_tax_id: t.string, customer_tax_id: t.string });
const NO_RAW_BODY = /^$/;

/** A VAT-number hint (VAT form, or a 0208/99xx participant id that implies one); 422 when it is neither. */
function hintOf(value: string | undefined, name: string, problems: FieldProblem[]): string | null {
  if (value === undefined || value.trim() === '') return null;
  const vat = vatIdentifierOf(value.trim());
  const problem = vat ? vatNumberProblem(vat) : 'not a VAT number';
  if (problem) {
    problems.push({ loc: ['query', name], msg: `${name}: ${problem}`, type: 'value_error' });
    return null;
  }
  return vat;
}

const statusOf = (reason: PdfUnreadableReason): number => {
  switch (reason) {
    case 'not_pdf':
      return 415;
    case 'encrypted':
      return 422;
    case 'corrupt':
      return 400;
    case 'too_large':
      return 413;
    // A property of the file (reading it again takes as long), not of the service's load: not a 503.
    case 'timed_out':
      return 422;
    case 'busy':
      return 429;
    default:
      return assertNever(reason);
  }
};

/** The PDF creation result: the Document, success, ubl_document, and what was missing or read. */
async function creationResponse(
  result: PdfCreation,
  tenant: ParticipantHolder,
): Promise<t.TypeOf<typeof PdfCreationAnswer>> {
  const document = result.record
    ? withSendBlock(await documentResponse(result.record), tenant)
    : toResponse(fromDocumentJson(result.document));
  return {
    ...document,
    success: result.success,
    ubl_document: result.ubl,
    issues: result.issues,
    extraction: result.extraction,
  };
}

/** PDF both ways: a document rendered as PDF, and a draft created from an uploaded PDF. */
export function documentPdfRoutes(
  routes: RouteRegistry,
  documents: DocumentCommands,
  pdfs: DocumentPdfs,
  uploadLimit: number,
): void {
  routes.add({
    method: 'post',
    path: '/api/documents/pdf',
    summary:
      'Create a DRAFT from a PDF (multipart field "file"): its embedded UBL or Factur-X/ZUGFeRD CII when it has one, else its text. ' +
      'success and ubl_document only when the result passes validation; issues say what is missing',
    tag: 'documents',
    auth: 'tenant',
    query: PdfQuery,
    upload: {},
    responses: {
      200: 'The PDF creation result (a draft is recorded when anything was found: id is set)',
      400: 'Damaged PDF',
      413: 'Too large: the upload, or what it decompresses to',
      415: 'Not a PDF',
      422: 'Encrypted PDF, too slow to read, bad hints or no file',
    },
    idempotent: true,
    answer: PdfCreationAnswer,
    handler: async (req, res, answer) => {
      const query = decode(PdfQuery, req.query, 'query');
      const problems: FieldProblem[] = [];
      const hints = {
        vendorTaxId: hintOf(query.vendor_tax_id, 'vendor_tax_id', problems),
        customerTaxId: hintOf(query.customer_tax_id, 'customer_tax_id', problems),
      };
      if (problems.length > 0) throw new HttpError(422, problems);
      if (!/^multipart\/form-data/i.test(req.headers['content-type'] ?? '')) {
        throw new HttpError(415, 'Send the PDF as multipart/form-data, in the field "file"');
      }
      const file = await uploadedFile(req, res, uploadLimit, NO_RAW_BODY);
      try {
        const result = await pdfs.createFromPdf(
          tenantOf(res).tenantId,
          { bytes: file.buffer, fileName: file.fileName },
          hints,
          commandMetadata(req, res),
        );
        answer(await creationResponse(result, tenantOf(res).tenant));
      } catch (error) {
        if (error instanceof PdfUnreadable)
          throw new HttpError(
            statusOf(error.reason),
            error.message,
            error.reason === 'busy' ? { 'Retry-After': '5' } : {},
          );
        throw error;
      }
    },
  });
  routes.add({
    method: 'get',
    path: '/api/documents/:documentId/pdf',
    summary:
      'The document as a PDF, for any document of the tenant, received ones too: the rendering its UBL carries (construct_pdf), the same bytes the receiver gets; else rendered now (A4, with its UBL embedded)',
    tag: 'documents',
    auth: 'tenant',
    responses: { 200: 'application/pdf', 404: 'Not found' },
    media: { 'application/pdf': 'The PDF (A4, its UBL embedded)' },
    handler: async (req, res) => {
      const { tenantId } = tenantOf(res);
      const record = await documents.get(tenantId, String(req.params.documentId));
      const { fileName, pdf } = await pdfs.render(tenantId, record);
      res.type('application/pdf').setHeader('Content-Disposition', `inline; filename="${fileName}"`);
      res.send(pdf);
    },
  });
}
