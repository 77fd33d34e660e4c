import { deciderSpec } from '../../support/deciderSpec.js';
import { documentDecider, type DocumentEvent } from '../../../src/domain/document/lifecycle/documentAggregate.js';
import { attachment, contentRef, createdData, header, recordedAs, ublRef } from './documentFacts.js';

/**
 * Given events, when a command the document cannot take (or has taken already), then the refusal
 * with its kind and message, or nothing at all for a repeat.
 */
const spec = deciderSpec(documentDecider);
const now = '2026-05-01T10:00:00.000Z';
/** Given at creation without an id: the file name identifies it. */
const terms = attachment('terms.pdf', 'terms.pdf');
const created: DocumentEvent = { type: 'DocumentCreated', data: { ...createdData([terms]), created_at: now } };
/** A document created in another state or direction: recorded before the service owned the lifecycle. */
const legacy = (state: 'DRAFT' | 'SENT', direction: 'OUTBOUND' | 'INBOUND'): DocumentEvent =>
  recordedAs(created, state, direction);
const deleted: DocumentEvent = { type: 'DocumentDeleted', data: { document_id: 'd1', deleted_at: now } };
const without = ublRef('without');

describe('Document decider refusals and repeats', () => {
  describe('creating', () => {
    it('Given a document, or one deleted, when a draft is created under its id again, then it already exists', () => {
      spec
        .given([created])
        .when({ type: 'CreateDraft', data: { ...createdData(), now } })
        .thenRefuses('conflict', /^Document already exists$/);
      spec
        .given([created, deleted])
        .when({ type: 'CreateDraft', data: { ...createdData(), now } })
        .thenRefuses('conflict', /^Document already exists$/);
    });

    it('Given a received document under the id, when a draft is created under it, then it already exists', () => {
      const received: DocumentEvent = {
        type: 'DocumentReceived',
        data: {
          document_id: 'd1',
          tenant_id: 't1',
          header,
          document_ref: contentRef('in'),
          ubl_ref: ublRef('in'),
          attachments: [],
          file_name: 'INV-1.xml',
          message_id: 'm1@test',
          receiver_peppol_id: '0208:0987654321',
          sender: { peppol_id: null, tenant_id: null, document_id: null },
          received_at: now,
        },
      };
      spec
        .given([received])
        .when({ type: 'CreateDraft', data: { ...createdData(), now } })
        .thenRefuses('conflict', /^Document already exists$/);
    });

    it('Given no document, when a validation is recorded, then the document is not found', () => {
      spec
        .given([])
        .when({ type: 'RecordValidation', data: { validation_id: 'v1', is_valid: true, fatal: 0, warnings: 0, now } })
        .thenRefuses('not_found', /^Document not found$/);
    });
  });

  describe('attachments', () => {
    const pdf = attachment('a1', 'x.pdf');

    it('Given a SENT document, when an attachment is added or removed, then it is refused naming the state', () => {
      spec
        .given([legacy('SENT', 'OUTBOUND')])
        .when({ type: 'AddAttachment', data: { attachment: pdf, ubl_ref: without, now } })
        .thenRefuses('invalid_state', /^Attachments can only be added to a DRAFT document; this one is SENT$/);
      spec
        .given([legacy('SENT', 'OUTBOUND')])
        .when({ type: 'RemoveAttachment', data: { attachment_id: 'terms.pdf', ubl_ref: without, now } })
        .thenRefuses('invalid_state', /^Attachments can only be removed from a DRAFT document; this one is SENT$/);
    });

    it('Given a draft with an attachment, when another one is removed, then it is not found', () => {
      spec
        .given([created])
        .when({ type: 'RemoveAttachment', data: { attachment_id: 'other.pdf', ubl_ref: without, now } })
        .thenRefuses('not_found', /^Attachment not found$/);
    });

    it('Given an attachment created without an id, when it is removed by its file name, then it is removed', () => {
      spec
        .given([created])
        .when({ type: 'RemoveAttachment', data: { attachment_id: 'terms.pdf', ubl_ref: without, now } })
        .then([
          {
            type: 'AttachmentRemoved',
            data: { document_id: 'd1', attachment_id: 'terms.pdf', ubl_ref: without, removed_at: now },
          },
        ]);
    });
  });

  describe('delivery attempts', () => {
    const request = {
      delivery_id: 'dl1',
      message_id: 'm1@test',
      transport: 'peppol',
      sender_peppol_id: null,
      receiver_peppol_id: '0208:0987654321',
      email: null,
    } as const;
    const sendRequested: DocumentEvent = {
      type: 'SendRequested',
      data: { ...request, document_id: 'd1', requested_at: now },
    };
    const attempt = (
      n: number,
      outcome: 'delivered' | 'retryable' | 'permanent',
      error: string | null,
      retry_at: string | null,
    ) => ({
      type: 'RecordAttempt' as const,
      data: {
        delivery_id: 'dl1',
        attempt: n,
        transport: 'peppol' as const,
        receiver: '0208:0987654321',
        outcome,
        error,
        message_id: 'm1@test',
        started_at: now,
        duration_ms: 3,
        retry_at,
        now,
      },
    });
    const attempted = (
      n: number,
      outcome: 'delivered' | 'retryable' | 'permanent',
      error: string | null,
      next: string | null,
    ): DocumentEvent => {
      const { retry_at: _r, now: _n, ...data } = attempt(n, outcome, error, next).data;
      return { type: 'DeliveryAttempted', data: { ...data, document_id: 'd1', next_attempt_at: next } };
    };
    const failed = (reason: string): DocumentEvent => ({
      type: 'DocumentFailed',
      data: { document_id: 'd1', delivery_id: 'dl1', reason, failed_at: now },
    });

    it('Given a SENT document, when its next attempt is recorded (a repeated job), then nothing happens', () => {
      const sent: DocumentEvent = {
        type: 'DocumentSent',
        data: { document_id: 'd1', delivery_id: 'dl1', message_id: 'm1@test', sent_at: now },
      };
      spec
        .given([created, sendRequested, attempted(1, 'delivered', null, null), sent])
        .when(attempt(2, 'delivered', null, null))
        .thenNothingHappens();
    });

    it('Given a FAILED document, when a later attempt of its delivery is recorded, then nothing happens', () => {
      spec
        .given([created, sendRequested, attempted(1, 'permanent', 'refused', null), failed('refused')])
        .when(attempt(2, 'retryable', 'timeout', '2026-05-01T10:05:00.000Z'))
        .thenNothingHappens();
    });

    it('Given a retry pending, when an attempt after the next one is recorded, then nothing happens', () => {
      spec
        .given([created, sendRequested, attempted(1, 'retryable', 'timeout', '2026-05-01T10:01:00.000Z')])
        .when(attempt(3, 'delivered', null, null))
        .thenNothingHappens();
    });

    it('When a retryable failure has no retry left in the schedule, then the delivery fails at once', () => {
      spec
        .given([created, sendRequested])
        .when(attempt(1, 'retryable', 'timeout', null))
        .then([attempted(1, 'retryable', 'timeout', null), failed('no success after 1 attempts; last error: timeout')]);
    });

    it('When a failure comes without an error message, then the failure reason says so', () => {
      spec
        .given([created, sendRequested])
        .when(attempt(1, 'permanent', null, null))
        .then([attempted(1, 'permanent', null, null), failed('permanent delivery failure')]);
      spec
        .given([created, sendRequested])
        .when(attempt(1, 'retryable', null, null))
        .then([attempted(1, 'retryable', null, null), failed('no success after 1 attempts; last error: unknown')]);
    });
  });

  describe('inbound documents and responses', () => {
    const sender = { peppol_id: '0208:0123456749', tenant_id: 't1', document_id: 'd1' };
    const receive = {
      document_id: 'd1',
      tenant_id: 't1',
      header,
      document_ref: contentRef('content of d1'),
      ubl_ref: ublRef('ubl of d1'),
      attachments: [],
      file_name: 'INV-1.xml',
      message_id: 'm1@test',
      receiver_peppol_id: '0208:0987654321',
      sender,
    };
    const received: DocumentEvent = { type: 'DocumentReceived', data: { ...receive, received_at: now } };

    it('Given an outbound document under the same id, when a message is received, then the document already exists', () => {
      spec
        .given([created])
        .when({ type: 'ReceiveDocument', data: { ...receive, now } })
        .thenRefuses('conflict', /^Document already exists$/);
    });

    it('Given a rejected document, when it is accepted, then it was already rejected', () => {
      const rejected: DocumentEvent = {
        type: 'DocumentRejected',
        data: { document_id: 'd1', reason: 'wrong PO', rejected_at: now },
      };
      spec
        .given([received, rejected])
        .when({ type: 'AcceptDocument', data: { note: null, now } })
        .thenRefuses('invalid_state', /^The document was already rejected$/);
    });

    it('Given an inbound document that was never received (a DRAFT), when it is accepted, then it is refused naming its state', () => {
      spec
        .given([legacy('DRAFT', 'INBOUND')])
        .when({ type: 'AcceptDocument', data: { note: null, now } })
        .thenRefuses('invalid_state', /^A DRAFT document cannot be accepted or rejected$/);
    });

    it('Given a received document, when a receiver response is recorded on it, then it is refused', () => {
      spec
        .given([received])
        .when({
          type: 'RecordResponse',
          data: {
            code: 'AP',
            reason: null,
            responder_peppol_id: null,
            invoice_response_ref: contentRef('<ApplicationResponse/>', 'application/xml'),
            now,
          },
        })
        .thenRefuses('invalid_state', /^Responses are recorded on outbound documents$/);
    });

    describe('a second Invoice Response', () => {
      const response = {
        responder_peppol_id: '0208:0987654321',
        invoice_response_ref: contentRef('<ApplicationResponse/>', 'application/xml'),
      };
      const recorded = (code: 'AP' | 'RE', reason: string | null): DocumentEvent => ({
        type: 'ResponseReceived',
        data: { ...response, code, reason, document_id: 'd1', received_at: now },
      });

      it('Given a rejection, when a rejection with a different reason arrives, then it conflicts', () => {
        spec
          .given([legacy('SENT', 'OUTBOUND'), recorded('RE', 'wrong PO')])
          .when({ type: 'RecordResponse', data: { ...response, code: 'RE', reason: 'wrong amount', now } })
          .thenRefuses('conflict', /^The receiver already rejected this document$/);
      });

      it('Given an acceptance, when a rejection with the same (empty) reason arrives, then it conflicts', () => {
        spec
          .given([legacy('SENT', 'OUTBOUND'), recorded('AP', null)])
          .when({ type: 'RecordResponse', data: { ...response, code: 'RE', reason: null, now } })
          .thenRefuses('conflict', /^The receiver already accepted this document$/);
      });
    });
  });
});
