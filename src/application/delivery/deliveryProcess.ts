import type { Logger } from 'pino';
import { EVENT_STORE, type EventStore } from '../ports/eventStore.js';
import { JOB_SCHEDULER, type JobScheduler } from '../ports/jobScheduler.js';
import { TRANSPORTS, type Transport, type TransportOutcome } from '../ports/transport.js';
import { LOGGER } from '../ports/logger.js';
import { OPERATIONAL_METRICS, type OperationalMetrics } from '../ports/operationalMetrics.js';
import { inject, injectable } from '../injection.js';
import type { DeliveryStarter } from './deliveryStarter.js';
import { handleCommand, loadStream, type StreamSnapshot } from '../commandHandler.js';
import {
  documentDecider,
  documentStream,
  type DocumentAggregateState,
  type SendRequested,
  type TransportKind,
} from '../../domain/document/lifecycle/documentAggregate.js';
import { nextAttemptAt } from '../../domain/document/lifecycle/deliverySchedule.js';
import { READ_MODEL_STORE, type ReadModelStore } from '../ports/readModelStore.js';
import { DOCUMENTS, type DocumentView } from '../readModels/documentView.js';
import { DocumentContent } from '../documents/documentContent.js';
import { PersonalDataErasedError } from '../personalData/personalDataVault.js';
import { systemActor } from '../actor.js';

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
  /**
   * How long a delivery may go without its first attempt recorded before it counts as abandoned
   * (the process that took it died) and a job makes the attempt instead. Like a job's lock
   * lifetime, it must exceed the longest attempt.
   */
  abandonedAfterMs: number;
  /** Called when a send hands its delivery over, before the first attempt (crash tests kill the process here). */
  beforeFirstAttempt?: () => void;
  /** Called between the transport and recording its outcome (crash tests kill the process here). */
  afterTransport?: () => void;
}

export const DELIVERY_OPTIONS = Symbol('DeliveryOptions');

/** Abandoned deliveries handed to jobs per look. */
const RECOVERY_BATCH = 500;

/**
 * The delivery process manager. A delivery's first attempt is made at once by the process that
 * accepted the send call; every later attempt is a durable job. Each outcome is recorded on the
 * document (DeliveryAttempted, then DocumentSent or DocumentFailed) before the next attempt is
 * scheduled from what was recorded. Jobs are keyed by delivery and attempt, so a job that runs
 * again after a crash finds its attempt recorded and only makes sure the next one is scheduled;
 * transports drop a repeated message by its id.
 *
 * Why not a job for the first attempt too: a job costs five statements in the jobs table and a
 * wait for a worker to poll, for every document sent. The first attempt needs no durable record
 * of its own, because SendRequested is one: a delivery still without an attempt after
 * `abandonedAfterMs` was lost with the process that took it, and `recoverAbandoned` (run by every
 * process, periodically) hands it to a job.
 */
@injectable()
export class DeliveryProcess implements DeliveryStarter {
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly inFlight = new Set<Promise<void>>();
  private recovery: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly logger: Logger;

  constructor(
    @inject(EVENT_STORE) private readonly store: EventStore,
    @inject(READ_MODEL_STORE) private readonly readModels: ReadModelStore,
    @inject(JOB_SCHEDULER) private readonly scheduler: JobScheduler,
    @inject(TRANSPORTS) private readonly transports: Readonly<Record<TransportKind, Transport>>,
    /** Where the UBL that travels is read from. */
    @inject(DocumentContent) private readonly content: Pick<DocumentContent, 'ubl'>,
    @inject(DELIVERY_OPTIONS) private readonly options: DeliveryOptions,
    @inject(LOGGER) logger: Logger,
    @inject(OPERATIONAL_METRICS) private readonly metrics: OperationalMetrics,
  ) {
    this.logger = logger.child({ component: 'delivery' });
  }

  /**
   * Jobs (retries, recovered first attempts) and first attempts share one limit of `concurrency`
   * deliveries at once; Agenda's own limit only bounds how many jobs wait for it.
   */
  register(): void {
    this.scheduler.define<DeliveryJob>(DELIVERY_JOB, (job) => this.inSlot(() => this.attempt(job)), {
      concurrency: this.options.concurrency,
    });
  }

  /**
   * Makes a delivery's first attempt now, in this process, at most `concurrency` at once; the
   * caller does not wait. Should it not happen (a crash, a database outage), recovery takes over.
   * `known` is the document as the send call left it, so the attempt need not read it again.
   */
  startNow(
    delivery: Pick<SendRequested['data'], 'document_id' | 'delivery_id'>,
    known?: StreamSnapshot<DocumentAggregateState>,
  ): void {
    this.options.beforeFirstAttempt?.();
    if (this.stopped) return;
    const run = this.inSlot(() =>
      this.attempt({ document_id: delivery.document_id, delivery_id: delivery.delivery_id, attempt: 1 }, known),
    )
      .catch((error: unknown) =>
        this.logger.warn(
          { err: error, document: delivery.document_id },
          `first delivery attempt of document ${delivery.document_id} failed (${(error as Error).message}); a job will make it`,
        ),
      )
      .finally(() => this.inFlight.delete(run));
    this.inFlight.add(run);
  }

  /** Runs `work` once fewer than `concurrency` deliveries are under way; refuses once stopping (a job then runs again later). */
  private async inSlot(work: () => Promise<void>): Promise<void> {
    if (this.running >= this.options.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
    try {
      if (this.stopped) throw new Error('delivery is stopping');
      await work();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }

  /** Looks for abandoned deliveries now and then every quarter of `abandonedAfterMs`. */
  startRecovery(): void {
    this.stopped = false;
    const look = () =>
      this.recoverAbandoned().catch((error: unknown) =>
        this.logger.warn({ err: error }, 'looking for abandoned deliveries failed'),
      );
    void look();
    this.recovery = setInterval(() => void look(), Math.max(100, this.options.abandonedAfterMs / 4));
    this.recovery.unref();
  }

  /** Stops looking and starting; waits for the first attempts under way (the ones not begun are recovered later). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.recovery) clearInterval(this.recovery);
    this.recovery = null;
    await Promise.allSettled([...this.inFlight]);
  }

  /**
   * Deliveries in TRANSIT whose first attempt was never recorded, requested longer ago than
   * `abandonedAfterMs`, get a job for it (keyed, so any number of processes may do this at once).
   */
  async recoverAbandoned(now = new Date()): Promise<number> {
    const before = new Date(now.getTime() - this.options.abandonedAfterMs).toISOString();
    const { items } = await this.readModels.collection<DocumentView>(DOCUMENTS).find({
      filter: {
        op: 'and',
        filters: [
          { op: 'eq', field: 'state', value: 'TRANSIT' },
          { op: 'eq', field: 'summary.delivery.attempts', value: 0 },
          { op: 'lt', field: 'summary.delivery.requested_at', value: before },
        ],
      },
      limit: RECOVERY_BATCH,
    });
    await Promise.all(
      items.map((row) =>
        this.schedule({ document_id: row.id, delivery_id: row.summary.delivery!.delivery_id, attempt: 1 }),
      ),
    );
    if (items.length > 0) this.logger.info({ deliveries: items.length }, 'handed abandoned first attempts to jobs');
    return items.length;
  }

  private schedule(job: DeliveryJob, at?: Date): Promise<void> {
    return this.scheduler.schedule(DELIVERY_JOB, job, { at, uniqueKey: `deliver:${job.delivery_id}:${job.attempt}` });
  }

  async attempt(job: DeliveryJob, known?: StreamSnapshot<DocumentAggregateState>): Promise<void> {
    const stream = known ?? (await loadStream(this.store, documentDecider, documentStream(job.document_id)));
    const { state } = stream;
    if (state.status !== 'present' || state.delivery?.delivery_id !== job.delivery_id) return;
    const delivery = state.delivery;
    if (delivery.attempts >= job.attempt) return this.followUp(state); // ran before a crash
    if (state.state !== 'TRANSIT' || job.attempt !== delivery.attempts + 1) return;

    const started = new Date();
    const ubl = await this.content.ubl(state.ubl_ref).catch((error: unknown) => {
      if (error instanceof PersonalDataErasedError) return null;
      throw error;
    });
    const request = {
      document: { ...state },
      messageId: delivery.message_id,
      senderPeppolId: delivery.sender_peppol_id,
      receiverPeppolId: delivery.receiver_peppol_id,
      email: delivery.email,
    };
    // A delivery under way when its tenant's personal data was erased has no UBL left to send.
    const outcome: TransportOutcome & { thrown?: unknown } =
      ubl === null
        ? {
            outcome: 'permanent',
            receiver: request.receiverPeppolId ?? request.email ?? 'unknown',
            error: "the document's content was erased with the tenant's personal data",
          }
        : await this.deliver(delivery.transport, { ...request, ubl });
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
          ...(outcome.as4 ? { as4: outcome.as4 } : {}),
          ...(outcome.email ? { email: outcome.email } : {}),
          message_id: delivery.message_id,
          started_at: started.toISOString(),
          duration_ms: finished.getTime() - started.getTime(),
          retry_at: nextAttemptAt(job.attempt, finished, this.options.retryUnitMs)?.toISOString() ?? null,
          now: finished.toISOString(),
        },
      },
      { actor: systemActor('delivery'), tenantId: state.tenant_id, correlationId: delivery.delivery_id },
      stream,
    );
    // A stale attempt (the delivery was cancelled or settled meanwhile) records nothing, and is not reported.
    if (result.newEvents.length > 0) {
      this.metrics.deliveryAttempted(delivery.transport, outcome.outcome);
      if (outcome.outcome !== 'delivered') {
        const next = result.state.status === 'present' ? (result.state.delivery?.next_attempt_at ?? null) : null;
        this.logger.warn(
          {
            document: job.document_id,
            delivery: delivery.delivery_id,
            attempt: job.attempt,
            transport: delivery.transport,
            receiver: outcome.receiver,
            outcome: outcome.outcome,
            reason: outcome.error,
            next_attempt_at: next,
            ...(outcome.thrown === undefined ? {} : { err: outcome.thrown }),
          },
          next
            ? `delivery attempt ${job.attempt} of document ${job.document_id} failed (${outcome.error}); next attempt at ${next}`
            : `delivery of document ${job.document_id} failed for good at attempt ${job.attempt} (${outcome.error})`,
        );
      }
    }
    await this.followUp(result.state);
  }

  /** The transport's outcome; `thrown` when it threw instead (logged with the attempt's one line). */
  private async deliver(
    kind: TransportKind,
    request: Parameters<Transport['deliver']>[0],
  ): Promise<TransportOutcome & { thrown?: unknown }> {
    try {
      return await this.transports[kind].deliver(request);
    } catch (error) {
      // A transport that throws has not classified the failure: try again on the schedule.
      return {
        outcome: 'retryable',
        receiver: request.receiverPeppolId ?? request.email ?? 'unknown',
        error: (error as Error).message || 'transport error',
        thrown: error,
      };
    }
  }

  private async followUp(state: DocumentAggregateState): Promise<void> {
    if (state.status !== 'present' || state.state !== 'TRANSIT' || !state.delivery?.next_attempt_at) return;
    const { delivery } = state;
    await this.schedule(
      { document_id: state.id, delivery_id: delivery.delivery_id, attempt: delivery.attempts + 1 },
      new Date(delivery.next_attempt_at!),
    );
  }
}
