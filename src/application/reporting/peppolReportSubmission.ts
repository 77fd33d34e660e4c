import type { Logger } from 'pino';
import type { EventMetadata } from '../ports/eventStore.js';
import { LOGGER } from '../ports/logger.js';
import { SERVICE_PROVIDER, type ServiceProvider } from '../ports/serviceProvider.js';
import { inject, injectable } from '../injection.js';
import { derivedId } from '../derivedId.js';
import { toDomainEvent } from '../commandHandler.js';
import { DocumentContent } from '../documents/documentContent.js';
import { NetworkMessages } from '../network/networkMessages.js';
import { invalidState, notFound } from '../../domain/errors.js';
import { PEPPOL_EUSR, PEPPOL_TSR } from '../../domain/peppol/peppolDocumentTypes.js';
import type { NetworkMessageEvent } from '../../domain/peppol/networkMessage.js';
import type { PeppolReportPrepared } from './peppolReports.js';
import { actorOf, describeActor } from '../actor.js';

export const PEPPOL_REPORT_KINDS = ['tsr', 'eusr'] as const;
export type PeppolReportKind = (typeof PEPPOL_REPORT_KINDS)[number];

/** The network message that sends `report` of `month`: one per month and report, for good. */
export const reportMessageId = (month: string, report: PeppolReportKind) => derivedId('peppol-report', month, report);

/** One report's submission as the operator sees it: where it stands and every attempt of every delivery. */
export interface ReportSubmissionView {
  report: PeppolReportKind;
  month: string;
  receiver: string;
  /** PENDING (being delivered or waiting for a retry), SENT (a receipt came), FAILED (given up). */
  status: 'PENDING' | 'SENT' | 'FAILED';
  message_id: string;
  queued_at: string;
  delivered_at: string | null;
  failure_reason: string | null;
  next_attempt_at: string | null;
  deliveries: Array<{
    delivery_id: string;
    message_id: string;
    requested_at: string;
    requested_by: string | null;
    attempts: Array<{
      attempt: number;
      started_at: string;
      duration_ms: number;
      outcome: string;
      error: string | null;
      endpoint_url: string | null;
      remote_ap: string | null;
      receipt_received_at: string | null;
    }>;
  }>;
}

/**
 * Sends each month's two Peppol reports (TSR, EUSR) to the reporting receiver (OpenPeppol,
 * 9925:be0848934496, unless set otherwise for a test network) over AS4, as this provider's SPID,
 * with their Peppol Reporting document types and process: each a network message named by month
 * and report, so a month is submitted once however often it is asked, retried on the delivery
 * schedule, every attempt in its history; the operator may send a SENT or FAILED one again.
 */
@injectable()
export class PeppolReportSubmission {
  private readonly logger: Logger;

  constructor(
    @inject(NetworkMessages) private readonly network: Pick<NetworkMessages, 'queue' | 'resend' | 'get' | 'history'>,
    @inject(SERVICE_PROVIDER) private readonly provider: ServiceProvider,
    @inject(DocumentContent) private readonly content: Pick<DocumentContent, 'blob'>,
    @inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'peppol-report-submission' });
  }

  get enabled(): boolean {
    return this.provider.reporting.submit && this.provider.participant !== null && this.provider.country !== null;
  }

  /** Queues both reports of a prepared month (once: asked again, nothing more is sent). */
  async submit(prepared: PeppolReportPrepared['data'], metadata: EventMetadata): Promise<void> {
    if (!this.enabled) {
      this.logger.warn(
        { month: prepared.month, submit: this.provider.reporting.submit, spid: this.provider.participant },
        'Peppol reports prepared but not sent (PEPPOL_REPORTING_SUBMIT off, or no SPID or country)',
      );
      return;
    }
    for (const report of PEPPOL_REPORT_KINDS) {
      const kind = report === 'tsr' ? PEPPOL_TSR : PEPPOL_EUSR;
      const xml = await this.content.blob(report === 'tsr' ? prepared.tsr_ref : prepared.eusr_ref);
      await this.network.queue(
        {
          id: reportMessageId(prepared.month, report),
          purpose: { kind: 'peppol-report', report, month: prepared.month },
          envelope: {
            sender: this.provider.participant!,
            receiver: this.provider.reporting.receiver,
            document_type: kind.documentType,
            process: kind.process,
            country_c1: this.provider.country!,
          },
          document: xml.toString('utf8'),
        },
        metadata,
      );
    }
  }

  /** A report sent again (a new transmission), when it is SENT or FAILED. */
  async resend(month: string, report: PeppolReportKind, metadata: EventMetadata): Promise<ReportSubmissionView> {
    const id = reportMessageId(month, report);
    if ((await this.network.get(id)).status === 'absent')
      throw notFound(`The ${report.toUpperCase()} of ${month} was not submitted`);
    try {
      await this.network.resend(id, metadata);
    } catch (error) {
      if (error instanceof Error && 'kind' in error && error.kind === 'invalid_state')
        throw invalidState(
          `The ${report.toUpperCase()} of ${month} is being delivered; send it again once it is SENT or FAILED`,
        );
      throw error;
    }
    return (await this.view(month, report))!;
  }

  /** Where both reports of a month stand (null for one not submitted). */
  async status(month: string): Promise<Record<PeppolReportKind, ReportSubmissionView | null>> {
    const [tsr, eusr] = await Promise.all(PEPPOL_REPORT_KINDS.map((report) => this.view(month, report)));
    return { tsr: tsr!, eusr: eusr! };
  }

  private async view(month: string, report: PeppolReportKind): Promise<ReportSubmissionView | null> {
    const id = reportMessageId(month, report);
    const state = await this.network.get(id);
    if (state.status !== 'present') return null;
    const deliveries: ReportSubmissionView['deliveries'] = [];
    let queuedAt = '';
    for (const recorded of await this.network.history(id)) {
      const event = toDomainEvent<NetworkMessageEvent>(recorded);
      // Who asked, in words (the monthly job, the operator).
      const actor = describeActor(actorOf(recorded.metadata));
      switch (event.type) {
        case 'NetworkMessageQueued':
          queuedAt = event.data.queued_at;
          deliveries.push({
            ...deliveryOf(event.data.delivery_id, event.data.message_id, event.data.queued_at),
            requested_by: actor,
          });
          break;
        case 'NetworkMessageResendRequested':
          deliveries.push({
            ...deliveryOf(event.data.delivery_id, event.data.message_id, event.data.requested_at),
            requested_by: actor,
          });
          break;
        case 'NetworkMessageAttempted': {
          const a = event.data;
          deliveries
            .find((d) => d.delivery_id === a.delivery_id)
            ?.attempts.push({
              attempt: a.attempt,
              started_at: a.started_at,
              duration_ms: a.duration_ms,
              outcome: a.outcome,
              error: a.error,
              endpoint_url: a.as4?.endpoint_url ?? null,
              remote_ap: a.as4?.remote_ap?.seat_id ?? null,
              receipt_received_at: a.as4?.receipt?.received_at ?? null,
            });
          break;
        }
        default:
          break;
      }
    }
    return {
      report,
      month,
      receiver: state.envelope.receiver,
      status: state.state,
      message_id: state.delivery.message_id,
      queued_at: queuedAt,
      delivered_at: state.delivery.delivered_at,
      failure_reason: state.delivery.failure_reason,
      next_attempt_at: state.delivery.next_attempt_at,
      deliveries,
    };
  }
}

const deliveryOf = (delivery_id: string, message_id: string, requested_at: string) => ({
  delivery_id,
  message_id,
  requested_at,
  attempts: [] as ReportSubmissionView['deliveries'][number]['attempts'],
});
