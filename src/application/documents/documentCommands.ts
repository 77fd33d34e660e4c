import { randomUUID, createHash } from 'node:crypto';
import type { EventMetadata, EventStore } from '../ports/eventStore.js';
import { handleCommand, loadState, loadStream } from '../commandHandler.js';
import { creationId, effectOf } from '../idempotentEffect.js';
import {
  documentDecider,
  documentStream,
  type DocumentAggregateState,
  type DocumentCommand,
  type DocumentRecord,
  type DraftSource,
  type StoredAttachment,
} from '../../domain/document/lifecycle/documentAggregate.js';
import { sameUbl, type UblRef } from '../../domain/document/lifecycle/documentContent.js';
import type { DocumentJson } from '../../domain/document/invoice/documentJson.js';
import type { ValidationResultIssue } from '../../domain/document/rules/documentCheck.js';
import {
  attachmentsLimitMessage,
  DEFAULT_DOCUMENT_SIZE_LIMITS,
  linesLimitMessage,
  type DocumentSizeLimits,
} from '../../domain/document/invoice/documentLimits.js';
import type { HygieneLimits, InputProblem } from '../../domain/inputText.js';
import { DomainError, invalid, notFound } from '../../domain/errors.js';
import type { DocumentWork } from './documentWork.js';
import { inject, injectable } from '../injection.js';
import { EVENT_STORE } from '../ports/eventStore.js';
import { DOCUMENT_LIMITS, DOCUMENT_WORK } from './documentTokens.js';
import { DocumentContent, type DocumentWithContent } from './documentContent.js';
import { chooseRuleSet, RULE_SET_CLOCK, systemRuleSetClock, type RuleSetClock } from './ruleSetChoice.js';
import type { RuleSetId } from '../../domain/validation/index.js';
import { ownParticipantIds, type ParticipantHolder } from '../../domain/peppol/senderIdentity.js';

export interface ValidationResult {
  id: string;
  file_name: string | null;
  is_valid: boolean;
  issues: ValidationResultIssue[];
  ubl_document?: string | null;
  /** The rule set the document was checked by (ruleSets.ts): the one in force, or the one asked for. */
  rule_set: RuleSetId;
}

/** The document's content did not pass validation: nothing was recorded. */
export class DocumentRejected extends Error {
  constructor(readonly issues: ValidationResultIssue[]) {
    super('The document does not pass validation');
    this.name = 'DocumentRejected';
  }
}

/** The request body is not a document: field errors, nothing recorded. */
export class DocumentInputRejected extends Error {
  constructor(readonly errors: InputProblem[]) {
    super('The request body is not a valid document');
    this.name = 'DocumentInputRejected';
  }
}

const now = () => new Date().toISOString();
/** A name safe as a file name: what is not a letter, digit, dot, dash or underscore becomes `_`. */
export const safeFileName = (name: string): string => name.replace(/[^A-Za-z0-9._-]/g, '_');
/** The file name of a document's UBL (or, with another extension, its PDF): its number. */
export const fileNameOf = (doc: Pick<DocumentJson, 'invoice_id'>, extension = 'xml') =>
  `${safeFileName(doc.invoice_id ?? 'document')}.${extension}`;

export const sha256 = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');

const isFatal = (issue: ValidationResultIssue) => issue.flag === 'fatal';

/** A command decided on a state other than the one its prepared content was made from. */
class StaleContent extends Error {}

/** The tenant a JSON document is written for: its id and the participant ids it holds. */
export type IssuingTenant = { id: string } & ParticipantHolder;

/** An attachment as uploaded: its facts and its bytes. */
export interface AttachmentUpload {
  file_name: string;
  file_type: string;
  file_size: number;
  bytes: Uint8Array;
}

/** Commands on documents; every one is scoped to the calling tenant. */
@injectable()
export class DocumentCommands {
  constructor(
    @inject(EVENT_STORE) private readonly store: EventStore,
    /** The heavy steps (checking, writing UBL, rendering), off the event loop. */
    @inject(DOCUMENT_WORK) private readonly work: DocumentWork,
    /** The documents' payloads: content, UBL, attachments. */
    @inject(DocumentContent) private readonly content: DocumentContent,
    @inject(DOCUMENT_LIMITS)
    private readonly limits: DocumentSizeLimits & { text?: HygieneLimits } = DEFAULT_DOCUMENT_SIZE_LIMITS,
    /** Which day it is for the rules: the set in force on it checks documents. */
    @inject(RULE_SET_CLOCK) private readonly clock: RuleSetClock = systemRuleSetClock(),
  ) {}

  /** The rule set documents are checked by now, unless a validation names another (`rule_set`). */
  ruleSet(requested?: string): RuleSetId {
    return chooseRuleSet(this.clock, requested).id;
  }

  /**
   * Validates a JSON document without recording anything, by the set in force or the one named.
   * The issuer's electronic address is bound to the tenant as on creation (`sender`).
   */
  async validateJson(sender: IssuingTenant, body: unknown, requestedRuleSet?: string): Promise<ValidationResult> {
    const ruleSet = this.ruleSet(requestedRuleSet);
    const check = await this.work.checkJson({ tenantId: sender.id }, body, {
      renderPdf: false,
      ownParticipantIds: ownParticipantIds(sender),
      ruleSet,
      limits: this.limits,
      text: this.limits.text,
    });
    if (!check.ok) throw new DocumentInputRejected(check.errors);
    return {
      id: randomUUID(),
      file_name: fileNameOf(check.document),
      is_valid: check.isValid,
      issues: check.issues,
      ubl_document: check.isValid ? check.ubl : null,
      rule_set: ruleSet,
    };
  }

  /**
   * Validates UBL without recording anything, by the set in force or the one named. XmlInputError
   * for XML that is not acceptable.
   */
  async validateUbl(
    tenantId: string,
    xml: Uint8Array | string,
    fileName: string | null,
    requestedRuleSet?: string,
  ): Promise<ValidationResult> {
    const ruleSet = this.ruleSet(requestedRuleSet);
    const { issues } = await this.work.checkUbl({ tenantId }, xml, { read: false, ruleSet });
    return { id: randomUUID(), file_name: fileName, is_valid: !issues.some(isFatal), issues, rule_set: ruleSet };
  }

  /**
   * Creates a document from a JSON body; with `renderPdf` its rendering is attached and embedded in
   * the UBL. Its issuer's electronic address is one of the tenant's participant ids (its first when
   * the body gives none; another's is refused): senderIdentity.bindIssuer.
   */
  async createFromJson(
    sender: IssuingTenant,
    body: unknown,
    options: { renderPdf: boolean },
    metadata: EventMetadata,
  ): Promise<DocumentWithContent> {
    const tenantId = sender.id;
    const check = await this.work.checkJson({ tenantId }, body, {
      ...options,
      ownParticipantIds: ownParticipantIds(sender),
      ruleSet: this.ruleSet(),
      limits: this.limits,
      text: this.limits.text,
    });
    if (!check.ok) throw new DocumentInputRejected(check.errors);
    if (!check.isValid) throw new DocumentRejected(check.issues.filter(isFatal));
    return this.create(tenantId, 'json', check.document, check.ubl, fileNameOf(check.document), metadata);
  }

  /** Creates a document from UBL; the original XML (decoded) is kept as the document's UBL. */
  async createFromUbl(
    tenantId: string,
    xml: Uint8Array | string,
    fileName: string | null,
    metadata: EventMetadata,
  ): Promise<DocumentWithContent> {
    const check = await this.work.checkUbl({ tenantId }, xml, { read: true, ruleSet: this.ruleSet() });
    if (check.issues.some(isFatal) || !check.document) throw new DocumentRejected(check.issues.filter(isFatal));
    if (check.document.items.length > this.limits.maxLines) {
      throw new DocumentInputRejected([
        { loc: ['body'], msg: linesLimitMessage(this.limits.maxLines), type: 'limit_exceeded' },
      ]);
    }
    const document = {
      ...check.document,
      attachments: check.document.attachments.map((a) => ({ ...a, id: a.id ?? randomUUID() })),
    };
    return this.create(tenantId, 'ubl', document, check.text, fileName ?? fileNameOf(document), metadata);
  }

  /**
   * Records a document whose content another path produced and checked (e.g. read from a PDF):
   * a DRAFT that may still be incomplete; the caller reports its validation.
   */
  async createDraft(
    tenantId: string,
    source: DraftSource,
    doc: DocumentJson,
    ubl: string,
    fileName: string,
    metadata: EventMetadata,
  ): Promise<DocumentWithContent> {
    return this.create(tenantId, source, doc, ubl, fileName, metadata);
  }

  /**
   * The content and the UBL go into the blob store first (each attachment's bytes once: the UBL
   * names their blobs), then the draft is created naming them.
   */
  private async create(
    tenantId: string,
    source: DraftSource,
    document: DocumentJson,
    ubl: string,
    fileName: string,
    metadata: EventMetadata,
  ): Promise<DocumentWithContent> {
    const eventMetadata = { ...metadata, tenantId };
    const documentId = creationId('document', tenantId, eventMetadata);
    // A retry of a request that created the document already (its Idempotency-Key names it) gets it.
    const made = await this.madeBy(documentId, eventMetadata);
    if (made) return made;
    // The content says what the lifecycle will: a draft, outbound (the decider decides it, not this).
    const content = { ...document, state: 'DRAFT', direction: 'OUTBOUND' } as const;
    const [stored, ubl_ref] = await Promise.all([
      this.content.storeDocument(content),
      this.content.storeUbl(ubl, this.content.attachmentKeys(content)),
    ]);
    try {
      // A fresh id names no stream yet: nothing to read.
      const result = await handleCommand(
        this.store,
        documentDecider,
        documentStream(documentId),
        {
          type: 'CreateDraft',
          data: {
            document_id: documentId,
            tenant_id: tenantId,
            source,
            file_name: fileName,
            ...stored,
            ubl_ref,
            now: now(),
          },
        },
        eventMetadata,
        [],
      );
      return { ...presentRecord(result.state), document: content };
    } catch (error) {
      // A twin of this request (same key) made it meanwhile ('Document already exists'): its
      // result is this one's.
      const twin = error instanceof DomainError ? await this.madeBy(documentId, eventMetadata) : null;
      if (twin) return twin;
      throw error;
    }
  }

  /** The document as the request of `metadata`'s Idempotency-Key created it, if it did. */
  private async madeBy(documentId: string, metadata: EventMetadata): Promise<DocumentWithContent | null> {
    if (!metadata.idempotency) return null;
    const made = effectOf(documentDecider, await this.store.readStream(documentStream(documentId)), metadata);
    return made ? this.content.withContent(presentRecord(made)) : null;
  }

  /** The tenant's document with its content; another tenant's (or a deleted) document is not found. */
  async get(tenantId: string, documentId: string): Promise<DocumentWithContent> {
    return this.content.withContent(await this.record(tenantId, documentId));
  }

  /** The tenant's document, as its events say (without reading its content). */
  async record(tenantId: string, documentId: string): Promise<DocumentRecord> {
    return tenantRecord(tenantId, await loadState(this.store, documentDecider, documentStream(documentId)));
  }

  /** The tenant's document and its UBL, as it is sent. */
  async ubl(tenantId: string, documentId: string): Promise<{ record: DocumentRecord; ubl: string }> {
    const record = await this.record(tenantId, documentId);
    return { record, ubl: await this.content.ubl(record.ubl_ref) };
  }

  /** One attachment of the tenant's document and its bytes; not found when it has none such. */
  async attachment(
    tenantId: string,
    documentId: string,
    attachmentId: string,
  ): Promise<{ attachment: StoredAttachment; bytes: () => Promise<Buffer> }> {
    const record = await this.record(tenantId, documentId);
    const attachment = record.attachments.find((a) => a.id === attachmentId);
    if (!attachment) throw notFound('Attachment not found');
    return { attachment, bytes: () => this.content.attachment(attachment) };
  }

  /** Validates a stored document's UBL again and records the run. */
  async revalidate(tenantId: string, documentId: string, metadata: EventMetadata): Promise<ValidationResult> {
    const loaded = await loadStream(this.store, documentDecider, documentStream(documentId));
    const record = tenantRecord(tenantId, loaded.state);
    const result = await this.validateUbl(tenantId, await this.content.ubl(record.ubl_ref), record.file_name);
    await handleCommand(
      this.store,
      documentDecider,
      documentStream(documentId),
      {
        type: 'RecordValidation',
        data: {
          validation_id: result.id,
          is_valid: result.is_valid,
          fatal: result.issues.filter((i) => i.flag === 'fatal').length,
          warnings: result.issues.filter((i) => i.flag === 'warning').length,
          rule_set: result.rule_set,
          now: now(),
        },
      },
      { ...metadata, tenantId },
      loaded,
    );
    return result;
  }

  async delete(tenantId: string, documentId: string, metadata: EventMetadata): Promise<void> {
    await handleCommand(
      this.store,
      documentDecider,
      documentStream(documentId),
      ofTenant(tenantId, { type: 'DeleteDocument', data: { now: now() } }),
      { ...metadata, tenantId },
    );
  }

  async addAttachment(
    tenantId: string,
    documentId: string,
    file: AttachmentUpload,
    metadata: EventMetadata,
  ): Promise<StoredAttachment> {
    const { bytes, ...facts } = file;
    const attachment: StoredAttachment = {
      ...facts,
      id: randomUUID(),
      content: this.content.refOf(bytes, file.file_type),
    };
    let stored = false;
    await this.withNewUbl(tenantId, documentId, metadata, (record) => {
      if (record.attachments.length >= this.limits.maxAttachments) {
        throw invalid(attachmentsLimitMessage(this.limits.maxAttachments), ['body', 'file']);
      }
      return {
        attachments: [...record.attachments, attachment],
        command: (ubl_ref) => ({ type: 'AddAttachment', data: { attachment, ubl_ref, now: now() } }),
        // Once the decider's own refusals passed: the bytes are stored before the UBL names them.
        store: async () => {
          if (!stored) await this.content.put(bytes, file.file_type);
          stored = true;
        },
      };
    });
    return attachment;
  }

  async removeAttachment(
    tenantId: string,
    documentId: string,
    attachmentId: string,
    metadata: EventMetadata,
  ): Promise<void> {
    await this.withNewUbl(tenantId, documentId, metadata, (record) => ({
      attachments: record.attachments.filter((a) => a.id !== attachmentId),
      command: (ubl_ref) => ({ type: 'RemoveAttachment', data: { attachment_id: attachmentId, ubl_ref, now: now() } }),
    }));
  }

  /**
   * A command that carries the document's UBL written anew: the decider's own refusals are tried
   * first on the current UBL (cheap), then the UBL is written and checked off the event loop, then
   * the command is decided on the state it was written from. Should another writer change the
   * document meanwhile, the UBL is made again from the new state.
   *
   * The UBL is written with the attachments' blob keys in place of their base64 and stored as a
   * skeleton naming those blobs (DocumentContent.documentToWrite): writing and checking it costs
   * what the document costs, not what its attachments weigh, and no attachment is stored again.
   */
  private async withNewUbl(
    tenantId: string,
    documentId: string,
    metadata: EventMetadata,
    prepare: (record: DocumentRecord) => {
      attachments: StoredAttachment[];
      command: (ubl_ref: UblRef) => DocumentCommand;
      store?: () => Promise<void>;
    },
  ): Promise<void> {
    for (;;) {
      const loaded = await loadStream(this.store, documentDecider, documentStream(documentId));
      const record = tenantRecord(tenantId, loaded.state);
      const { attachments, command, store } = prepare(record);
      documentDecider.decide(command(record.ubl_ref), loaded.state);
      await store?.();
      const [content, current] = await Promise.all([
        this.content.document(record.document_ref),
        this.content.ublTemplate(record.ubl_ref),
      ]);
      const toWrite = this.content.documentToWrite(content, attachments);
      const text = await this.work.ublWithAttachments({ tenantId }, toWrite.document, current, toWrite.extraBytes);
      const ubl_ref = await this.content.storeTemplate({ ...toWrite, text });
      try {
        await handleCommand(
          this.store,
          documentDecider,
          documentStream(documentId),
          (state) => {
            const now = tenantRecord(tenantId, state);
            if (!sameUbl(now.ubl_ref, record.ubl_ref) || now.attachments.length !== record.attachments.length)
              throw new StaleContent();
            return command(ubl_ref);
          },
          { ...metadata, tenantId },
          loaded,
        );
        return;
      } catch (error) {
        if (!(error instanceof StaleContent)) throw error;
      }
    }
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
