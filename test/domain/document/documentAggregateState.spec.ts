import { expect } from 'chai';
import { fold } from '../../../src/domain/decider.js';
import {
  documentDecider,
  documentStream,
  type DocumentEvent,
  type StoredAttachment,
} from '../../../src/domain/document/lifecycle/documentAggregate.js';
import { attachment, contentRef, createdData, header, ublRef } from './documentFacts.js';

/**
 * Given events, then the document as the aggregate (and the documents read model, which folds
 * the same events) sees it: its state, direction, delivery, response, attachments and times.
 */
const stateOf = (events: DocumentEvent[]) => fold(documentDecider, events);
const at = (minute: number) => `2026-05-01T10:${String(minute).padStart(2, '0')}:00.000Z`;

/** An attachment given at creation as a link only: its name identifies it, no content, type unknown. */
const bare: StoredAttachment = {
  id: 'terms.pdf',
  file_name: 'terms.pdf',
  file_type: 'application/octet-stream',
  file_size: 0,
  content: null,
};
const storedGiven = attachment('a0', 'photo.png', 'image/png');
const created: DocumentEvent = {
  type: 'DocumentCreated',
  data: { ...createdData([bare, storedGiven]), created_at: at(0) },
};
const { ubl_ref: createdUbl, document_ref: createdContent } = created.data as Extract<
  DocumentEvent,
  { type: 'DocumentCreated' }
>['data'];

const request = {
  delivery_id: 'dl1',
  message_id: 'm1@test',
  transport: 'peppol',
  sender_peppol_id: '0208:0123456749',
  receiver_peppol_id: '0208:0987654321',
  email: null,
} as const;
const sendRequested: DocumentEvent = {
  type: 'SendRequested',
  data: { ...request, document_id: 'd1', requested_at: at(1) },
};
const attempted = (
  n: number,
  outcome: 'delivered' | 'retryable' | 'permanent',
  startedAt: string,
  next: string | null,
): DocumentEvent => ({
  type: 'DeliveryAttempted',
  data: {
    document_id: 'd1',
    delivery_id: 'dl1',
    attempt: n,
    transport: 'peppol',
    receiver: '0208:0987654321',
    outcome,
    error: outcome === 'delivered' ? null : 'no Peppol route',
    message_id: 'm1@test',
    started_at: startedAt,
    duration_ms: 3,
    next_attempt_at: next,
  },
});

describe('Document state', () => {
  it("Given a document id, then its events are stored in the stream 'document-<id>'", () => {
    // The stream name is persisted: documents already stored are found under it.
    expect(documentStream('d1')).to.equal('document-d1');
  });

  it('Given a created document, then it is an outbound DRAFT with its facts, references and attachments', () => {
    expect(stateOf([created])).to.deep.equal({
      status: 'present',
      id: 'd1',
      tenant_id: 't1',
      source: 'json',
      state: 'DRAFT',
      direction: 'OUTBOUND',
      header,
      document_ref: createdContent,
      ubl_ref: createdUbl,
      file_name: 'INV-1.xml',
      attachments: [bare, storedGiven],
      created_at: at(0),
      updated_at: at(0),
      validated_at: null,
      delivery: null,
      inbound: null,
      response: null,
    });
  });

  it('Given a validation run, then the document records when it was validated', () => {
    const validated: DocumentEvent = {
      type: 'DocumentValidated',
      data: { document_id: 'd1', validation_id: 'v1', is_valid: true, fatal: 0, warnings: 0, validated_at: at(3) },
    };
    expect(stateOf([created, validated])).to.deep.include({ state: 'DRAFT', validated_at: at(3) });
  });

  describe('attachments', () => {
    const added = attachment('a1', 'x.pdf');
    const attachmentAdded: DocumentEvent = {
      type: 'AttachmentAdded',
      data: { document_id: 'd1', attachment: added, ubl_ref: ublRef('with', [storedGiven, added]), added_at: at(1) },
    };
    const removed = (id: string, minute: number): DocumentEvent => ({
      type: 'AttachmentRemoved',
      data: { document_id: 'd1', attachment_id: id, ubl_ref: ublRef(`without ${id}`), removed_at: at(minute) },
    });

    it('Given an attachment removed, then the others stay, in order (the order the UBL is written in), with the UBL recorded', () => {
      expect(stateOf([created, attachmentAdded, removed('a1', 2)])).to.deep.include({
        attachments: [bare, storedGiven],
        ubl_ref: ublRef('without a1'),
        updated_at: at(2),
      });
    });

    it('Given an attachment without an id removed by its file name, then only that one is gone; the content stays as created', () => {
      const state = stateOf([created, attachmentAdded, removed('terms.pdf', 2)]);
      expect(state).to.deep.include({
        attachments: [storedGiven, added],
        document_ref: createdContent,
        updated_at: at(2),
      });
    });
  });

  describe('delivery', () => {
    it('Given a send requested, then the document is in TRANSIT with a fresh delivery and no attempt yet', () => {
      expect(stateOf([created, sendRequested])).to.deep.include({
        state: 'TRANSIT',
        updated_at: at(1),
        delivery: {
          ...request,
          requested_at: at(1),
          attempts: 0,
          last_outcome: null,
          next_attempt_at: null,
          failure_reason: null,
        },
      });
    });

    it('Given a retryable failure, then the document stays in TRANSIT with the attempt counted and the next one due', () => {
      expect(stateOf([created, sendRequested, attempted(1, 'retryable', at(2), at(7))])).to.deep.include({
        state: 'TRANSIT',
        updated_at: at(2),
        delivery: {
          ...request,
          requested_at: at(1),
          attempts: 1,
          last_outcome: 'retryable',
          next_attempt_at: at(7),
          failure_reason: null,
        },
      });
    });

    it('Given a delivered retry, then the document is SENT with no attempt due', () => {
      const sent: DocumentEvent = {
        type: 'DocumentSent',
        data: { document_id: 'd1', delivery_id: 'dl1', message_id: 'm1@test', sent_at: at(8) },
      };
      expect(
        stateOf([
          created,
          sendRequested,
          attempted(1, 'retryable', at(2), at(7)),
          attempted(2, 'delivered', at(7), null),
          sent,
        ]),
      ).to.deep.include({
        state: 'SENT',
        updated_at: at(8),
        delivery: {
          ...request,
          requested_at: at(1),
          attempts: 2,
          last_outcome: 'delivered',
          next_attempt_at: null,
          failure_reason: null,
        },
      });
    });

    it('Given a permanent failure, then the document is FAILED with the reason; a new send starts a fresh delivery', () => {
      const failed: DocumentEvent = {
        type: 'DocumentFailed',
        data: { document_id: 'd1', delivery_id: 'dl1', reason: 'no Peppol route', failed_at: at(3) },
      };
      const history = [created, sendRequested, attempted(1, 'permanent', at(2), null), failed];
      expect(stateOf(history)).to.deep.include({
        state: 'FAILED',
        updated_at: at(3),
        delivery: {
          ...request,
          requested_at: at(1),
          attempts: 1,
          last_outcome: 'permanent',
          next_attempt_at: null,
          failure_reason: 'no Peppol route',
        },
      });
      const again: DocumentEvent = {
        type: 'SendRequested',
        data: { ...request, delivery_id: 'dl2', message_id: 'm2@test', document_id: 'd1', requested_at: at(9) },
      };
      expect(stateOf([...history, again])).to.deep.include({
        state: 'TRANSIT',
        updated_at: at(9),
        delivery: {
          ...request,
          delivery_id: 'dl2',
          message_id: 'm2@test',
          requested_at: at(9),
          attempts: 0,
          last_outcome: null,
          next_attempt_at: null,
          failure_reason: null,
        },
      });
    });
  });

  describe('inbound documents and responses', () => {
    const sender = { peppol_id: '0208:0123456749', tenant_id: 't1', document_id: 'd1' };
    const inbound = {
      header,
      document_ref: contentRef('content of r1'),
      ubl_ref: ublRef('in', [storedGiven]),
      attachments: [storedGiven],
    };
    const received: DocumentEvent = {
      type: 'DocumentReceived',
      data: {
        document_id: 'r1',
        tenant_id: 't2',
        ...inbound,
        file_name: 'INV-1.xml',
        message_id: 'm1@test',
        receiver_peppol_id: '0208:0987654321',
        sender,
        received_at: at(4),
      },
    };

    it('Given a received document, then it is an inbound RECEIVED document from Peppol with its sender', () => {
      expect(stateOf([received])).to.deep.equal({
        status: 'present',
        id: 'r1',
        tenant_id: 't2',
        source: 'peppol',
        state: 'RECEIVED',
        direction: 'INBOUND',
        ...inbound,
        file_name: 'INV-1.xml',
        created_at: at(4),
        updated_at: at(4),
        validated_at: null,
        delivery: null,
        inbound: { ...sender, message_id: 'm1@test', received_at: at(4), receiver_peppol_id: '0208:0987654321' },
        response: null,
      });
    });

    it('Given a received document accepted or rejected, then it records the answer and stays RECEIVED', () => {
      const accepted: DocumentEvent = {
        type: 'DocumentAccepted',
        data: { document_id: 'r1', note: 'paid on the 5th', accepted_at: at(5) },
      };
      const rejected: DocumentEvent = {
        type: 'DocumentRejected',
        data: { document_id: 'r1', reason: 'wrong PO', rejected_at: at(6) },
      };
      expect(stateOf([received, accepted])).to.deep.include({
        state: 'RECEIVED',
        updated_at: at(5),
        response: { code: 'AP', reason: 'paid on the 5th', responded_at: at(5) },
      });
      expect(stateOf([received, rejected])).to.deep.include({
        state: 'RECEIVED',
        updated_at: at(6),
        response: { code: 'RE', reason: 'wrong PO', responded_at: at(6) },
      });
    });

    it("Given the receiver's response to a sent document, then the document records it", () => {
      const sent: DocumentEvent = {
        type: 'DocumentSent',
        data: { document_id: 'd1', delivery_id: 'dl1', message_id: 'm1@test', sent_at: at(3) },
      };
      const response: DocumentEvent = {
        type: 'ResponseReceived',
        data: {
          document_id: 'd1',
          code: 'RE',
          reason: 'wrong PO',
          responder_peppol_id: '0208:0987654321',
          invoice_response_ref: contentRef('<ApplicationResponse/>', 'application/xml'),
          received_at: at(9),
        },
      };
      expect(stateOf([created, sendRequested, attempted(1, 'delivered', at(2), null), sent, response])).to.deep.include(
        {
          state: 'SENT',
          updated_at: at(9),
          response: { code: 'RE', reason: 'wrong PO', responded_at: at(9) },
        },
      );
    });
  });

  describe('a document that is not there', () => {
    const deleted: DocumentEvent = { type: 'DocumentDeleted', data: { document_id: 'd1', deleted_at: at(5) } };
    /** Every event that is not a document's first, as if it arrived for a document not (or no longer) there. */
    const later: DocumentEvent[] = [
      {
        type: 'DocumentValidated',
        data: { document_id: 'd1', validation_id: 'v1', is_valid: true, fatal: 0, warnings: 0, validated_at: at(6) },
      },
      {
        type: 'AttachmentAdded',
        data: { document_id: 'd1', attachment: storedGiven, ubl_ref: ublRef('later'), added_at: at(6) },
      },
      {
        type: 'AttachmentRemoved',
        data: { document_id: 'd1', attachment_id: 'a0', ubl_ref: ublRef('later'), removed_at: at(6) },
      },
      sendRequested,
      attempted(1, 'retryable', at(6), at(7)),
      { type: 'DocumentSent', data: { document_id: 'd1', delivery_id: 'dl1', message_id: 'm1@test', sent_at: at(6) } },
      { type: 'DocumentFailed', data: { document_id: 'd1', delivery_id: 'dl1', reason: 'r', failed_at: at(6) } },
      { type: 'DocumentAccepted', data: { document_id: 'd1', note: null, accepted_at: at(6) } },
      { type: 'DocumentRejected', data: { document_id: 'd1', reason: 'r', rejected_at: at(6) } },
      {
        type: 'ResponseReceived',
        data: {
          document_id: 'd1',
          code: 'AP',
          reason: null,
          responder_peppol_id: null,
          invoice_response_ref: contentRef('<ApplicationResponse/>', 'application/xml'),
          received_at: at(6),
        },
      },
      {
        type: 'ResponseDeliveryAttempted',
        data: {
          document_id: 'd1',
          code: 'AP',
          attempt: 1,
          receiver: '0208:0123456749',
          outcome: 'delivered',
          error: null,
          message_id: 'ir1@test',
          started_at: at(6),
          duration_ms: 40,
          next_attempt_at: null,
        },
      },
      {
        type: 'MlsReceived',
        data: {
          document_id: 'd1',
          delivery_id: 'dl1',
          mls_id: 'mls-1',
          message_id: 'm1@test',
          code: 'RE',
          description: 'r',
          issues: [],
          valid: true,
          problems: [],
          sender_ap: 'POP000002',
          mls_ref: contentRef('the MLS', 'application/xml'),
          received_at: at(6),
        },
      },
      deleted,
    ];

    it('Given a deleted document, then only its id and tenant remain', () => {
      expect(stateOf([created, deleted])).to.deep.equal({ status: 'deleted', id: 'd1', tenant_id: 't1' });
    });

    for (const event of later) {
      it(`Given a deleted document, then a ${event.type} leaves it deleted`, () => {
        expect(stateOf([created, deleted, event])).to.deep.equal({ status: 'deleted', id: 'd1', tenant_id: 't1' });
      });

      it(`Given no document, then a ${event.type} creates none`, () => {
        expect(stateOf([event])).to.deep.equal({ status: 'absent' });
      });
    }
  });
});
