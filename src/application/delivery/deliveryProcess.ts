import type { Logger } from 'pino';
import type { EventStore, RecordedEvent } from '../ports/eventStore.js';
import type { JobScheduler } from '../ports/jobScheduler.js';
import type { Transport, TransportOutcome } from '../ports/transport.js';
import { handleCommand, toDomainEvent } from '../commandHandler.js';
import { fold } from '../../domain/decider.js';
import { documentDecider, documentStream, type DocumentAggregateState, type DocumentEvent, type SendRequested, type TransportKind } from '../../domain/document/documentAggregate.js';
import { nextAttemptAt } from '../../domain/document/deliverySchedule.js';
import type { Projection } from '../../projections/projection.js';

export const DELIVERY_JOB = 'deliver-document';

export interface DeliveryJob {
  document_id: string;
  delivery_id: string;
  /** 1-based: which attempt of the delivery this job makes. */
  attempt: number;
}

export interface DeliveryOptions {
  /** A minute in production; tests compress the schedule. */
  retryUnitMs: number;
  /** How many deliveries one process runs at once. */
  concurrency: number;
  /** Called between the transport and recording its outcome (crash tests kill the process here). */
  afterTransport?: () => void;
}

/**
 * The delivery process manager. Each attempt is a durable job; its outcome is recorded on the
 * document (DeliveryAttempted, then DocumentSent or DocumentFailed) before the next attempt is
 * scheduled from what was recorded. Jobs are keyed by delivery and attempt, so a job that runs
 * again after a crash finds its attempt recorded and only makes sure the next one is scheduled;
 * transports drop a repeated message by its id.
 */
export class DeliveryProcess {
  constructor(
    private readonly store: EventStore,
    private readonly scheduler: JobScheduler,
    private readonly transports: Readonly<Record<TransportKind, Transport>>,
    private readonly options: DeliveryOptions,
    private readonly logger: Logger,
  ) {}

  register(): void {
    this.scheduler.define<DeliveryJob>(DELIVERY_JOB, (job) => this.attempt(job), { concurrency: this.options.concurrency });
  }

  /** Follows the log: every SendRequested gets its first attempt (idempotent, at least once). */
  starter(): Projection {
    return {
      name: 'delivery-starter',
      version: 1,
      collections: [],
      handles: ['SendRequested'],
      handle: (event: RecordedEvent) => this.start(event),
      // Each delivery's first job is independent of the others: scheduled concurrently.
      handleBatch: async (events: RecordedEvent[]) => {
        await Promise.all(events.map((event) => this.start(event)));
      },
    };
  }

  private start(event: RecordedEvent): Promise<void> {
    const data = (event as RecordedEvent<'SendRequested', SendRequested['data']>).data;
    return this.schedule({ document_id: data.document_id, delivery_id: data.delivery_id, attempt: 1 });
  }

  private schedule(job: DeliveryJob, at?: Date): Promise<void> {
    return this.scheduler.schedule(DELIVERY_JOB, job, { at, uniqueKey: `deliver:${job.delivery_id}:${job.attempt}` });
  }

  async attempt(job: DeliveryJob): Promise<void> {
    const history = await this.store.readStream(documentStream(job.document_id));
    const state = fold(documentDecider, history.map(toDomainEvent<DocumentEvent>));
    if (state.status !== 'present' || state.delivery?.delivery_id !== job.delivery_id) return;
    const delivery = state.delivery;
    if (delivery.attempts >= job.attempt) return this.followUp(state); // ran before a crash
    if (state.state !== 'TRANSIT' || job.attempt !== delivery.attempts + 1) return;

    const started = new Date();
    const outcome = await this.deliver(delivery.transport, {
      document: { ...state },
      messageId: delivery.message_id,
      senderPeppolId: delivery.sender_peppol_id,
      receiverPeppolId: delivery.receiver_peppol_id,
      email: delivery.email,
    });
    this.options.afterTransport?.();
    const finished = new Date();
    const result = await handleCommand(
      this.store,
      documentDecider,
      documentStream(job.document_id),
      {
        type: 'RecordAttempt',
        data: {
          delivery_id: delivery.delivery_id,
          attempt: job.attempt,
          transport: delivery.transport,
          receiver: outcome.receiver,
          outcome: outcome.outcome,
          error: outcome.outcome === 'delivered' ? null : outcome.error,
          message_id: delivery.message_id,
          started_at: started.toISOString(),
          duration_ms: finished.getTime() - started.getTime(),
          retry_at: nextAttemptAt(job.attempt, finished, this.options.retryUnitMs)?.toISOString() ?? null,
          now: finished.toISOString(),
        },
      },
      { actor: 'delivery', tenantId: state.tenant_id, correlationId: delivery.delivery_id },
      history,
    );
    await this.followUp(result.state);
  }

  private async deliver(kind: TransportKind, request: Parameters<Transport['deliver']>[0]): Promise<TransportOutcome> {
    try {
      return await this.transports[kind].deliver(request);
    } catch (error) {
      // A transport that throws has not classified the failure: try again on the schedule.
      this.logger.warn({ err: error, document: request.document.id }, 'transport failed unexpectedly');
      return { outcome: 'retryable', receiver: request.receiverPeppolId ?? request.email ?? 'unknown', error: (error as Error).message || 'transport error' };
    }
  }

  private async followUp(state: DocumentAggregateState): Promise<void> {
    if (state.status !== 'present' || state.state !== 'TRANSIT' || !state.delivery?.next_attempt_at) return;
    const { delivery } = state;
    await this.schedule({ document_id: state.id, delivery_id: delivery.delivery_id, attempt: delivery.attempts + 1 }, new Date(delivery.next_attempt_at!));
  }
}
