import { deciderSpec } from '../../support/deciderSpec.js';
import {
  networkMessageDecider,
  type NetworkMessageEvent,
  type NetworkMessageQueued,
} from '../../../src/domain/peppol/networkMessage.js';
import { MAX_ATTEMPTS } from '../../../src/domain/document/lifecycle/deliverySchedule.js';

const now = '2026-04-01T00:00:05.000Z';
const queued: NetworkMessageQueued = {
  type: 'NetworkMessageQueued',
  data: {
    network_message_id: 'n1',
    purpose: { kind: 'peppol-report', report: 'tsr', month: '2026-03' },
    envelope: {
      sender: '0242:000001',
      receiver: '9925:be0848934496',
      document_type: { scheme: 'busdox-docid-qns', value: 'tsr' },
      process: { scheme: 'cenbii-procid-ubl', value: 'urn:fdc:peppol.eu:edec:bis:reporting:1.0' },
      country_c1: 'BE',
    },
    document_ref: { sha256: 'ab', size: 10, media_type: 'application/xml' },
    delivery_id: 'd1',
    message_id: 'm1@e-invoicing.peppol',
    queued_at: now,
  },
};
const attempt = (n: number, outcome: 'delivered' | 'retryable' | 'permanent', delivery = 'd1') => ({
  type: 'RecordAttempt' as const,
  data: {
    delivery_id: delivery,
    attempt: n,
    receiver: '9925:be0848934496',
    outcome,
    error: outcome === 'delivered' ? null : 'SMP down',
    message_id: 'm1@e-invoicing.peppol',
    started_at: now,
    duration_ms: 12,
    retry_at: '2026-04-01T00:01:05.000Z',
    now,
  },
});
const attempted = (
  n: number,
  outcome: 'delivered' | 'retryable' | 'permanent',
  next: string | null,
): NetworkMessageEvent => {
  const { retry_at: _r, now: _n, ...facts } = attempt(n, outcome).data;
  return { type: 'NetworkMessageAttempted', data: { ...facts, network_message_id: 'n1', next_attempt_at: next } };
};

describe('Network message decider (messages the access point sends on its own account)', () => {
  const spec = deciderSpec(networkMessageDecider);

  it('queues a message once: asked again, nothing more is recorded', () => {
    const { queued_at: _q, ...data } = queued.data;
    spec
      .given([])
      .when({ type: 'Queue', data: { ...data, now } })
      .then([queued]);
    spec
      .given([queued])
      .when({ type: 'Queue', data: { ...data, now } })
      .thenNothingHappens();
  });

  it('a receipt settles the delivery: the attempt and the delivery are recorded', () => {
    spec
      .given([queued])
      .when(attempt(1, 'delivered'))
      .then([
        attempted(1, 'delivered', null),
        {
          type: 'NetworkMessageDelivered',
          data: { network_message_id: 'n1', delivery_id: 'd1', message_id: 'm1@e-invoicing.peppol', delivered_at: now },
        },
      ]);
  });

  it('a retryable failure waits for the next attempt; the last one of the schedule fails the message', () => {
    spec
      .given([queued])
      .when(attempt(1, 'retryable'))
      .then([attempted(1, 'retryable', '2026-04-01T00:01:05.000Z')]);
    const before = Array.from({ length: MAX_ATTEMPTS - 1 }, (_, i) => attempted(i + 1, 'retryable', 'later'));
    spec
      .given([queued, ...before])
      .when(attempt(MAX_ATTEMPTS, 'retryable'))
      .then([
        attempted(MAX_ATTEMPTS, 'retryable', null),
        {
          type: 'NetworkMessageFailed',
          data: {
            network_message_id: 'n1',
            delivery_id: 'd1',
            reason: `no success after ${MAX_ATTEMPTS} attempts; last error: SMP down`,
            failed_at: now,
          },
        },
      ]);
  });

  it('a permanent failure fails the message at once', () => {
    spec
      .given([queued])
      .when(attempt(1, 'permanent'))
      .then([
        attempted(1, 'permanent', null),
        {
          type: 'NetworkMessageFailed',
          data: { network_message_id: 'n1', delivery_id: 'd1', reason: 'SMP down', failed_at: now },
        },
      ]);
  });

  it('an attempt made again after a crash, or of a delivery a resend replaced, records nothing', () => {
    spec
      .given([queued, attempted(1, 'retryable', 'later')])
      .when(attempt(1, 'retryable'))
      .thenNothingHappens();
    spec
      .given([queued])
      .when(attempt(1, 'delivered', 'd0'))
      .thenNothingHappens();
  });

  it('the operator may send again a message that is SENT or FAILED, never one under way', () => {
    const resend = { type: 'Resend' as const, data: { delivery_id: 'd2', message_id: 'm2@e-invoicing.peppol', now } };
    spec
      .given([queued])
      .when(resend)
      .thenRefuses('invalid_state', /being delivered/);
    spec
      .given([queued, attempted(1, 'permanent', null)])
      .when(resend)
      .thenRefuses('invalid_state');
    const failed: NetworkMessageEvent = {
      type: 'NetworkMessageFailed',
      data: { network_message_id: 'n1', delivery_id: 'd1', reason: 'x', failed_at: now },
    };
    spec
      .given([queued, attempted(1, 'permanent', null), failed])
      .when(resend)
      .then([
        {
          type: 'NetworkMessageResendRequested',
          data: { network_message_id: 'n1', delivery_id: 'd2', message_id: 'm2@e-invoicing.peppol', requested_at: now },
        },
      ]);
    spec.given([]).when(resend).thenRefuses('not_found');
  });
});
