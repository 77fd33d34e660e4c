import { assertNever } from '../decider.js';
import type { DocumentEvent } from '../document/lifecycle/documentAggregate.js';
import type { WebhookEventKind } from './webhook.js';

export interface DocumentNotification {
  kind: WebhookEventKind;
  data: Record<string, unknown>;
}

/**
 * What a document event tells webhook subscribers: the kind (one per state change) and a small
 * body. Subscribers read the document itself through the API; the notification says which
 * document changed, to which state, and why.
 */
export function documentNotification(event: DocumentEvent): DocumentNotification | null {
  switch (event.type) {
    case 'DocumentCreated': {
      const d = event.data;
      return {
        kind: 'document.created',
        data: {
          document_id: d.document_id,
          state: d.recorded_lifecycle?.state ?? 'DRAFT',
          direction: d.recorded_lifecycle?.direction ?? 'OUTBOUND',
          document_type: d.header.document_type,
          invoice_id: d.header.invoice_id,
        },
      };
    }
    case 'SendRequested': {
      const d = event.data;
      return {
        kind: 'document.transit',
        data: {
          document_id: d.document_id,
          state: 'TRANSIT',
          direction: 'OUTBOUND',
          transport: d.transport,
          receiver_peppol_id: d.receiver_peppol_id,
        },
      };
    }
    case 'DocumentSent':
      return {
        kind: 'document.sent',
        data: {
          document_id: event.data.document_id,
          state: 'SENT',
          direction: 'OUTBOUND',
          message_id: event.data.message_id,
        },
      };
    case 'DocumentFailed':
      return {
        kind: 'document.failed',
        data: {
          document_id: event.data.document_id,
          state: 'FAILED',
          direction: 'OUTBOUND',
          reason: event.data.reason,
        },
      };
    case 'DocumentReceived': {
      const d = event.data;
      return {
        kind: 'document.received',
        data: {
          document_id: d.document_id,
          state: 'RECEIVED',
          direction: 'INBOUND',
          document_type: d.header.document_type,
          invoice_id: d.header.invoice_id,
          sender_peppol_id: d.sender.peppol_id,
        },
      };
    }
    case 'DocumentAccepted':
      return {
        kind: 'document.accepted',
        data: { document_id: event.data.document_id, state: 'RECEIVED', direction: 'INBOUND', note: event.data.note },
      };
    case 'DocumentRejected':
      return {
        kind: 'document.rejected',
        data: {
          document_id: event.data.document_id,
          state: 'RECEIVED',
          direction: 'INBOUND',
          reason: event.data.reason,
        },
      };
    case 'ResponseReceived': {
      const d = event.data;
      return {
        kind: d.code === 'AP' ? 'document.accepted' : 'document.rejected',
        data: { document_id: d.document_id, state: 'SENT', direction: 'OUTBOUND', reason: d.reason },
      };
    }
    case 'MlsReceived': {
      // An RE also fails the document (DocumentFailed follows, and notifies document.failed).
      const d = event.data;
      return {
        kind: 'document.mls_received',
        data: {
          document_id: d.document_id,
          direction: 'OUTBOUND',
          message_id: d.message_id,
          code: d.code,
          description: d.description,
          valid: d.valid,
        },
      };
    }
    case 'DocumentDeleted':
      return { kind: 'document.deleted', data: { document_id: event.data.document_id, state: null } };
    case 'DocumentValidated':
    case 'AttachmentAdded':
    case 'AttachmentRemoved':
    case 'DeliveryAttempted':
    case 'ResponseDeliveryAttempted':
      return null;
    default:
      return assertNever(event);
  }
}
