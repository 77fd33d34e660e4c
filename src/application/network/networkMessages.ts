import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { EVENT_STORE, type EventMetadata, type EventStore } from '../ports/eventStore.js';
import { JOB_SCHEDULER, type JobScheduler } from '../ports/jobScheduler.js';
import { LOGGER } from '../ports/logger.js';
import { inject, injectable } from '../injection.js';
import { handleCommand, loadStream } from '../commandHandler.js';
import { derivedId } from '../derivedId.js';
import { systemActor } from '../actor.js';
import { DocumentContent } from '../documents/documentContent.js';
import { As4Delivery } from '../delivery/as4Delivery.js';
import { DELIVERY_OPTIONS, type DeliveryOptions } from '../delivery/deliveryProcess.js';
import { nextAttemptAt } from '../../domain/document/lifecycle/deliverySchedule.js';
import {
  networkMessageDecider,
  networkMessageStream,
  type NetworkEnvelope,
  type NetworkMessagePurpose,
  type NetworkMessageState,
} from '../../domain/peppol/networkMessage.js';

export const NETWORK_MESSAGE_JOB = 'send-network-message';

export interface NetworkMessageJob {
  network_message_id: string;
  delivery_id: string;
  /** 1-based: which attempt of the delivery this job makes. */
  attempt: number;
}

/** A message to send on the access point's own account. `id` names it for good: queued twice, it is sent once. */
export interface NetworkMessageRequest {
  id: string;
  purpose: NetworkMessagePurpose;
  envelope: NetworkEnvelope;
  /** The business document (XML text). */
  document: string;
}

const messageIdOf = (deliveryId: string) => `${deliveryId}@e-invoicing.peppol`;

/**
 * Sends what the access point owes the network on its own account (an MLS, a Peppol report) over
 * AS4, durably: the message is recorded (NetworkMessageQueued), then each attempt is a job keyed by
 * delivery and attempt, and its outcome is recorded before the next is scheduled from what was
 * recorded, on the documents' retry schedule. Exactly once: the message's stream is named by what
 * it is about, queueing again records nothing, and a job run again after a crash finds its attempt
 * recorded; the receiver drops a repeated AS4 message by its id. Queueing also makes sure the
 * pending attempt is scheduled, so a crash between the record and the job is mended by the next
 * call (process managers and jobs call again).
 */
@injectable()
export class NetworkMessages {
  private readonly logger: Logger;

  constructor(
    @inject(EVENT_STORE) private readonly store: EventStore,
    @inject(JOB_SCHEDULER) private readonly scheduler: JobScheduler,
    @inject(As4Delivery) private readonly as4: Pick<As4Delivery, 'send'>,
    @inject(DocumentContent) private readonly content: Pick<DocumentContent, 'put' | 'blob'>,
    @inject(DELIVERY_OPTIONS) private readonly options: Pick<DeliveryOptions, 'retryUnitMs' | 'concurrency'>,
    @inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'network-messages' });
  }

  register(): void {
    this.scheduler.define<NetworkMessageJob>(NETWORK_MESSAGE_JOB, (job) => this.attempt(job), {
      concurrency: this.options.concurrency,
    });
  }

  async queue(request: NetworkMessageRequest, metadata: EventMetadata, now = new Date()): Promise<NetworkMessageState> {
    const stream = networkMessageStream(request.id);
    const known = await loadStream(this.store, networkMessageDecider, stream);
    if (known.state.status === 'present') {
      await this.ensureScheduled(known.state);
      return known.state;
    }
    // Stored before the event that names it (content-addressed: the same document is the same blob).
    const document_ref = await this.content.put(Buffer.from(request.document, 'utf8'), 'application/xml');
    const deliveryId = derivedId('network-delivery', request.id);
    const result = await handleCommand(
      this.store,
      networkMessageDecider,
      stream,
      {
        type: 'Queue',
        data: {
          network_message_id: request.id,
          purpose: request.purpose,
          envelope: request.envelope,
          document_ref,
          delivery_id: deliveryId,
          message_id: messageIdOf(deliveryId),
          now: now.toISOString(),
        },
      },
      metadata,
      known,
    );
    await this.ensureScheduled(result.state);
    return result.state;
  }

  /** A new delivery of a message SENT or FAILED (a new message id: a new transmission, not a retry). */
  async resend(id: string, metadata: EventMetadata, now = new Date()): Promise<NetworkMessageState> {
    const deliveryId = randomUUID();
    const result = await handleCommand(
      this.store,
      networkMessageDecider,
      networkMessageStream(id),
      {
        type: 'Resend',
        data: { delivery_id: deliveryId, message_id: messageIdOf(deliveryId), now: now.toISOString() },
      },
      metadata,
    );
    await this.ensureScheduled(result.state);
    return result.state;
  }

  async get(id: string): Promise<NetworkMessageState> {
    return (await loadStream(this.store, networkMessageDecider, networkMessageStream(id))).state;
  }

  /** The recorded events of a message (its history: every delivery and attempt). */
  async history(id: string) {
    return this.store.readStream(networkMessageStream(id));
  }

  async attempt(job: NetworkMessageJob): Promise<void> {
    const loaded = await loadStream(this.store, networkMessageDecider, networkMessageStream(job.network_message_id));
    const state = loaded.state;
    if (state.status !== 'present' || state.delivery.delivery_id !== job.delivery_id) return;
    // Run again after a crash: the attempt is recorded; only make sure the next one is scheduled.
    if (state.delivery.attempts >= job.attempt) return this.ensureScheduled(state);
    if (state.state !== 'PENDING' || job.attempt !== state.delivery.attempts + 1) return;

    const { envelope } = state;
    const started = new Date();
    const outcome = await this.as4
      .send({
        messageId: state.delivery.message_id,
        sender: envelope.sender,
        receiver: envelope.receiver,
        kind: { documentType: envelope.document_type, process: envelope.process },
        countryC1: envelope.country_c1,
        document: (await this.content.blob(state.document_ref)).toString('utf8'),
        createdAt: state.delivery.requested_at,
        requestMls: false,
      })
      .catch((error: unknown) => ({
        // Not classified by the transport: tried again on the schedule.
        outcome: 'retryable' as const,
        receiver: envelope.receiver,
        error: (error as Error).message || 'transport error',
        as4: undefined,
      }));
    const finished = new Date();
    const result = await handleCommand(
      this.store,
      networkMessageDecider,
      networkMessageStream(state.id),
      {
        type: 'RecordAttempt',
        data: {
          delivery_id: state.delivery.delivery_id,
          attempt: job.attempt,
          receiver: outcome.receiver,
          outcome: outcome.outcome,
          error: outcome.outcome === 'delivered' ? null : outcome.error,
          ...(outcome.as4 ? { as4: outcome.as4 } : {}),
          message_id: state.delivery.message_id,
          started_at: started.toISOString(),
          duration_ms: finished.getTime() - started.getTime(),
          retry_at: nextAttemptAt(job.attempt, finished, this.options.retryUnitMs)?.toISOString() ?? null,
          now: finished.toISOString(),
        },
      },
      { actor: systemActor('network-messages'), correlationId: state.delivery.delivery_id },
      loaded,
    );
    if (outcome.outcome !== 'delivered')
      this.logger.warn(
        {
          network_message: state.id,
          kind: state.purpose.kind,
          receiver: envelope.receiver,
          attempt: job.attempt,
          outcome: outcome.outcome,
          reason: outcome.error,
        },
        `${state.purpose.kind} not delivered (attempt ${job.attempt}): ${outcome.error}`,
      );
    else this.logger.info({ network_message: state.id, kind: state.purpose.kind, receiver: envelope.receiver }, 'sent');
    await this.ensureScheduled(result.state);
  }

  /** The pending attempt of a PENDING message is scheduled (keyed: scheduling it again creates nothing). */
  private async ensureScheduled(state: NetworkMessageState): Promise<void> {
    if (state.status !== 'present' || state.state !== 'PENDING') return;
    const { delivery } = state;
    if (delivery.attempts > 0 && !delivery.next_attempt_at) return;
    const attempt = delivery.attempts + 1;
    await this.scheduler.schedule(
      NETWORK_MESSAGE_JOB,
      { network_message_id: state.id, delivery_id: delivery.delivery_id, attempt },
      {
        at: delivery.next_attempt_at ? new Date(delivery.next_attempt_at) : new Date(),
        uniqueKey: `${NETWORK_MESSAGE_JOB}:${delivery.delivery_id}:${attempt}`,
      },
    );
  }
}
