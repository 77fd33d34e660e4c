import { randomUUID, createHash } from 'node:crypto';
import type { EventMetadata, EventStore } from '../ports/eventStore.js';
import { handleCommand, loadState, loadStream } from '../commandHandler.js';
import {
  documentDecider,
  documentStream,
  type DocumentAggregateState,
  type DocumentCommand,
  type DocumentRecord,
  type DocumentSource,
  type StoredAttachment,
} from '../../domain/document/documentAggregate.js';
import { toDocumentJson } from '../../domain/document/documentJson.js';
import type { Document } from '../../domain/document/documentModel.js';
import { checkDocument, issueFromRule, newValidationId, type ValidationResultIssue } from '../../domain/document/documentCheck.js';
import { readUbl } from '../../domain/document/ublReader.js';
import { decodeXmlBytes, validateUbl } from '../../domain/validation/index.js';
import { notFound } from '../../domain/errors.js';

export interface ValidationResult {
  id: string;
  file_name: string | null;
  is_valid: boolean;
  issues: ValidationResultIssue[];
  ubl_document?: string | null;
}

/** The document's content did not pass validation: nothing was recorded. */
export class DocumentRejected extends Error {
  constructor(readonly issues: ValidationResultIssue[]) {
    super('The document does not pass validation');
    this.name = 'DocumentRejected';
  }
}

const now = () => new Date().toISOString();
export const fileNameOf = (doc: Pick<Document, 'invoice_id'>) => `${(doc.invoice_id ?? 'document').replace(/[^A-Za-z0-9._-]/g, '_')}.xml`;

export const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

/** Structural validation of UBL against the XSD of the Peppol subset (an infrastructure adapter). */
export type SchemaCheck = (xml: string) => Array<{ message: string; line?: number }>;

const isFatal = (issue: ValidationResultIssue) => issue.flag === 'fatal';

/** Commands on documents; every one is scoped to the calling tenant. */
export class DocumentCommands {
  constructor(
    private readonly store: EventStore,
    private readonly schemaCheck: SchemaCheck,
  ) {}

  private schemaIssues(xml: string): ValidationResultIssue[] {
    return this.schemaCheck(xml).map((issue) => ({
      message: issue.message,
      type: 'error',
      flag: 'fatal',
      rule_id: 'UBL-XSD',
      location: issue.line ? `line ${issue.line}` : null,
      schematron: 'UBL-2.1-XSD',
    }));
  }

  /** The rules, then (for well-formed UBL) the schema; the rule engine refuses hostile XML first. */
  private ublIssues(xml: string): ValidationResultIssue[] {
    const rules = validateUbl(xml).map(issueFromRule); // throws XmlInputError for unacceptable XML
    return [...this.schemaIssues(xml), ...rules];
  }

  /**
   * Validates a JSON document without recording anything. UBL we write ourselves is not run
   * through the XSD on every request: the writer emits the schema's element order by
   * construction, and the test suite proves its output schema-valid for every fixture and
   * official example; uploaded UBL always is (see ublIssues).
   */
  validateJson(doc: Document): ValidationResult {
    const check = checkDocument(doc);
    return {
      id: newValidationId(),
      file_name: fileNameOf(check.document),
      is_valid: check.isValid,
      issues: check.issues,
      ubl_document: check.isValid ? check.ubl : null,
    };
  }

  /**
   * Validates UBL without recording anything. XmlInputError for XML that is not acceptable. Bytes
   * (an upload) are decoded strictly once, so UTF-8 and UTF-16 give the same result.
   */
  validateUbl(xml: string | Buffer, fileName: string | null): ValidationResult {
    const issues = this.ublIssues(Buffer.isBuffer(xml) ? decodeXmlBytes(xml) : xml);
    return { id: newValidationId(), file_name: fileName, is_valid: !issues.some(isFatal), issues };
  }

  async createFromJson(tenantId: string, input: Document, metadata: EventMetadata): Promise<DocumentRecord> {
    const attachments = input.attachments.map((a) => ({ ...a, id: a.id ?? randomUUID() }));
    const check = checkDocument({ ...input, attachments });
    if (!check.isValid) throw new DocumentRejected(check.issues.filter(isFatal));
    return this.create(tenantId, 'json', check.document, check.ubl, fileNameOf(check.document), metadata);
  }

  /**
   * Creates a document from UBL; the original XML is kept as the document's UBL: uploaded bytes as
   * the text they decode to, with a declaration saying UTF-8 (what it is stored as).
   */
  async createFromUbl(tenantId: string, input: string | Buffer, fileName: string | null, metadata: EventMetadata): Promise<DocumentRecord> {
    const xml = Buffer.isBuffer(input) ? decodeXmlBytes(input) : input;
    const issues = this.ublIssues(xml);
    if (issues.some(isFatal)) throw new DocumentRejected(issues.filter(isFatal));
    const doc = readUbl(xml);
    doc.attachments = doc.attachments.map((a) => ({ ...a, id: a.id ?? randomUUID() }));
    return this.create(tenantId, 'ubl', doc, xml, fileName ?? fileNameOf(doc), metadata);
  }

  /**
   * Records a document whose content another path produced and checked (e.g. read from a PDF):
   * a DRAFT that may still be incomplete; the caller reports its validation.
   */
  async createDraft(tenantId: string, source: DocumentSource, doc: Document, ubl: string, fileName: string, metadata: EventMetadata): Promise<DocumentRecord> {
    return this.create(tenantId, source, { ...doc, state: 'DRAFT' }, ubl, fileName, metadata);
  }

  private async create(tenantId: string, source: DocumentSource, doc: Document, ubl: string, fileName: string, metadata: EventMetadata) {
    const documentId = randomUUID();
    // A fresh id names no stream yet: nothing to read.
    const result = await handleCommand(this.store, documentDecider, documentStream(documentId), {
      type: 'CreateDocument',
      data: { document_id: documentId, tenant_id: tenantId, source, document: toDocumentJson(doc), ubl, file_name: fileName, now: now() },
    }, { ...metadata, tenantId }, []);
    return presentRecord(result.state);
  }

  /** The tenant's document; another tenant's (or a deleted) document is not found. */
  async get(tenantId: string, documentId: string): Promise<DocumentRecord> {
    return tenantRecord(tenantId, await loadState(this.store, documentDecider, documentStream(documentId)));
  }

  /** Validates a stored document's UBL again and records the run. */
  async revalidate(tenantId: string, documentId: string, metadata: EventMetadata): Promise<ValidationResult> {
    const loaded = await loadStream(this.store, documentDecider, documentStream(documentId));
    const record = tenantRecord(tenantId, loaded.state);
    const result = this.validateUbl(record.ubl, record.file_name);
    await handleCommand(this.store, documentDecider, documentStream(documentId), {
      type: 'RecordValidation',
      data: {
        validation_id: result.id,
        is_valid: result.is_valid,
        fatal: result.issues.filter((i) => i.flag === 'fatal').length,
        warnings: result.issues.filter((i) => i.flag === 'warning').length,
        now: now(),
      },
    }, { ...metadata, tenantId }, loaded);
    return result;
  }

  async delete(tenantId: string, documentId: string, metadata: EventMetadata): Promise<void> {
    await handleCommand(this.store, documentDecider, documentStream(documentId), ofTenant(tenantId, { type: 'DeleteDocument', data: { now: now() } }), { ...metadata, tenantId });
  }

  async addAttachment(tenantId: string, documentId: string, file: Omit<StoredAttachment, 'id'>, metadata: EventMetadata): Promise<StoredAttachment> {
    const attachment = { ...file, id: randomUUID() };
    await handleCommand(this.store, documentDecider, documentStream(documentId), ofTenant(tenantId, { type: 'AddAttachment', data: { attachment, now: now() } }), { ...metadata, tenantId });
    return attachment;
  }

  async removeAttachment(tenantId: string, documentId: string, attachmentId: string, metadata: EventMetadata): Promise<void> {
    await handleCommand(this.store, documentDecider, documentStream(documentId), ofTenant(tenantId, {
      type: 'RemoveAttachment',
      data: { attachment_id: attachmentId, now: now() },
    }), { ...metadata, tenantId });
  }
}

export function presentRecord(state: DocumentAggregateState): DocumentRecord {
  if (state.status !== 'present') throw notFound('Document not found');
  const { status: _status, ...record } = state;
  return record;
}

/** Refuses as not found what is not the tenant's present document. */
function tenantRecord(tenantId: string, state: DocumentAggregateState): DocumentRecord {
  if (state.status !== 'present' || state.tenant_id !== tenantId) throw notFound('Document not found');
  return presentRecord(state);
}

/**
 * The command, decided on the state handleCommand reads, and only for the tenant's document:
 * anything else is not found before the decider's own refusals.
 */
function ofTenant(tenantId: string, command: DocumentCommand): (state: DocumentAggregateState) => DocumentCommand {
  return (state) => {
    tenantRecord(tenantId, state);
    return command;
  };
}
