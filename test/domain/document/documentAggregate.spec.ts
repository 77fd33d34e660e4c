import { expect } from 'chai';
import { deciderSpec } from '../../support/deciderSpec.js';
import { documentDecider, type DocumentEvent } from '../../../src/domain/document/lifecycle/documentAggregate.js';
import { fold } from '../../../src/domain/decider.js';
import { MAX_ATTEMPTS } from '../../../src/domain/document/lifecycle/deliverySchedule.js';
import { attachment, contentRef, createdData, header, recordedAs, ublRef } from './documentFacts.js';

const spec = deciderSpec(documentDecider);
const now = '2026-05-01T10:00:00.000Z';
const created: DocumentEvent = { type: 'DocumentCreated', data: { ...createdData(), created_at: now } };
const pdf = attachment('a1', 'x.pdf');
/** The UBL an attachment command carries (written and stored by the application; the decider records it). */
const ubl = ublRef('with the attachment', [pdf]);
const nonDraft = (state: 'TRANSIT' | 'SENT' | 'RECEIVED' | 'FAILED'): DocumentEvent =>
  recordedAs(created, state, state === 'RECEIVED' ? 'INBOUND' : 'OUTBOUND');

describe('Document decider', () => {
  it('creates a draft once', () => {
    spec
      .given([])
      .when({ type: 'CreateDraft', data: { ...createdData(), now } })
      .then([created]);
    spec
      .given([created])
      .when({ type: 'CreateDraft', data: { ...createdData(), now } })
      .thenRefuses('conflict');
  });

  it('records no state or direction a caller slips into CreateDraft: a draft is an outbound DRAFT', () => {
    const slipped = {
      ...createdData(),
      now,
      state: 'SENT',
      direction: 'INBOUND',
      recorded_lifecycle: { state: 'SENT', direction: 'INBOUND' },
    };
    spec
      .given([])
      .when({ type: 'CreateDraft', data: slipped as never })
      .then([created]);
  });

  it('makes a created document an outbound DRAFT: the command names neither', () => {
    expect(fold(documentDecider, [created])).to.deep.include({ state: 'DRAFT', direction: 'OUTBOUND' });
    // What a document created before the service owned the lifecycle was recorded as, it stays.
    expect(fold(documentDecider, [recordedAs(created, 'SENT')])).to.deep.include({
      state: 'SENT',
      direction: 'OUTBOUND',
    });
  });

  it('deletes a DRAFT or FAILED document, and refuses to delete one that left or arrived', () => {
    spec
      .given([created])
      .when({ type: 'DeleteDocument', data: { now } })
      .then([{ type: 'DocumentDeleted', data: { document_id: 'd1', deleted_at: now } }]);
    spec
      .given([nonDraft('FAILED')])
      .when({ type: 'DeleteDocument', data: { now } })
      .then([{ type: 'DocumentDeleted', data: { document_id: 'd1', deleted_at: now } }]);
    for (const state of ['TRANSIT', 'SENT', 'RECEIVED'] as const) {
      spec
        .given([nonDraft(state)])
        .when({ type: 'DeleteDocument', data: { now } })
        .thenRefuses('invalid_state', new RegExp(state));
    }
  });

  it('treats a deleted document as gone', () => {
    const deleted: DocumentEvent = { type: 'DocumentDeleted', data: { document_id: 'd1', deleted_at: now } };
    spec.given([created, deleted]).when({ type: 'DeleteDocument', data: { now } }).thenRefuses('not_found');
    spec
      .given([created, deleted])
      .when({ type: 'AddAttachment', data: { attachment: pdf, ubl_ref: ubl, now } })
      .thenRefuses('not_found');
  });

  it('adds and removes attachments on drafts, recording the UBL written again with them; an unknown attachment is not found', () => {
    const added: DocumentEvent = {
      type: 'AttachmentAdded',
      data: { document_id: 'd1', attachment: pdf, ubl_ref: ubl, added_at: now },
    };
    spec
      .given([created])
      .when({ type: 'AddAttachment', data: { attachment: pdf, ubl_ref: ubl, now } })
      .then([added]);
    spec
      .given([created, added])
      .when({ type: 'RemoveAttachment', data: { attachment_id: 'a1', ubl_ref: created.data.ubl_ref, now } })
      .then([
        {
          type: 'AttachmentRemoved',
          data: { document_id: 'd1', attachment_id: 'a1', ubl_ref: created.data.ubl_ref, removed_at: now },
        },
      ]);
    spec
      .given([created])
      .when({ type: 'RemoveAttachment', data: { attachment_id: 'zz', ubl_ref: ubl, now } })
      .thenRefuses('not_found');
    spec
      .given([nonDraft('SENT')])
      .when({ type: 'AddAttachment', data: { attachment: pdf, ubl_ref: ubl, now } })
      .thenRefuses('invalid_state');
  });

  it('keeps the UBL that is sent and the attachments in step', () => {
    const withIt = ublRef('with', [pdf]);
    const without = ublRef('without');
    const added: DocumentEvent = {
      type: 'AttachmentAdded',
      data: { document_id: 'd1', attachment: pdf, ubl_ref: withIt, added_at: now },
    };
    const removed: DocumentEvent = {
      type: 'AttachmentRemoved',
      data: { document_id: 'd1', attachment_id: 'a1', ubl_ref: without, removed_at: now },
    };
    const state = (events: DocumentEvent[]) => events.reduce(documentDecider.evolve, documentDecider.initialState());
    expect(state([created, added])).to.deep.include({ ubl_ref: withIt, attachments: [pdf] });
    expect(state([created, added, removed])).to.deep.include({ ubl_ref: without, attachments: [] });
    // Events recorded before attachments went into the UBL leave it as it was.
    const { ubl_ref: _ubl, ...legacy } = added.data as Extract<DocumentEvent, { type: 'AttachmentAdded' }>['data'];
    expect(state([created, { type: 'AttachmentAdded', data: legacy }])).to.deep.include({
      ubl_ref: created.data.ubl_ref,
      attachments: [pdf],
    });
  });

  it('refuses attachments Peppol cannot carry, and any change to a document uploaded as UBL', () => {
    spec
      .given([created])
      .when({ type: 'AddAttachment', data: { attachment: { ...pdf, file_type: 'text/plain' }, ubl_ref: ubl, now } })
      .thenRefuses('invalid', /only carry attachments of these types: application\/pdf, image\/png/);
    spec
      .given([created])
      .when({
        type: 'AddAttachment',
        data: { attachment: { ...pdf, file_size: 0, content: contentRef('') }, ubl_ref: ubl, now },
      })
      .thenRefuses('invalid', /empty/);
    const uploaded: DocumentEvent = {
      type: 'DocumentCreated',
      data: { ...createdData(), source: 'ubl', created_at: now },
    };
    const uploadedWithAttachment: DocumentEvent = {
      type: 'DocumentCreated',
      data: { ...createdData([pdf]), source: 'ubl', created_at: now },
    };
    spec
      .given([uploaded])
      .when({ type: 'AddAttachment', data: { attachment: pdf, ubl_ref: ubl, now } })
      .thenRefuses('invalid_state', /uploaded UBL: it is sent as uploaded/);
    spec
      .given([uploadedWithAttachment])
      .when({ type: 'RemoveAttachment', data: { attachment_id: 'a1', ubl_ref: ubl, now } })
      .thenRefuses('invalid_state', /uploaded UBL/);
  });

  it('records a validation run', () => {
    spec
      .given([created])
      .when({ type: 'RecordValidation', data: { validation_id: 'v1', is_valid: true, fatal: 0, warnings: 2, now } })
      .then([
        {
          type: 'DocumentValidated',
          data: { document_id: 'd1', validation_id: 'v1', is_valid: true, fatal: 0, warnings: 2, validated_at: now },
        },
      ]);
  });

  describe('delivery', () => {
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
      data: { ...request, document_id: 'd1', requested_at: now },
    };
    const attempt = (
      n: number,
      outcome: 'delivered' | 'retryable' | 'permanent',
      retry_at: string | null = '2026-05-01T10:01:00.000Z',
    ) => ({
      type: 'RecordAttempt' as const,
      data: {
        delivery_id: 'dl1',
        attempt: n,
        transport: 'peppol' as const,
        receiver: '0208:0987654321',
        outcome,
        error: outcome === 'delivered' ? null : 'no Peppol route to 0208:0987654321',
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
      next: string | null,
    ): DocumentEvent => {
      const { retry_at: _r, now: _n, ...data } = attempt(n, outcome).data;
      return { type: 'DeliveryAttempted', data: { ...data, document_id: 'd1', next_attempt_at: next } };
    };
    const retries = (count: number): DocumentEvent[] =>
      Array.from({ length: count }, (_, i) => attempted(i + 1, 'retryable', '2026-05-01T10:01:00.000Z'));

    it('sends a DRAFT or FAILED outbound document, and nothing else', () => {
      spec
        .given([created])
        .when({ type: 'RequestSend', data: { ...request, now } })
        .then([sendRequested]);
      spec
        .given([nonDraft('FAILED')])
        .when({ type: 'RequestSend', data: { ...request, now } })
        .then([sendRequested]);
      for (const state of ['TRANSIT', 'SENT'] as const) {
        spec
          .given([nonDraft(state)])
          .when({ type: 'RequestSend', data: { ...request, now } })
          .thenRefuses('invalid_state', new RegExp(`${state} document cannot be sent`));
      }
      spec
        .given([created, sendRequested])
        .when({ type: 'RequestSend', data: { ...request, now } })
        .thenRefuses('invalid_state', /TRANSIT/);
      spec
        .given([])
        .when({ type: 'RequestSend', data: { ...request, now } })
        .thenRefuses('not_found');
    });

    it('a delivered attempt makes the document SENT', () => {
      spec
        .given([created, sendRequested])
        .when(attempt(1, 'delivered'))
        .then([
          attempted(1, 'delivered', null),
          {
            type: 'DocumentSent',
            data: { document_id: 'd1', delivery_id: 'dl1', message_id: 'm1@test', sent_at: now },
          },
        ]);
    });

    it('records the AS4 evidence an attempt carries on DeliveryAttempted, unchanged, and the document is SENT', () => {
      const ref = contentRef('the receipt');
      const as4 = {
        message_id: 'm1@test',
        endpoint_url: 'https://ap.example/as4',
        remote_ap: {
          seat_id: 'POP000002',
          subject: 'CN=POP000002',
          serial: '01',
          issuer: 'CN=Peppol AP CA',
          valid_from: now,
          valid_to: now,
        },
        receipt: { received_at: now, message_id: 'r1@as4', verified: true, verification: null, ref },
        message_ref: contentRef('the message'),
        message_content_type: 'multipart/related; boundary=b',
      };
      const { retry_at: _r, now: _n, ...data } = attempt(1, 'delivered').data;
      spec
        .given([created, sendRequested])
        .when({ type: 'RecordAttempt', data: { ...attempt(1, 'delivered').data, as4 } })
        .then([
          { type: 'DeliveryAttempted', data: { ...data, as4, document_id: 'd1', next_attempt_at: null } },
          {
            type: 'DocumentSent',
            data: { document_id: 'd1', delivery_id: 'dl1', message_id: 'm1@test', sent_at: now },
          },
        ]);
    });

    it('a retryable failure schedules the next attempt; a permanent one fails at once with its reason', () => {
      spec
        .given([created, sendRequested])
        .when(attempt(1, 'retryable'))
        .then([attempted(1, 'retryable', '2026-05-01T10:01:00.000Z')]);
      spec
        .given([created, sendRequested])
        .when(attempt(1, 'permanent'))
        .then([
          attempted(1, 'permanent', null),
          {
            type: 'DocumentFailed',
            data: {
              document_id: 'd1',
              delivery_id: 'dl1',
              reason: 'no Peppol route to 0208:0987654321',
              failed_at: now,
            },
          },
        ]);
    });

    it('fails after the first attempt and ten retries', () => {
      spec
        .given([created, sendRequested, ...retries(9)])
        .when(attempt(10, 'retryable'))
        .then([attempted(10, 'retryable', '2026-05-01T10:01:00.000Z')]);
      spec
        .given([created, sendRequested, ...retries(10)])
        .when(attempt(11, 'retryable'))
        .then([
          attempted(11, 'retryable', null),
          {
            type: 'DocumentFailed',
            data: {
              document_id: 'd1',
              delivery_id: 'dl1',
              reason: 'no success after 11 attempts; last error: no Peppol route to 0208:0987654321',
              failed_at: now,
            },
          },
        ]);
    });

    it('ignores an attempt that was already recorded, is out of turn, or belongs to another delivery', () => {
      spec
        .given([created, sendRequested, attempted(1, 'retryable', 'x')])
        .when(attempt(1, 'delivered'))
        .thenNothingHappens();
      spec.given([created, sendRequested]).when(attempt(3, 'delivered')).thenNothingHappens();
      spec
        .given([created, sendRequested])
        .when({ ...attempt(1, 'delivered'), data: { ...attempt(1, 'delivered').data, delivery_id: 'old' } })
        .thenNothingHappens();
      spec.given([created]).when(attempt(1, 'delivered')).thenNothingHappens();
    });

    it('cancels a delivery that waits for a retry: FAILED with the reason "cancelled"; the pending attempt then changes nothing', () => {
      const waiting = [created, sendRequested, attempted(1, 'retryable', '2026-05-01T10:01:00.000Z')];
      const cancelled: DocumentEvent = {
        type: 'DocumentFailed',
        data: { document_id: 'd1', delivery_id: 'dl1', reason: 'cancelled', failed_at: now },
      };
      spec.given(waiting).when({ type: 'CancelDelivery', data: { now } }).then([cancelled]);
      const after = [...waiting, cancelled].reduce(documentDecider.evolve, documentDecider.initialState());
      expect(after.status === 'present' && [after.state, after.delivery?.failure_reason]).to.deep.equal([
        'FAILED',
        'cancelled',
      ]);
      expect(after.status === 'present' && after.delivery?.next_attempt_at).to.equal(null);
      // The retry job that was due records nothing.
      spec
        .given([...waiting, cancelled])
        .when(attempt(2, 'delivered'))
        .thenNothingHappens();
    });

    it('refuses to cancel what is not waiting for a retry: an attempt due or under way, or a document not in TRANSIT', () => {
      spec
        .given([created, sendRequested])
        .when({ type: 'CancelDelivery', data: { now } })
        .thenRefuses('invalid_state', /being attempted now/);
      spec
        .given([created, sendRequested, attempted(1, 'retryable', '2026-05-01T10:01:00.000Z')])
        .when({ type: 'CancelDelivery', data: { now: '2026-05-01T10:01:00.000Z' } })
        .thenRefuses('invalid_state', /being attempted now/);
      spec
        .given([created])
        .when({ type: 'CancelDelivery', data: { now } })
        .thenRefuses('invalid_state', /^A DRAFT document has no delivery to cancel/);
      for (const state of ['SENT', 'FAILED'] as const) {
        spec
          .given([nonDraft(state)])
          .when({ type: 'CancelDelivery', data: { now } })
          .thenRefuses('invalid_state', new RegExp(`^A ${state} document has no delivery to cancel`));
      }
      // A delivery that ended (SENT, or FAILED) is not cancelled either, though the document has one.
      const delivered = [created, sendRequested, attempted(1, 'delivered', null)];
      const sent: DocumentEvent = {
        type: 'DocumentSent',
        data: { document_id: 'd1', delivery_id: 'dl1', message_id: 'm1@test', sent_at: now },
      };
      spec
        .given([...delivered, sent])
        .when({ type: 'CancelDelivery', data: { now } })
        .thenRefuses('invalid_state', /^A SENT document has no delivery to cancel/);
      spec.given([]).when({ type: 'CancelDelivery', data: { now } }).thenRefuses('not_found');
    });

    it('a manual send from FAILED starts a fresh delivery', () => {
      const failedEvent: DocumentEvent = {
        type: 'DocumentFailed',
        data: { document_id: 'd1', delivery_id: 'dl1', reason: 'r', failed_at: now },
      };
      const again = { ...request, delivery_id: 'dl2', message_id: 'm2@test', now };
      spec
        .given([created, sendRequested, attempted(1, 'permanent', null), failedEvent])
        .when({ type: 'RequestSend', data: again })
        .then([
          {
            type: 'SendRequested',
            data: { ...request, delivery_id: 'dl2', message_id: 'm2@test', document_id: 'd1', requested_at: now },
          },
        ]);
    });
  });

  describe('inbound documents and responses', () => {
    const sender = { peppol_id: '0208:0123456749', tenant_id: 't1', document_id: 'd1' };
    const receive = {
      document_id: 'r1',
      tenant_id: 't2',
      header,
      document_ref: contentRef('content of r1'),
      ubl_ref: ublRef('ubl of r1'),
      attachments: [],
      file_name: 'INV-1.xml',
      message_id: 'm1@test',
      receiver_peppol_id: '0208:0987654321',
      sender,
    };
    const received: DocumentEvent = { type: 'DocumentReceived', data: { ...receive, received_at: now } };

    it('records no state or direction a caller slips into ReceiveDocument', () => {
      spec
        .given([])
        .when({ type: 'ReceiveDocument', data: { ...receive, now, state: 'SENT', direction: 'OUTBOUND' } as never })
        .then([received]);
    });

    it('receives a message once, as an inbound RECEIVED document: the same message again changes nothing', () => {
      spec
        .given([])
        .when({ type: 'ReceiveDocument', data: { ...receive, now } })
        .then([received]);
      expect(fold(documentDecider, [received])).to.deep.include({
        state: 'RECEIVED',
        direction: 'INBOUND',
        source: 'peppol',
      });
      spec
        .given([received])
        .when({ type: 'ReceiveDocument', data: { ...receive, now } })
        .thenNothingHappens();
      spec
        .given([received])
        .when({ type: 'ReceiveDocument', data: { ...receive, message_id: 'other', now } })
        .thenRefuses('conflict');
    });

    it('accepts or rejects a received document once', () => {
      const accepted: DocumentEvent = {
        type: 'DocumentAccepted',
        data: { document_id: 'r1', note: null, accepted_at: now },
      };
      spec
        .given([received])
        .when({ type: 'AcceptDocument', data: { note: null, now } })
        .then([accepted]);
      spec
        .given([received])
        .when({ type: 'RejectDocument', data: { reason: 'wrong PO', now } })
        .then([{ type: 'DocumentRejected', data: { document_id: 'r1', reason: 'wrong PO', rejected_at: now } }]);
      spec
        .given([received, accepted])
        .when({ type: 'AcceptDocument', data: { note: null, now } })
        .thenRefuses('invalid_state', /already accepted/);
      spec
        .given([received, accepted])
        .when({ type: 'RejectDocument', data: { reason: 'x', now } })
        .thenRefuses('invalid_state', /already accepted/);
      spec
        .given([created])
        .when({ type: 'AcceptDocument', data: { note: null, now } })
        .thenRefuses('invalid_state', /Only received/);
      spec
        .given([received])
        .when({
          type: 'RequestSend',
          data: {
            delivery_id: 'x',
            message_id: 'y',
            transport: 'peppol',
            sender_peppol_id: null,
            receiver_peppol_id: null,
            email: null,
            now,
          },
        })
        .thenRefuses('invalid_state', /received document cannot be sent/);
    });

    it('records each attempt to take the answer back over AS4, on the schedule, once per attempt', () => {
      const rejected: DocumentEvent = {
        type: 'DocumentRejected',
        data: { document_id: 'r1', reason: 'wrong PO', rejected_at: now },
      };
      const try_ = (attempt: number, outcome: 'delivered' | 'retryable' | 'permanent', retry_at: string | null) => ({
        type: 'RecordResponseDelivery' as const,
        data: {
          code: 'RE' as const,
          attempt,
          receiver: '0208:0123456749',
          outcome,
          error: outcome === 'delivered' ? null : 'the access point did not answer',
          message_id: 'ir1@test',
          started_at: now,
          duration_ms: 40,
          retry_at,
        },
      });
      const attempted = (attempt: number, outcome: 'delivered' | 'retryable' | 'permanent', next: string | null) => {
        const { retry_at: _r, ...data } = try_(attempt, outcome, null).data;
        return {
          type: 'ResponseDeliveryAttempted' as const,
          data: { ...data, document_id: 'r1', next_attempt_at: next },
        };
      };
      const later = '2026-05-01T10:01:00.000Z';
      spec
        .given([received, rejected])
        .when(try_(1, 'retryable', later))
        .then([attempted(1, 'retryable', later)]);
      spec
        .given([received, rejected, attempted(1, 'retryable', later)])
        .when(try_(2, 'delivered', later))
        .then([attempted(2, 'delivered', null)]);
      expect(
        fold(documentDecider, [received, rejected, attempted(1, 'retryable', later), attempted(2, 'delivered', null)]),
      ).to.deep.include({
        response_delivery: {
          attempts: 2,
          last_outcome: 'delivered',
          next_attempt_at: null,
          delivered_at: '2026-05-01T10:00:00.040Z',
        },
      });
      // A job run again after a crash, or an attempt after the delivery settled, records nothing.
      spec
        .given([received, rejected, attempted(1, 'retryable', later)])
        .when(try_(1, 'retryable', later))
        .thenNothingHappens();
      spec
        .given([received, rejected, attempted(1, 'permanent', null)])
        .when(try_(2, 'delivered', null))
        .thenNothingHappens();
      // Past the schedule a retryable failure settles it.
      spec
        .given([received, rejected])
        .when(try_(1, 'retryable', null))
        .then([attempted(1, 'retryable', null)]);
      spec
        .given([received])
        .when(try_(1, 'delivered', null))
        .thenRefuses('invalid_state', /Only the answer to a received document/);
      spec
        .given([created])
        .when(try_(1, 'delivered', null))
        .thenRefuses('invalid_state', /Only the answer to a received document/);
      // An outbound document with the receiver's response is not answered back.
      const answered: DocumentEvent = {
        type: 'ResponseReceived',
        data: {
          code: 'RE',
          reason: 'wrong PO',
          responder_peppol_id: '0208:0987654321',
          invoice_response_ref: contentRef('<ApplicationResponse/>', 'application/xml'),
          document_id: 'd1',
          received_at: now,
        },
      };
      spec
        .given([nonDraft('SENT'), answered])
        .when(try_(1, 'delivered', null))
        .thenRefuses('invalid_state', /Only the answer to a received document/);
    });

    it('settles the last attempt of the schedule whatever retry it asks for, and records no delivery for a failure', () => {
      const rejected: DocumentEvent = {
        type: 'DocumentRejected',
        data: { document_id: 'r1', reason: 'wrong PO', rejected_at: now },
      };
      const later = '2026-05-01T10:01:00.000Z';
      const attempt = (n: number, outcome: 'retryable' | 'permanent', next: string | null): DocumentEvent => ({
        type: 'ResponseDeliveryAttempted',
        data: {
          code: 'RE',
          attempt: n,
          receiver: '0208:0123456749',
          outcome,
          error: 'the access point did not answer',
          message_id: 'ir1@test',
          started_at: now,
          duration_ms: 40,
          document_id: 'r1',
          next_attempt_at: next,
        },
      });
      const before = Array.from({ length: MAX_ATTEMPTS - 1 }, (_, i) => attempt(i + 1, 'retryable', later));
      spec
        .given([received, rejected, ...before])
        .when({
          type: 'RecordResponseDelivery',
          data: {
            code: 'RE',
            attempt: MAX_ATTEMPTS,
            receiver: '0208:0123456749',
            outcome: 'retryable',
            error: 'the access point did not answer',
            message_id: 'ir1@test',
            started_at: now,
            duration_ms: 40,
            retry_at: later,
          },
        })
        .then([attempt(MAX_ATTEMPTS, 'retryable', null)]);
      for (const outcome of ['retryable', 'permanent'] as const)
        expect(fold(documentDecider, [received, rejected, attempt(1, outcome, null)])).to.deep.include({
          response_delivery: { attempts: 1, last_outcome: outcome, next_attempt_at: null, delivered_at: null },
        });
    });

    it("records the receiver's response on a SENT (or still TRANSIT) outbound document, once", () => {
      const sent: DocumentEvent[] = [nonDraft('SENT')];
      const response = {
        code: 'RE' as const,
        reason: 'wrong PO',
        responder_peppol_id: '0208:0987654321',
        invoice_response_ref: contentRef('<ApplicationResponse/>', 'application/xml'),
      };
      const recorded: DocumentEvent = {
        type: 'ResponseReceived',
        data: { ...response, document_id: 'd1', received_at: now },
      };
      spec
        .given(sent)
        .when({ type: 'RecordResponse', data: { ...response, now } })
        .then([recorded]);
      spec
        .given([nonDraft('TRANSIT')])
        .when({ type: 'RecordResponse', data: { ...response, now } })
        .then([recorded]);
      spec
        .given([...sent, recorded])
        .when({ type: 'RecordResponse', data: { ...response, now } })
        .thenNothingHappens();
      spec
        .given([...sent, recorded])
        .when({ type: 'RecordResponse', data: { ...response, code: 'AP', reason: null, now } })
        .thenRefuses('conflict');
      spec
        .given([created])
        .when({ type: 'RecordResponse', data: { ...response, now } })
        .thenRefuses('invalid_state', /DRAFT/);
    });
  });
});
