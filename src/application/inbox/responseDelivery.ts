import type { Logger } from 'pino';
import { EVENT_STORE, type EventStore } from '../ports/eventStore.js';
import { JOB_SCHEDULER, type JobScheduler } from '../ports/jobScheduler.js';
import { LOGGER } from '../ports/logger.js';
import { inject, injectable } from '../injection.js';
import { handleCommand, loadStream } from '../commandHandler.js';
import { derivedId } from '../derivedId.js';
import { DocumentContent } from '../documents/documentContent.js';
import { As4Delivery } from '../delivery/as4Delivery.js';
import { DELIVERY_OPTIONS, type DeliveryOptions } from '../delivery/deliveryProcess.js';
import type { TransportOutcome } from '../ports/transport.js';
import { invoiceResponseOf } from './invoiceResponseOf.js';
import {
  documentDecider,
  documentStream,
  type DocumentAggregateState,
} from '../../domain/document/lifecycle/documentAggregate.js';
import { nextAttemptAt } from '../../domain/document/lifecycle/deliverySchedule.js';
import { countryC1Of } from '../../domain/peppol/countryC1.js';
import { PEPPOL_INVOICE_RESPONSE } from '../../domain/peppol/peppolDocumentTypes.js';
import { systemActor } from '../actor.js';

export const RESPONSE_DELIVERY_JOB = 'deliver-invoice-response';

export interface ResponseDeliveryJob {
  document_id: string;
  /** 1-based: which attempt this job makes. */
  attempt: number;
}

/** The Invoice Response's AS4 MessageId: one per answered document, the same in every attempt. */
export const responseMessageId = (documentId: string) =>
  `${derivedId('invoice-response-message', documentId)}@e-invoicing.peppol`;

/**
 * Takes a tenant's accept or reject of a document received over AS4 back to its sender's access
 * point: the Invoice Response is sent over AS4 to the sender's participant id (resolved through the
 * SML and SMP for the Invoice Response document type), each attempt recorded on the received
 * document (ResponseDeliveryAttempted, with the AS4 evidence), retried on the delivery schedule
 * by durable jobs keyed by document and attempt, so a job run again after a crash makes no second
 * attempt and the receiver drops a repeated message by its id.
 */
@injectable()
export class ResponseDelivery {
  private readonly logger: Logger;

  constructor(
    @inject(EVENT_STORE) private readonly store: EventStore,
    @inject(JOB_SCHEDULER) private readonly scheduler: JobScheduler,
    @inject(As4Delivery) private readonly as4: Pick<As4Delivery, 'send'>,
    @inject(DocumentContent) private readonly content: Pick<DocumentContent, 'ubl'>,
    @inject(DELIVERY_OPTIONS) private readonly options: Pick<DeliveryOptions, 'retryUnitMs' | 'concurrency'>,
    @inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'response-delivery' });
  }

  register(): void {
    this.scheduler.define<ResponseDeliveryJob>(RESPONSE_DELIVERY_JOB, (job) => this.attempt(job), {
      concurrency: this.options.concurrency,
    });
  }

  /** Schedules the first attempt (idempotent: keyed by the document). */
  start(documentId: string): Promise<void> {
    return this.schedule({ document_id: documentId, attempt: 1 }, new Date());
  }

  private schedule(job: ResponseDeliveryJob, at: Date): Promise<void> {
    return this.scheduler.schedule(RESPONSE_DELIVERY_JOB, job, {
      at,
      uniqueKey: `${RESPONSE_DELIVERY_JOB}:${job.document_id}:${job.attempt}`,
    });
  }

  async attempt(job: ResponseDeliveryJob): Promise<void> {
    const loaded = await loadStream(this.store, documentDecider, documentStream(job.document_id));
    const state = loaded.state;
    if (state.status !== 'present' || !state.response || !state.inbound?.peppol_id) return;
    const done = state.response_delivery;
    // Run again after a crash: the attempt is recorded; only make sure the next one is scheduled.
    if (done && done.attempts >= job.attempt) return this.followUp(state);

    const sender = state.inbound.receiver_peppol_id;
    const receiver = state.inbound.peppol_id;
    const messageId = responseMessageId(state.id);
    const started = new Date();
    const outcome = await this.send(state, sender, receiver, messageId);
    const finished = new Date();
    if (outcome.outcome !== 'delivered')
      this.logger.warn(
        { document: state.id, attempt: job.attempt, receiver, outcome: outcome.outcome, error: outcome.error },
        `Invoice Response on document ${state.id} not delivered to ${receiver} at attempt ${job.attempt} (${outcome.error})`,
      );
    const result = await handleCommand(
      this.store,
      documentDecider,
      documentStream(state.id),
      {
        type: 'RecordResponseDelivery',
        data: {
          code: state.response.code,
          attempt: job.attempt,
          receiver,
          outcome: outcome.outcome,
          error: outcome.outcome === 'delivered' ? null : outcome.error,
          ...(outcome.as4 ? { as4: outcome.as4 } : {}),
          message_id: messageId,
          started_at: started.toISOString(),
          duration_ms: finished.getTime() - started.getTime(),
          retry_at: nextAttemptAt(job.attempt, finished, this.options.retryUnitMs)?.toISOString() ?? null,
        },
      },
      { actor: systemActor('response-delivery'), tenantId: state.tenant_id, correlationId: messageId },
      loaded,
    );
    await this.followUp(result.state);
  }

  private async send(
    state: Extract<DocumentAggregateState, { status: 'present' }>,
    sender: string,
    receiver: string,
    messageId: string,
  ): Promise<TransportOutcome> {
    const document = invoiceResponseOf(state, derivedId('invoice-response', state.id))!;
    // The response's sender is the invoice's buyer: its country, else its id scheme's.
    const countryC1 = countryC1Of(await this.content.ubl(state.ubl_ref), sender, 'customer');
    if (!countryC1)
      return {
        outcome: 'permanent',
        receiver,
        error: "The buyer's country (COUNTRY_C1 of the Peppol envelope) is neither in the invoice nor in its id",
      };
    return this.as4.send({
      messageId,
      sender,
      receiver,
      kind: PEPPOL_INVOICE_RESPONSE,
      countryC1,
      document,
      createdAt: state.response!.responded_at,
      requestMls: true,
    });
  }

  private async followUp(state: DocumentAggregateState): Promise<void> {
    if (state.status !== 'present' || !state.response_delivery?.next_attempt_at) return;
    const { attempts, next_attempt_at } = state.response_delivery;
    await this.schedule({ document_id: state.id, attempt: attempts + 1 }, new Date(next_attempt_at));
  }
}
