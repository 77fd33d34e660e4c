import { expect } from 'chai';
import { deciderSpec } from '../../support/deciderSpec.js';
import { contentRef, createdData, recordedAs } from './documentFacts.js';
import {
  documentDecider,
  mlsRejection,
  type DocumentEvent,
  type MlsReceived,
} from '../../../src/domain/document/lifecycle/documentAggregate.js';

const spec = deciderSpec(documentDecider);
const now = '2026-05-01T10:00:00.000Z';
const later = '2026-05-01T10:00:03.000Z';
const created: DocumentEvent = { type: 'DocumentCreated', data: { ...createdData(), created_at: now } };
const requested: DocumentEvent = {
  type: 'SendRequested',
  data: {
    document_id: 'd1',
    delivery_id: 'dl1',
    message_id: 'm1@test',
    transport: 'peppol',
    sender_peppol_id: '0208:0123456749',
    receiver_peppol_id: '0208:0987654321',
    email: null,
    requested_at: now,
  },
};
const attemptFacts = {
  delivery_id: 'dl1',
  attempt: 1,
  transport: 'peppol' as const,
  receiver: '0208:0987654321',
  outcome: 'delivered' as const,
  error: null,
  message_id: 'm1@test',
  started_at: now,
  duration_ms: 40,
};
const attempted: DocumentEvent = {
  type: 'DeliveryAttempted',
  data: { ...attemptFacts, document_id: 'd1', next_attempt_at: null },
};
const sent: DocumentEvent = {
  type: 'DocumentSent',
  data: { document_id: 'd1', delivery_id: 'dl1', message_id: 'm1@test', sent_at: now },
};
const mls = (code: string, valid = true) => ({
  mls_id: 'mls-1',
  message_id: 'm1@test',
  code,
  description: code === 'RE' ? 'Rejected due to validation errors' : null,
  issues:
    code === 'RE'
      ? [{ location: '/Invoice/cbc:IssueDate', description: '[BR-03] issue date missing', reason: 'BV' }]
      : [],
  valid,
  problems: valid ? [] : ['SCH-MLS-19: The Response Code MUST be coded according to the code list'],
  sender_ap: 'POP000002',
  mls_ref: contentRef('the MLS', 'application/xml'),
});
const record = (code: string, valid = true) => ({
  type: 'RecordMls' as const,
  data: { ...mls(code, valid), now: later },
});
const received = (code: string, valid = true): MlsReceived => ({
  type: 'MlsReceived',
  data: { ...mls(code, valid), document_id: 'd1', delivery_id: 'dl1', received_at: later },
});
const failedBy = (reason: string, at = later): DocumentEvent => ({
  type: 'DocumentFailed',
  data: { document_id: 'd1', delivery_id: 'dl1', reason, failed_at: at },
});

describe("Document decider: the receiving provider's Message Level Status (MLS)", () => {
  it('given a SENT document, when an AP (or AB) comes, then it is recorded and the document stays SENT', () => {
    spec
      .given([created, requested, attempted, sent])
      .when(record('AP'))
      .then([received('AP')]);
    spec
      .given([created, requested, attempted, sent])
      .when(record('AB'))
      .then([received('AB')]);
  });

  it('given a SENT document, when a valid RE comes, then it is recorded and the document FAILED with its reasons', () => {
    spec
      .given([created, requested, attempted, sent])
      .when(record('RE'))
      .then([
        received('RE'),
        failedBy(
          'rejected by the receiving access point (MLS RE): Rejected due to validation errors — [BR-03] issue date missing',
        ),
      ]);
  });

  it('given an MLS that breaks the rules, then it is kept as evidence and changes nothing', () => {
    spec
      .given([created, requested, attempted, sent])
      .when(record('RE', false))
      .then([received('RE', false)]);
  });

  it('given the RE overtook our receipt (TRANSIT), then the delivered attempt records SENT and then FAILED', () => {
    spec
      .given([created, requested])
      .when(record('RE'))
      .then([received('RE')]);
    spec
      .given([created, requested, received('RE')])
      .when({ type: 'RecordAttempt', data: { ...attemptFacts, retry_at: null, now } })
      .then([attempted, sent, failedBy(mlsRejection(mls('RE')), now)]);
  });

  it('given an MLS already recorded for the delivery, then a second one changes nothing (one per document)', () => {
    spec
      .given([created, requested, attempted, sent, received('AP')])
      .when(record('RE'))
      .thenNothingHappens();
  });

  it('given a valid AP or an RE that breaks the rules, then the delivered attempt records SENT and nothing fails', () => {
    for (const mlsFirst of [received('AP'), received('RE', false)])
      spec
        .given([created, requested, mlsFirst])
        .when({ type: 'RecordAttempt', data: { ...attemptFacts, retry_at: null, now } })
        .then([attempted, sent]);
  });

  it("given an RE of an earlier delivery, then a new delivery's attempt records SENT (the RE was about the other message)", () => {
    const again: DocumentEvent = {
      ...requested,
      data: { ...(requested.data as object), delivery_id: 'dl2', message_id: 'm2@test', requested_at: later },
    } as DocumentEvent;
    spec
      .given([created, requested, attempted, sent, received('RE'), failedBy(mlsRejection(mls('RE'))), again])
      .when({
        type: 'RecordAttempt',
        data: { ...attemptFacts, delivery_id: 'dl2', message_id: 'm2@test', retry_at: null, now: later },
      })
      .then([
        {
          type: 'DeliveryAttempted',
          data: {
            ...attemptFacts,
            delivery_id: 'dl2',
            message_id: 'm2@test',
            document_id: 'd1',
            next_attempt_at: null,
          },
        },
        {
          type: 'DocumentSent',
          data: { document_id: 'd1', delivery_id: 'dl2', message_id: 'm2@test', sent_at: later },
        },
      ]);
  });

  it('words the failure of an RE: its description (or that none was given), up to three issue texts, and how many more', () => {
    const issue = (description: string | null) => ({ location: null, description, reason: 'BV' });
    const prefix = 'rejected by the receiving access point (MLS RE): ';
    expect(mlsRejection({ description: null, issues: [] })).to.equal(`${prefix}no reason given`);
    expect(mlsRejection({ description: 'd', issues: [issue(null)] })).to.equal(`${prefix}d`);
    expect(mlsRejection({ description: 'd', issues: [issue('a'), issue(null), issue('c')] })).to.equal(
      `${prefix}d — a; c`,
    );
    expect(
      mlsRejection({ description: 'd', issues: [issue('a'), issue('b'), issue('c'), issue('e'), issue('f')] }),
    ).to.equal(`${prefix}d — a; b; c; and 2 more`);
  });

  it('refuses an MLS about another message, or for a document we did not send', () => {
    spec
      .given([recordedAs(created, 'RECEIVED', 'INBOUND')])
      .when(record('AP'))
      .thenRefuses('invalid_state', /^An MLS is recorded on a document we sent$/);
    spec
      .given([created, requested, attempted, sent])
      .when({ type: 'RecordMls', data: { ...mls('AP'), message_id: 'other@test', now: later } })
      .thenRefuses('invalid_state', /not this document's current delivery/);
    spec.given([created]).when(record('AP')).thenRefuses('invalid_state');
  });
});
