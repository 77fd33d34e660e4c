import { randomUUID } from 'node:crypto';
import {
  MalformedBody,
  type JsonCheckOptions,
  type JsonCheckResult,
  type PdfDraftInput,
  type PdfDraftResult,
  type ReceivedCheck,
  type UblCheckOptions,
  type UblCheckResult,
} from '../../application/documents/documentWork.js';
import { DEFAULT_HYGIENE_LIMITS, jsonProblems, type InputProblem } from '../../domain/inputText.js';
import type { EmbeddedFile } from '../../application/documents/pdfPorts.js';
import { DocumentRejected, fileNameOf, safeFileName } from '../../application/documents/documentCommands.js';
import {
  checkDocument,
  issueFromRule,
  type DocumentCheck,
  type ValidationResultIssue,
} from '../../domain/document/rules/documentCheck.js';
import {
  DEFAULT_DOCUMENT_SIZE_LIMITS,
  renderLimitMessage,
  type DocumentSizeLimits,
} from '../../domain/document/invoice/documentLimits.js';
// The request codec is the HTTP edge's; this worker runs it so a large body is decoded off the event loop.
import { toDocumentJson, type DocumentJson } from '../../domain/document/invoice/documentJson.js';
import type { Attachment, Document, DocumentState } from '../../domain/document/invoice/documentModel.js';
import { completeDocument } from '../../domain/document/invoice/documentTotals.js';
import { ublWithAttachments } from '../../domain/document/rules/documentAttachments.js';
import { recoverFromText } from '../../domain/document/pdf-text/recoverDocument.js';
import { readUbl } from '../../domain/document/ubl/ublReader.js';
import { serializeUbl, writeUblTree } from '../../domain/document/ubl/ublWriter.js';
import {
  LATEST_RULE_SET,
  ruleSetById,
  validateUblTree,
  type RuleSet,
  type RuleSetId,
} from '../../domain/validation/index.js';

/** A task's rule set, named by id (tasks cross threads as plain data). */
const ruleSetOf = (id: RuleSetId | undefined): RuleSet => (id && ruleSetById(id)) || LATEST_RULE_SET;
import { PdfmakeRenderer, renderDocumentPdf } from '../pdf/invoicePdf.js';
import { readEmbeddedDocument } from '../xml/embeddedXml.js';
import { schemaIssuesOf } from '../xml/schemaValidator.js';
import { parseOwnUbl, parseUbl } from '../xml/ublText.js';
import { parseOwnXml } from '../xml/xmlParser.js';
import { readSbdh, type SbdhRead } from '../as4/sbdhXml.js';
import { bindIssuer } from '../../domain/peppol/senderIdentity.js';

/*
 * The document work itself, as plain functions of plain data: the worker processes run them
 * (taskProcess.ts), and so does the calling thread for inputs too small to be worth a hop
 * (pooledDocumentWork.ts). Errors they throw are the domain's and application's own.
 */

const isFatal = (issue: ValidationResultIssue) => issue.flag === 'fatal';
const renderer = new PdfmakeRenderer();

const pdfAttachment = (fileName: string, pdf: Uint8Array): Attachment => {
  const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
  return {
    id: randomUUID(),
    file_name: fileName,
    file_type: 'application/pdf',
    file_size: bytes.length,
    file_data: bytes.toString('base64'),
    file_url: null,
  };
};

/** Attachment ids are fixed before the UBL is written, so that the UBL embedded in a PDF and the stored one agree. */
const withIds = (attachments: Attachment[]): Attachment[] =>
  attachments.map((a) => ({ ...a, id: a.id ?? randomUUID() }));

const checked = (check: DocumentCheck): JsonCheckResult => ({
  ok: true,
  document: toDocumentJson(check.document),
  ubl: check.ubl,
  issues: check.issues,
  isValid: check.isValid,
});

/** A create or validate request body decoded into the domain's document, or the problems found. */
export type DocumentDecoder = (
  body: unknown,
  limits?: DocumentSizeLimits,
) => { ok: true; value: Document } | { ok: false; errors: InputProblem[] };

let decodeDocument: DocumentDecoder | null = null;

/**
 * The request codec is the HTTP edge's (http/codecs/documentCodec.ts), which this layer may not
 * import: each process's composition root gives it here (composition/shared.ts for the service's
 * own thread, composition/taskProcess.ts for the worker processes), as it gives the XML limits.
 */
export function useDocumentDecoder(decoder: DocumentDecoder): void {
  decodeDocument = decoder;
}

/**
 * A create or validate request body: decoded, completed, written as UBL and checked. With
 * `renderPdf` (construct_pdf=true) the rendering is attached and embedded in the UBL; the PDF
 * carries the UBL of the document as it was before (a document cannot embed itself), so
 * uploading the PDF again gives back the same document.
 */
export async function checkJson(input: unknown, options: JsonCheckOptions): Promise<JsonCheckResult> {
  const body = input instanceof Uint8Array ? parseBody(input) : input;
  if (input instanceof Uint8Array) {
    const problems = jsonProblems(body, options.text ?? DEFAULT_HYGIENE_LIMITS);
    if (problems.length > 0) return { ok: false, errors: problems };
  }
  if (!decodeDocument) throw new Error('No document decoder: the composition root gives one (useDocumentDecoder)');
  const decoded = decodeDocument(body, options.limits);
  if (!decoded.ok) return { ok: false, errors: decoded.errors };
  const bound = bindIssuer(decoded.value, options.ownParticipantIds ?? []);
  if (!bound.ok)
    return { ok: false, errors: [{ loc: bound.loc, msg: bound.msg, type: 'value_error.sender_identity' }] };
  const maxRendered = options.limits?.maxRenderedLines ?? DEFAULT_DOCUMENT_SIZE_LIMITS.maxRenderedLines;
  if (options.renderPdf && bound.document.items.length > maxRendered) {
    return {
      ok: false,
      errors: [
        {
          loc: ['query', 'construct_pdf'],
          msg: renderLimitMessage(bound.document.items.length, maxRendered),
          type: 'limit_exceeded',
        },
      ],
    };
  }
  const document = { ...bound.document, attachments: withIds(bound.document.attachments) };
  const ruleSet = ruleSetOf(options.ruleSet);
  if (!options.renderPdf) return checked(checkDocument(document, ruleSet));
  const before = checkDocument(document, ruleSet);
  if (!before.isValid) throw new DocumentRejected(before.issues.filter(isFatal));
  const pdf = await renderer.render(before.document, [
    { fileName: fileNameOf(before.document), mimeType: 'application/xml', content: Buffer.from(before.ubl) },
  ]);
  return checked(
    checkDocument(
      {
        ...document,
        attachments: [...document.attachments, pdfAttachment(fileNameOf(before.document, 'pdf'), pdf)],
      },
      ruleSet,
    ),
  );
}

function parseBody(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  } catch {
    throw new MalformedBody();
  }
}

const schemaIssues = (native: Parameters<typeof schemaIssuesOf>[0]): ValidationResultIssue[] =>
  schemaIssuesOf(native).map((issue) => ({
    message: issue.message,
    type: 'error',
    flag: 'fatal',
    rule_id: 'UBL-XSD',
    location: issue.line ? `line ${issue.line}` : null,
    schematron: 'UBL-2.1-XSD',
  }));

/**
 * Uploaded (or stored) UBL, parsed once (refused there when it is not acceptable XML: XmlInputError):
 * the schema on libxml2's document of that parse, the rules and the reading on its tree. UBL we
 * write ourselves is not run through the XSD on every request: the writer emits the schema's
 * element order by construction, and the suite proves its output schema-valid.
 */
export function checkUbl(xml: Uint8Array | string, options: UblCheckOptions): UblCheckResult {
  // Bytes (an upload) are decoded strictly once, so UTF-8 and UTF-16 give the same result and the
  // same stored text (declared UTF-8, which is what it is stored as).
  const { text, tree, schema } = parsedWithSchema(xml);
  const rules = validateUblTree(tree, { ruleSet: ruleSetOf(options.ruleSet) }).map(issueFromRule);
  const issues = [...schema, ...rules];
  const document = options.read && !issues.some(isFatal) ? toDocumentJson(readUbl(tree.root)) : null;
  return { text: typeof xml === 'string' ? xml : text, issues, document };
}

/** The upload's one parse and the schema's verdict on it; libxml2's document is let go on return, before the rules run. */
function parsedWithSchema(xml: Uint8Array | string) {
  const { text, tree, native } = parseUbl(xml);
  return { text, tree, schema: schemaIssues(native) };
}

/**
 * UBL that passed the untrusted-XML gate before (an upload, checked when it came; a received SBDH's
 * business document, which libxml2 serialized from the payload it accepted) is read without it.
 */
export function readDocument(ubl: string): DocumentJson {
  return toDocumentJson(readUbl(parseOwnXml(ubl)));
}

/**
 * A business document received over AS4 (it passed the untrusted-XML gate as the payload): the
 * business rules of `ruleSet` on its tree, then the document read from it when no rule is fatal.
 * No XSD: that the receiver can read the document is what the reception checks of its syntax.
 */
export function readReceivedDocument(ubl: string, ruleSet: RuleSetId | undefined): ReceivedCheck {
  const tree = parseOwnUbl(ubl);
  const issues = validateUblTree(tree, { ruleSet: ruleSetOf(ruleSet) }).map(issueFromRule);
  return { issues, document: issues.some(isFatal) ? null : toDocumentJson(readUbl(tree.root)) };
}

/** The current UBL is ours (stored): it is parsed only if the new one breaks a rule, to compare. */
export function attachmentUbl(document: DocumentJson, currentUbl: string, extraBytes = 0): string {
  return ublWithAttachments(document, () => parseOwnUbl(currentUbl), extraBytes);
}

export function renderPdf(document: DocumentJson, state: DocumentState, embed: EmbeddedFile[]): Promise<Uint8Array> {
  return renderDocumentPdf({ document: { ...document, state }, embed });
}

const pdfIssue = (ruleId: string, message: string): ValidationResultIssue => ({
  message,
  type: 'error',
  flag: 'fatal',
  rule_id: ruleId,
  location: null,
  schematron: 'PDF',
});

/**
 * Structured data (UBL, CII) is an e-invoice already: it is held to the EN 16931 and Peppol rules
 * with their tolerances, as POST /api/documents/ubl holds uploaded UBL, not to the minimum the JSON
 * API asks of callers (category O documents, for one, carry no VAT numbers at all).
 */
function checkEmbedded(document: Document, ruleSet: RuleSet): DocumentCheck {
  const { document: completed } = completeDocument(document, 'rules');
  const tree = writeUblTree(completed);
  const issues = validateUblTree(tree, { ruleSet }).map(issueFromRule);
  return { document: completed, ubl: serializeUbl(tree), issues, isValid: !issues.some(isFatal) };
}

/**
 * An uploaded PDF's content as a draft: its embedded UBL or CII when it carries one, else what
 * its text says. Without the text read yet and no structured data found, asks for the text.
 */
export function pdfDraft(input: PdfDraftInput): PdfDraftResult {
  const embedded = readEmbeddedDocument(input.files);
  const warnings = [...(input.warnings ?? []), ...embedded.problems];
  let document: Document;
  let method: 'embedded_ubl' | 'embedded_cii' | 'text';
  if (embedded.found) {
    document = embedded.found.document;
    method = embedded.found.format === 'ubl' ? 'embedded_ubl' : 'embedded_cii';
  } else {
    if (!input.textRead) return { kind: 'needs_text', warnings };
    const recovered = recoverFromText(input.pages, input.hints);
    warnings.push(...recovered.warnings);
    const d = recovered.document;
    if (!recovered.hasText) {
      return {
        kind: 'nothing',
        document: toDocumentJson(d),
        method: 'none',
        warnings,
        issue: pdfIssue(
          'PDF-NO-TEXT',
          'The PDF has no text layer (it looks like a scanned image); nothing could be read from it. Upload the original PDF or an e-invoice (UBL) instead.',
        ),
      };
    }
    if (
      d.invoice_id === null &&
      d.items.length === 0 &&
      d.invoice_total === null &&
      d.amount_due === null &&
      d.vendor_name === null
    ) {
      return {
        kind: 'nothing',
        document: toDocumentJson(d),
        method: 'text',
        warnings,
        issue: pdfIssue(
          'PDF-NOT-INVOICE',
          'No invoice data (number, lines, totals, seller) was found in the text of this PDF.',
        ),
      };
    }
    document = d;
    method = 'text';
  }
  // The uploaded PDF stays with the draft (and goes into its UBL) as the human-readable original.
  const fileName =
    input.pdf.fileName && /\.pdf$/i.test(input.pdf.fileName)
      ? safeFileName(input.pdf.fileName)
      : fileNameOf(document, 'pdf');
  document = {
    ...document,
    state: 'DRAFT',
    direction: 'OUTBOUND',
    attachments: [...withIds(document.attachments), pdfAttachment(fileName, input.pdf.bytes)],
  };
  const ruleSet = ruleSetOf(input.ruleSet);
  const check = embedded.found ? checkEmbedded(document, ruleSet) : checkDocument(document, ruleSet);
  // A compliant document is kept with every total computed; one that is not keeps what the PDF said.
  const kept = check.isValid ? check.document : document;
  return {
    kind: 'draft',
    document: toDocumentJson(kept),
    ubl: check.ubl,
    isValid: check.isValid,
    issues: check.issues.filter(isFatal),
    method,
    embeddedFile: embedded.found?.fileName ?? null,
    warnings,
  };
}

/** The SBDH of a large received AS4 payload and the business document in it (as4/sbdhXml.ts). */
export function readSbdhPayload(payload: Uint8Array): SbdhRead {
  return readSbdh(Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength));
}

/** Every task by name, for the worker's dispatch. */
export const documentTasks = {
  checkJson,
  checkUbl,
  readDocument,
  readReceivedDocument,
  attachmentUbl,
  renderPdf,
  pdfDraft,
  readSbdhPayload,
} as const;
export type DocumentTasks = typeof documentTasks;
export type TaskName = keyof DocumentTasks;
