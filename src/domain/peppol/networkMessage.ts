import { assertNever, type Decider, type Event } from '../decider.js';
import { invalidState, notFound } from '../errors.js';
import type { ContentRef } from '../document/lifecycle/documentContent.js';
import type { AttemptFacts } from '../document/lifecycle/documentAggregate.js';
import { MAX_ATTEMPTS } from '../document/lifecycle/deliverySchedule.js';
import type { MlsResponseCode } from './mls/messageLevelStatus.js';
import type { ScopedId } from './as4/sbdh.js';

/**
 * A business message this access point sends on its own account, not a tenant's document: the
 * Message Level Status it owes a sending provider, or a monthly Peppol report to OpenPeppol. One
 * stream per message (its id derived from what it is about, so asking twice records it once); each
 * delivery is attempted over AS4 on the documents' retry schedule until it is delivered or fails
 * for good, every attempt recorded. A resend (the operator's) starts a new delivery with a new
 * message id: the receiver sees a new transmission, not a retry.
 */
export type NetworkMessagePurpose =
  /** The MLS about a business document received over AS4 (its AS4 MessageId and SBDH InstanceIdentifier). */
  | { kind: 'mls'; code: MlsResponseCode; about_message_id: string; about_instance_id: string; sender_ap: string }
  /** A month's Transaction Statistics Report or End User Statistics Report. */
  | { kind: 'peppol-report'; report: 'tsr' | 'eusr'; month: string };

export type NetworkMessageKind = NetworkMessagePurpose['kind'];

/** What travels, and between whom (the SBDH's parties, document type, process and COUNTRY_C1). */
export interface NetworkEnvelope {
  sender: string;
  receiver: string;
  document_type: ScopedId;
  process: ScopedId;
  country_c1: string;
}

export type NetworkMessageQueued = Event<
  'NetworkMessageQueued',
  {
    network_message_id: string;
    purpose: NetworkMessagePurpose;
    envelope: NetworkEnvelope;
    /** The business document (XML) in the blob store. */
    document_ref: ContentRef;
    delivery_id: string;
    message_id: string;
    queued_at: string;
  }
>;
export type NetworkMessageResendRequested = Event<
  'NetworkMessageResendRequested',
  { network_message_id: string; delivery_id: string; message_id: string; requested_at: string }
>;
export type NetworkMessageAttempted = Event<
  'NetworkMessageAttempted',
  { network_message_id: string; delivery_id: string } & AttemptFacts
>;
export type NetworkMessageDelivered = Event<
  'NetworkMessageDelivered',
  { network_message_id: string; delivery_id: string; message_id: string; delivered_at: string }
>;
export type NetworkMessageFailed = Event<
  'NetworkMessageFailed',
  { network_message_id: string; delivery_id: string; reason: string; failed_at: string }
>;

export type NetworkMessageEvent =
  | NetworkMessageQueued
  | NetworkMessageResendRequested
  | NetworkMessageAttempted
  | NetworkMessageDelivered
  | NetworkMessageFailed;

export const NETWORK_MESSAGE_EVENT_TYPES: readonly NetworkMessageEvent['type'][] = [
  'NetworkMessageQueued',
  'NetworkMessageResendRequested',
  'NetworkMessageAttempted',
  'NetworkMessageDelivered',
  'NetworkMessageFailed',
];

export type NetworkMessageCommand =
  | { type: 'Queue'; data: Omit<NetworkMessageQueued['data'], 'queued_at'> & { now: string } }
  /** `retry_at`: when a retry would be due (null past the schedule); the decider decides whether there is one. */
  | {
      type: 'RecordAttempt';
      data: Omit<NetworkMessageAttempted['data'], 'network_message_id' | 'next_attempt_at'> & {
        retry_at: string | null;
        now: string;
      };
    }
  | { type: 'Resend'; data: { delivery_id: string; message_id: string; now: string } };

/** PENDING: a delivery is under way (attempted now or waiting for a retry); SENT: a receipt came; FAILED: given up. */
export type NetworkMessageStatus = 'PENDING' | 'SENT' | 'FAILED';

export interface NetworkDelivery {
  delivery_id: string;
  message_id: string;
  requested_at: string;
  attempts: number;
  next_attempt_at: string | null;
  delivered_at: string | null;
  failure_reason: string | null;
}

export type NetworkMessageState =
  | { status: 'absent' }
  | {
      status: 'present';
      id: string;
      purpose: NetworkMessagePurpose;
      envelope: NetworkEnvelope;
      document_ref: ContentRef;
      state: NetworkMessageStatus;
      delivery: NetworkDelivery;
      /** Deliveries so far, the current one included. */
      deliveries: number;
    };

export const networkMessageStream = (id: string): string => `network-message-${id}`;

type Present = Extract<NetworkMessageState, { status: 'present' }>;

function decideAttempt(
  command: Extract<NetworkMessageCommand, { type: 'RecordAttempt' }>['data'],
  state: Present,
): NetworkMessageEvent[] {
  const delivery = state.delivery;
  // A stale or repeated attempt (a job run again after a crash, or of a delivery a resend replaced) changes nothing.
  if (
    state.state !== 'PENDING' ||
    delivery.delivery_id !== command.delivery_id ||
    command.attempt !== delivery.attempts + 1
  )
    return [];
  const { retry_at, now, ...attempt } = command;
  const settles = attempt.outcome !== 'retryable' || retry_at === null || attempt.attempt >= MAX_ATTEMPTS;
  const attempted: NetworkMessageAttempted = {
    type: 'NetworkMessageAttempted',
    data: { ...attempt, network_message_id: state.id, next_attempt_at: settles ? null : retry_at },
  };
  const failed = (reason: string): NetworkMessageFailed => ({
    type: 'NetworkMessageFailed',
    data: { network_message_id: state.id, delivery_id: delivery.delivery_id, reason, failed_at: now },
  });
  switch (attempt.outcome) {
    case 'delivered':
      return [
        attempted,
        {
          type: 'NetworkMessageDelivered',
          data: {
            network_message_id: state.id,
            delivery_id: delivery.delivery_id,
            message_id: attempt.message_id,
            delivered_at: now,
          },
        },
      ];
    case 'permanent':
      return [attempted, failed(attempt.error ?? 'permanent delivery failure')];
    case 'retryable':
      return settles
        ? [attempted, failed(`no success after ${attempt.attempt} attempts; last error: ${attempt.error ?? 'unknown'}`)]
        : [attempted];
    default:
      return assertNever(attempt.outcome);
  }
}

const newDelivery = (delivery_id: string, message_id: string, requested_at: string): NetworkDelivery => ({
  delivery_id,
  message_id,
  requested_at,
  attempts: 0,
  next_attempt_at: null,
  delivered_at: null,
  failure_reason: null,
});

const withDelivery = (state: NetworkMessageState, change: Partial<NetworkDelivery>, to?: NetworkMessageStatus) =>
  state.status === 'present'
    ? { ...state, state: to ?? state.state, delivery: { ...state.delivery, ...change } }
    : state;

export const networkMessageDecider: Decider<NetworkMessageState, NetworkMessageCommand, NetworkMessageEvent> = {
  initialState: () => ({ status: 'absent' }),

  decide(command, state) {
    switch (command.type) {
      case 'Queue': {
        // Asked again (a process manager's replay, a job run twice): it is queued already.
        if (state.status === 'present') return [];
        const { now, ...data } = command.data;
        return [{ type: 'NetworkMessageQueued', data: { ...data, queued_at: now } }];
      }
      case 'RecordAttempt':
        if (state.status !== 'present') throw notFound('Network message not found');
        return decideAttempt(command.data, state);
      case 'Resend': {
        if (state.status !== 'present') throw notFound('Network message not found');
        if (state.state === 'PENDING')
          throw invalidState('The message is being delivered; it can be sent again once it is SENT or FAILED');
        const { delivery_id, message_id, now } = command.data;
        return [
          {
            type: 'NetworkMessageResendRequested',
            data: { network_message_id: state.id, delivery_id, message_id, requested_at: now },
          },
        ];
      }
      default:
        return assertNever(command);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'NetworkMessageQueued': {
        const d = event.data;
        return {
          status: 'present',
          id: d.network_message_id,
          purpose: d.purpose,
          envelope: d.envelope,
          document_ref: d.document_ref,
          state: 'PENDING',
          delivery: newDelivery(d.delivery_id, d.message_id, d.queued_at),
          deliveries: 1,
        };
      }
      case 'NetworkMessageResendRequested':
        return state.status === 'present'
          ? {
              ...state,
              state: 'PENDING',
              delivery: newDelivery(event.data.delivery_id, event.data.message_id, event.data.requested_at),
              deliveries: state.deliveries + 1,
            }
          : state;
      case 'NetworkMessageAttempted':
        return withDelivery(state, { attempts: event.data.attempt, next_attempt_at: event.data.next_attempt_at });
      case 'NetworkMessageDelivered':
        return withDelivery(state, { next_attempt_at: null, delivered_at: event.data.delivered_at }, 'SENT');
      case 'NetworkMessageFailed':
        return withDelivery(state, { next_attempt_at: null, failure_reason: event.data.reason }, 'FAILED');
      default:
        return assertNever(event);
    }
  },
};
