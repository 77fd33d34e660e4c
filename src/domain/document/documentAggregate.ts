import { assertNever, type Decider, type Event } from '../decider.js';
import { conflict, invalidState, notFound } from '../errors.js';
import type { DocumentState } from './documentModel.js';
import type { DocumentJson } from './documentJson.js';

/**
 * The Document aggregate: one stream per document, owned by one tenant. Its events are the
 * audit trail of the document ("what happened to this invoice").
 */
export type DocumentSource = 'json' | 'ubl' | 'pdf' | 'peppol';

export interface StoredAttachment {
  id: string;
  file_name: string;
  file_type: string;
  file_size: number;
  /** Base64 content. */
  file_data: string;
}

export type DocumentCreated = Event<
  'DocumentCreated',
  { document_id: string; tenant_id: string; source: DocumentSource; document: DocumentJson; ubl: string; file_name: string; created_at: string }
>;
export type DocumentValidated = Event<
  'DocumentValidated',
  { document_id: string; validation_id: string; is_valid: boolean; fatal: number; warnings: number; validated_at: string }
>;
export type AttachmentAdded = Event<'AttachmentAdded', { document_id: string; attachment: StoredAttachment; added_at: string }>;
export type AttachmentRemoved = Event<'AttachmentRemoved', { document_id: string; attachment_id: string; removed_at: string }>;
export type DocumentDeleted = Event<'DocumentDeleted', { document_id: string; deleted_at: string }>;

export type DocumentEvent = DocumentCreated | DocumentValidated | AttachmentAdded | AttachmentRemoved | DocumentDeleted;

export type DocumentCommand =
  | { type: 'CreateDocument'; data: Omit<DocumentCreated['data'], 'created_at'> & { now: string } }
  | { type: 'RecordValidation'; data: Omit<DocumentValidated['data'], 'validated_at' | 'document_id'> & { now: string } }
  | { type: 'AddAttachment'; data: { attachment: StoredAttachment; now: string } }
  | { type: 'RemoveAttachment'; data: { attachment_id: string; now: string } }
  | { type: 'DeleteDocument'; data: { now: string } };

export interface DocumentRecord {
  id: string;
  tenant_id: string;
  source: DocumentSource;
  state: DocumentState;
  document: DocumentJson;
  ubl: string;
  file_name: string;
  attachments: StoredAttachment[];
  created_at: string;
  updated_at: string;
  validated_at: string | null;
}

export type DocumentAggregateState = { status: 'absent' } | { status: 'deleted'; id: string; tenant_id: string } | ({ status: 'present' } & DocumentRecord);

export const documentStream = (id: string) => `document-${id}`;

function storedAttachment(a: DocumentJson['attachments'][number]): StoredAttachment {
  return {
    id: a.id ?? a.file_name,
    file_name: a.file_name,
    file_type: a.file_type ?? 'application/octet-stream',
    file_size: a.file_size ?? 0,
    file_data: a.file_data ?? '',
  };
}

/** States a document may be deleted in: it has not left, or it failed to. */
const DELETABLE: ReadonlySet<DocumentState> = new Set(['DRAFT', 'FAILED']);

function present(state: DocumentAggregateState): asserts state is { status: 'present' } & DocumentRecord {
  if (state.status !== 'present') throw notFound('Document not found');
}

export const documentDecider: Decider<DocumentAggregateState, DocumentCommand, DocumentEvent> = {
  initialState: () => ({ status: 'absent' }),

  decide(command, state) {
    switch (command.type) {
      case 'CreateDocument': {
        if (state.status !== 'absent') throw conflict('Document already exists');
        const { now, ...data } = command.data;
        return [{ type: 'DocumentCreated', data: { ...data, created_at: now } }];
      }
      case 'RecordValidation': {
        present(state);
        const { now, ...data } = command.data;
        return [{ type: 'DocumentValidated', data: { ...data, document_id: state.id, validated_at: now } }];
      }
      case 'AddAttachment':
        present(state);
        if (state.state !== 'DRAFT') throw invalidState(`Attachments can only be added to a DRAFT document; this one is ${state.state}`);
        return [{ type: 'AttachmentAdded', data: { document_id: state.id, attachment: command.data.attachment, added_at: command.data.now } }];
      case 'RemoveAttachment':
        present(state);
        if (!state.attachments.some((a) => a.id === command.data.attachment_id)) throw notFound('Attachment not found');
        if (state.state !== 'DRAFT') throw invalidState(`Attachments can only be removed from a DRAFT document; this one is ${state.state}`);
        return [{ type: 'AttachmentRemoved', data: { document_id: state.id, attachment_id: command.data.attachment_id, removed_at: command.data.now } }];
      case 'DeleteDocument':
        present(state);
        if (!DELETABLE.has(state.state)) {
          throw invalidState(`A ${state.state} document cannot be deleted; only DRAFT and FAILED documents can`);
        }
        return [{ type: 'DocumentDeleted', data: { document_id: state.id, deleted_at: command.data.now } }];
      default:
        return assertNever(command);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'DocumentCreated': {
        const d = event.data;
        return {
          status: 'present',
          id: d.document_id,
          tenant_id: d.tenant_id,
          source: d.source,
          state: d.document.state,
          document: d.document,
          ubl: d.ubl,
          file_name: d.file_name,
          attachments: d.document.attachments.map(storedAttachment),
          created_at: d.created_at,
          updated_at: d.created_at,
          validated_at: null,
        };
      }
      case 'DocumentValidated':
        return state.status === 'present' ? { ...state, validated_at: event.data.validated_at } : state;
      case 'AttachmentAdded':
        return state.status === 'present'
          ? { ...state, attachments: [...state.attachments, event.data.attachment], updated_at: event.data.added_at }
          : state;
      case 'AttachmentRemoved':
        return state.status === 'present'
          ? { ...state, attachments: state.attachments.filter((a) => a.id !== event.data.attachment_id), updated_at: event.data.removed_at }
          : state;
      case 'DocumentDeleted':
        return state.status === 'present' ? { status: 'deleted', id: state.id, tenant_id: state.tenant_id } : state;
      default:
        return assertNever(event);
    }
  },
};
