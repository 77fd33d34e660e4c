import { deciderSpec } from '../../support/deciderSpec.js';
import { expect } from 'chai';
import {
  NETWORK_MESSAGE_EVENT_TYPES,
  networkMessageDecider,
  networkMessageStream,
  type NetworkMessageState,
  type NetworkMessageAttempted,
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
): NetworkMessageAttempted => {
  const { retry_at: _r, now: _n, ...facts } = attempt(n, outcome).data;
  return { type: 'NetworkMessageAttempted', data: { ...facts, network_message_id: 'n1', next_attempt_at: next } };
};

const failed = (reason: string): NetworkMessageEvent => ({
  type: 'NetworkMessageFailed',
  data: { network_message_id: 'n1', delivery_id: 'd1', reason, failed_at: now },
});

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
    spec
      .given([])
      .when(resend)
      .thenRefuses('not_found', /^Network message not found$/);
  });

  it('an attempt of a message already SENT or FAILED, or out of turn, records nothing', () => {
    const delivered: NetworkMessageEvent = {
      type: 'NetworkMessageDelivered',
      data: { network_message_id: 'n1', delivery_id: 'd1', message_id: 'm1@e-invoicing.peppol', delivered_at: now },
    };
    spec
      .given([queued, attempted(1, 'delivered', null), delivered])
      .when(attempt(2, 'retryable'))
      .thenNothingHappens();
    spec
      .given([queued, attempted(1, 'permanent', null), failed('x')])
      .when(attempt(2, 'retryable'))
      .thenNothingHappens();
    spec.given([queued]).when(attempt(2, 'retryable')).thenNothingHappens();
    spec
      .given([])
      .when(attempt(1, 'delivered'))
      .thenRefuses('not_found', /Network message not found/);
  });

  it('a retryable failure with no retry left on the schedule fails at once; a failure without error says so', () => {
    const noRetry = attempt(1, 'retryable');
    spec
      .given([queued])
      .when({ ...noRetry, data: { ...noRetry.data, retry_at: null, error: null } })
      .then([
        { ...attempted(1, 'retryable', null), data: { ...attempted(1, 'retryable', null).data, error: null } },
        failed('no success after 1 attempts; last error: unknown'),
      ]);
    const permanent = attempt(1, 'permanent');
    spec
      .given([queued])
      .when({ ...permanent, data: { ...permanent.data, error: null } })
      .then([
        { ...attempted(1, 'permanent', null), data: { ...attempted(1, 'permanent', null).data, error: null } },
        failed('permanent delivery failure'),
      ]);
  });

  it('a resend starts a new delivery from its first attempt; the old one is done with, and a second resend waits', () => {
    const delivered: NetworkMessageEvent = {
      type: 'NetworkMessageDelivered',
      data: { network_message_id: 'n1', delivery_id: 'd1', message_id: 'm1@e-invoicing.peppol', delivered_at: now },
    };
    const resent: NetworkMessageEvent = {
      type: 'NetworkMessageResendRequested',
      data: { network_message_id: 'n1', delivery_id: 'd2', message_id: 'm2@e-invoicing.peppol', requested_at: now },
    };
    const resend = { type: 'Resend' as const, data: { delivery_id: 'd3', message_id: 'm3@e-invoicing.peppol', now } };
    const history = [queued, attempted(1, 'delivered', null), delivered];
    spec
      .given(history)
      .when({ type: 'Resend', data: { delivery_id: 'd2', message_id: 'm2@e-invoicing.peppol', now } })
      .then([resent]);
    spec
      .given([...history, resent])
      .when(resend)
      .thenRefuses('invalid_state');
    spec
      .given([...history, resent])
      .when(attempt(2, 'retryable'))
      .thenNothingHappens();
    spec
      .given([...history, resent])
      .when(attempt(1, 'retryable', 'd2'))
      .then([
        {
          type: 'NetworkMessageAttempted',
          data: { ...attempted(1, 'retryable', '2026-04-01T00:01:05.000Z').data, delivery_id: 'd2' },
        },
      ]);
    const failedD2: NetworkMessageEvent = {
      type: 'NetworkMessageFailed',
      data: { network_message_id: 'n1', delivery_id: 'd2', reason: 'x', failed_at: now },
    };
    spec
      .given([...history, resent, failedD2])
      .when(resend)
      .then([{ ...resent, data: { ...resent.data, delivery_id: 'd3', message_id: 'm3@e-invoicing.peppol' } }]);
  });

  it('a history that starts without its queueing evolves to nothing (an absent message)', () => {
    const orphan: NetworkMessageEvent[] = [
      {
        type: 'NetworkMessageResendRequested',
        data: { network_message_id: 'n1', delivery_id: 'd2', message_id: 'm2', requested_at: now },
      },
      attempted(1, 'retryable', 'later'),
      failed('x'),
    ];
    spec.given(orphan).when(attempt(1, 'delivered')).thenRefuses('not_found');
    spec
      .given(orphan)
      .when({ type: 'Resend', data: { delivery_id: 'd2', message_id: 'm2', now } })
      .thenRefuses('not_found');
  });

  describe('the state a history evolves to (what the operator sees and the application reads)', () => {
    const evolved = (events: NetworkMessageEvent[]): NetworkMessageState =>
      events.reduce(networkMessageDecider.evolve, networkMessageDecider.initialState());
    const delivery = {
      delivery_id: 'd1',
      message_id: 'm1@e-invoicing.peppol',
      requested_at: now,
      attempts: 0,
      next_attempt_at: null,
      delivered_at: null,
      failure_reason: null,
    };
    const present = {
      status: 'present',
      id: 'n1',
      purpose: queued.data.purpose,
      envelope: queued.data.envelope,
      document_ref: queued.data.document_ref,
      state: 'PENDING',
      delivery,
      deliveries: 1,
    };

    it('absent before it is queued, and after events without their queueing', () => {
      expect(evolved([])).to.deep.equal({ status: 'absent' });
      expect(
        evolved([
          {
            type: 'NetworkMessageResendRequested',
            data: { network_message_id: 'n1', delivery_id: 'd2', message_id: 'm2', requested_at: now },
          },
          attempted(1, 'retryable', 'later'),
          {
            type: 'NetworkMessageDelivered',
            data: { network_message_id: 'n1', delivery_id: 'd1', message_id: 'm1', delivered_at: now },
          },
          failed('x'),
        ]),
      ).to.deep.equal({ status: 'absent' });
    });

    it('PENDING with its attempts and next attempt, then SENT or FAILED; a resend counts a new delivery', () => {
      expect(evolved([queued])).to.deep.equal(present);
      const waiting = [queued, attempted(1, 'retryable', '2026-04-01T00:01:05.000Z')];
      expect(evolved(waiting)).to.deep.equal({
        ...present,
        delivery: { ...delivery, attempts: 1, next_attempt_at: '2026-04-01T00:01:05.000Z' },
      });
      const delivered: NetworkMessageEvent = {
        type: 'NetworkMessageDelivered',
        data: {
          network_message_id: 'n1',
          delivery_id: 'd1',
          message_id: 'm1',
          delivered_at: '2026-04-01T00:01:06.000Z',
        },
      };
      expect(evolved([...waiting, delivered])).to.deep.equal({
        ...present,
        state: 'SENT',
        delivery: { ...delivery, attempts: 1, next_attempt_at: null, delivered_at: '2026-04-01T00:01:06.000Z' },
      });
      const gaveUp = [...waiting, failed('SMP down')];
      expect(evolved(gaveUp)).to.deep.equal({
        ...present,
        state: 'FAILED',
        delivery: { ...delivery, attempts: 1, next_attempt_at: null, failure_reason: 'SMP down' },
      });
      const resent: NetworkMessageEvent = {
        type: 'NetworkMessageResendRequested',
        data: {
          network_message_id: 'n1',
          delivery_id: 'd2',
          message_id: 'm2',
          requested_at: '2026-04-02T00:00:00.000Z',
        },
      };
      expect(evolved([...gaveUp, resent])).to.deep.equal({
        ...present,
        state: 'PENDING',
        delivery: { ...delivery, delivery_id: 'd2', message_id: 'm2', requested_at: '2026-04-02T00:00:00.000Z' },
        deliveries: 2,
      });
    });

    it('refuses loudly what it does not know: an event, a command, an attempt outcome', () => {
      const bogus = { type: 'NetworkMessageBogus', data: {} } as unknown as NetworkMessageEvent;
      expect(() => evolved([queued, bogus])).to.throw();
      const state = evolved([queued]);
      expect(() => networkMessageDecider.decide({ type: 'Bogus' } as never, state)).to.throw();
      const odd = attempt(1, 'delivered');
      expect(() =>
        networkMessageDecider.decide({ ...odd, data: { ...odd.data, outcome: 'maybe' as 'delivered' } }, state),
      ).to.throw();
    });

    it('keeps each message in its own stream, and names every event type it records', () => {
      expect(networkMessageStream('n1')).to.equal('network-message-n1');
      expect([...NETWORK_MESSAGE_EVENT_TYPES].sort()).to.deep.equal(
        [
          'NetworkMessageAttempted',
          'NetworkMessageDelivered',
          'NetworkMessageFailed',
          'NetworkMessageQueued',
          'NetworkMessageResendRequested',
        ].sort(),
      );
    });
  });
});
