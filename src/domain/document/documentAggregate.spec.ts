import { deciderSpec } from '../deciderSpec.js';
import { documentDecider, type DocumentEvent, type StoredAttachment } from './documentAggregate.js';
import { emptyDocument } from './documentModel.js';
import { toDocumentJson } from './documentJson.js';

const spec = deciderSpec(documentDecider);
const now = '2026-05-01T10:00:00.000Z';
const document = toDocumentJson({ ...emptyDocument(), invoice_id: 'INV-1' });
const created: DocumentEvent = {
  type: 'DocumentCreated',
  data: { document_id: 'd1', tenant_id: 't1', source: 'json', document, ubl: '<Invoice/>', file_name: 'INV-1.xml', created_at: now },
};
const attachment: StoredAttachment = { id: 'a1', file_name: 'x.pdf', file_type: 'application/pdf', file_size: 3, file_data: 'YWJj' };
const nonDraft = (state: 'TRANSIT' | 'SENT' | 'RECEIVED' | 'FAILED'): DocumentEvent => ({
  ...created,
  data: { ...created.data, document: { ...document, state } },
} as DocumentEvent);

describe('Document decider', () => {
  it('creates a document once', () => {
    const { created_at, ...data } = created.data as Extract<DocumentEvent, { type: 'DocumentCreated' }>['data'];
    spec.given([]).when({ type: 'CreateDocument', data: { ...data, now: created_at } }).then([created]);
    spec.given([created]).when({ type: 'CreateDocument', data: { ...data, now } }).thenRefuses('conflict');
  });

  it('deletes a DRAFT or FAILED document, and refuses to delete one that left or arrived', () => {
    spec.given([created]).when({ type: 'DeleteDocument', data: { now } }).then([{ type: 'DocumentDeleted', data: { document_id: 'd1', deleted_at: now } }]);
    spec.given([nonDraft('FAILED')]).when({ type: 'DeleteDocument', data: { now } }).then([{ type: 'DocumentDeleted', data: { document_id: 'd1', deleted_at: now } }]);
    for (const state of ['TRANSIT', 'SENT', 'RECEIVED'] as const) {
      spec.given([nonDraft(state)]).when({ type: 'DeleteDocument', data: { now } }).thenRefuses('invalid_state', new RegExp(state));
    }
  });

  it('treats a deleted document as gone', () => {
    const deleted: DocumentEvent = { type: 'DocumentDeleted', data: { document_id: 'd1', deleted_at: now } };
    spec.given([created, deleted]).when({ type: 'DeleteDocument', data: { now } }).thenRefuses('not_found');
    spec.given([created, deleted]).when({ type: 'AddAttachment', data: { attachment, now } }).thenRefuses('not_found');
  });

  it('adds and removes attachments on drafts; an unknown attachment is not found', () => {
    const added: DocumentEvent = { type: 'AttachmentAdded', data: { document_id: 'd1', attachment, added_at: now } };
    spec.given([created]).when({ type: 'AddAttachment', data: { attachment, now } }).then([added]);
    spec.given([created, added]).when({ type: 'RemoveAttachment', data: { attachment_id: 'a1', now } }).then([
      { type: 'AttachmentRemoved', data: { document_id: 'd1', attachment_id: 'a1', removed_at: now } },
    ]);
    spec.given([created]).when({ type: 'RemoveAttachment', data: { attachment_id: 'zz', now } }).thenRefuses('not_found');
    spec.given([nonDraft('SENT')]).when({ type: 'AddAttachment', data: { attachment, now } }).thenRefuses('invalid_state');
  });

  it('records a validation run', () => {
    spec.given([created]).when({ type: 'RecordValidation', data: { validation_id: 'v1', is_valid: true, fatal: 0, warnings: 2, now } }).then([
      { type: 'DocumentValidated', data: { document_id: 'd1', validation_id: 'v1', is_valid: true, fatal: 0, warnings: 2, validated_at: now } },
    ]);
  });
});
