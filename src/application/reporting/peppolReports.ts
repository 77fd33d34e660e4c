import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import { EVENT_STORE, WrongExpectedRevisionError, type EventStore, type RecordedEvent } from '../ports/eventStore.js';
import { AS4_MESSAGE_CODEC, type As4MessageCodec } from '../ports/as4Reception.js';
import { JOB_SCHEDULER, type JobScheduler } from '../ports/jobScheduler.js';
import { LOGGER } from '../ports/logger.js';
import { inject, injectable } from '../injection.js';
import { DocumentContent } from '../documents/documentContent.js';
import type { As4MessageReceived } from '../documents/as4MessageRecord.js';
import type { ContentRef } from '../../domain/document/lifecycle/documentContent.js';
import type { As4EnvelopeFacts, DocumentEvent } from '../../domain/document/lifecycle/documentAggregate.js';
import type { Event } from '../../domain/decider.js';
import { invalid, invalidState } from '../../domain/errors.js';
import { countryOfScheme } from '../../domain/peppol/schemeCountry.js';
import { AS4_TRANSPORT_PROFILE } from '../../domain/peppol/smpDocuments.js';
import {
  PEPPOL_CREDIT_NOTE,
  PEPPOL_INVOICE,
  PEPPOL_INVOICE_RESPONSE,
  type PeppolDocumentKind,
} from '../../domain/peppol/peppolDocumentTypes.js';
import {
  endUserStatistics,
  nextMonth,
  previousMonth,
  reportPeriod,
  transactionStatistics,
  type PeppolExchange,
} from '../../domain/reporting/peppolReporting.js';
import { endUserStatisticsXml, transactionStatisticsXml } from '../../domain/reporting/peppolReportXml.js';
import { systemActor, type Actor } from '../actor.js';
import { PeppolReportSubmission } from './peppolReportSubmission.js';

/** The month's reports as prepared and kept (their XML in the blob store, by digest). */
export type PeppolReportPrepared = Event<
  'PeppolReportPrepared',
  {
    month: string;
    /** The reports count the events recorded up to this time: computed again as of it, the same bytes. */
    as_of: string;
    reporter: string;
    tsr_sha256: string;
    eusr_sha256: string;
    tsr_ref: ContentRef;
    eusr_ref: ContentRef;
    incoming: number;
    outgoing: number;
    end_users: number;
    prepared_at: string;
  }
>;

export const peppolReportStream = (month: string): string => `peppol-report-${month}`;
export const PEPPOL_REPORT_JOB = 'prepare-peppol-reports';

export interface PeppolReports {
  month: string;
  as_of: string;
  reporter: string;
  tsr: string;
  eusr: string;
  tsr_sha256: string;
  eusr_sha256: string;
  incoming: number;
  outgoing: number;
  end_users: number;
}

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** The events a report reads, with their large payloads left out. */
const REPORT_EVENT_TYPES = new Set([
  'DocumentCreated',
  'SendRequested',
  'DocumentReceived',
  'DeliveryAttempted',
  'ResponseDeliveryAttempted',
  'As4MessageReceived',
  'TenantPeppolRegistered',
]);
const WITHOUT = [['ubl'], ['attachments'], ['header', 'lines'], ['document']];

interface DocumentFacts {
  tenantId?: string;
  kind?: PeppolDocumentKind;
  sender?: string | null;
  receiver?: string | null;
}

/**
 * The OpenPeppol monthly reports (TSR, EUSR) from the event history: every AS4 exchange with
 * another access point, sent (a delivery or an Invoice Response whose attempt got a verified
 * receipt, dated by the receipt) or received (As4MessageReceived, dated by the reception).
 * Deliveries between tenants of this instance never cross the network and are not reported.
 * A report "as of" a time reads only the events recorded up to it, so it can always be computed
 * again exactly; the job prepares the previous month's on the 1st and records it once.
 */
@injectable()
export class PeppolReporting {
  private readonly logger: Logger;

  constructor(
    @inject(EVENT_STORE) private readonly store: EventStore,
    @inject(AS4_MESSAGE_CODEC) private readonly codec: Pick<As4MessageCodec, 'seatId'> | null,
    @inject(JOB_SCHEDULER) private readonly scheduler: JobScheduler,
    @inject(DocumentContent) private readonly content: Pick<DocumentContent, 'put'>,
    @inject(PeppolReportSubmission) private readonly submission: Pick<PeppolReportSubmission, 'submit'>,
    @inject(LOGGER) logger: Logger,
  ) {
    this.logger = logger.child({ component: 'peppol-reporting' });
  }

  /** The reporter: this access point's seat id; without an AS4 identity there is nothing to report as. */
  private reporter(): string {
    if (!this.codec) throw invalidState('This access point has no AS4 identity (seat id): there is no Peppol report');
    return this.codec.seatId;
  }

  /** The reports of `month` (YYYY-MM) counting the events recorded up to `asOf` (ISO 8601). */
  async reports(month: string, asOf: string): Promise<PeppolReports> {
    const period = reportPeriod(month);
    if (!period) throw invalid('month must be a calendar month YYYY-MM', ['query', 'month']);
    if (Number.isNaN(Date.parse(asOf))) throw invalid('as_of must be an ISO 8601 time', ['query', 'as_of']);
    const reporter = this.reporter();
    const exchanges = await this.exchanges(new Date(asOf).toISOString());
    const tsrData = transactionStatistics(period, reporter, exchanges);
    const eusrData = endUserStatistics(period, reporter, exchanges);
    const tsr = transactionStatisticsXml(tsrData);
    const eusr = endUserStatisticsXml(eusrData);
    return {
      month,
      as_of: new Date(asOf).toISOString(),
      reporter,
      tsr,
      eusr,
      tsr_sha256: sha256(tsr),
      eusr_sha256: sha256(eusr),
      incoming: tsrData.incoming,
      outgoing: tsrData.outgoing,
      end_users: eusrData.sendingOrReceiving,
    };
  }

  /** What was prepared for `month`, if anything. */
  async prepared(month: string): Promise<PeppolReportPrepared['data'] | null> {
    const events = await this.store.readStream(peppolReportStream(month));
    const found = events.find((e) => e.type === 'PeppolReportPrepared');
    return found ? (found.data as PeppolReportPrepared['data']) : null;
  }

  /**
   * Prepares `month`'s reports as of `now` and records them, once: a month already prepared
   * keeps its first report (computed again as of its as_of, it is the same).
   */
  async prepare(month: string, now: string): Promise<PeppolReportPrepared['data']> {
    const earlier = await this.prepared(month);
    if (earlier) return earlier;
    const r = await this.reports(month, now);
    const [tsrRef, eusrRef] = await Promise.all([
      this.content.put(Buffer.from(r.tsr, 'utf8'), 'application/xml'),
      this.content.put(Buffer.from(r.eusr, 'utf8'), 'application/xml'),
    ]);
    const data: PeppolReportPrepared['data'] = {
      month,
      as_of: r.as_of,
      reporter: r.reporter,
      tsr_sha256: r.tsr_sha256,
      eusr_sha256: r.eusr_sha256,
      tsr_ref: tsrRef,
      eusr_ref: eusrRef,
      incoming: r.incoming,
      outgoing: r.outgoing,
      end_users: r.end_users,
      prepared_at: now,
    };
    try {
      await this.store.append(
        peppolReportStream(month),
        [{ type: 'PeppolReportPrepared', data, metadata: { actor: systemActor('peppol-reporting') } }],
        'no_stream',
      );
    } catch (error) {
      // Another process prepared it first: its report is the one.
      if (error instanceof WrongExpectedRevisionError) return (await this.prepared(month))!;
      throw error;
    }
    this.logger.info({ month, as_of: r.as_of, tsr_sha256: r.tsr_sha256 }, 'Peppol reports prepared');
    return data;
  }

  /** The monthly job: defined before the scheduler starts. */
  register(): void {
    this.scheduler.define<{ month: string }>(PEPPOL_REPORT_JOB, (job) => this.run(job.month), { concurrency: 1 });
  }

  /** Schedules the preparation of the month `now` is in, on the 1st of the next (idempotent). */
  async scheduleFor(now: Date): Promise<void> {
    const month = now.toISOString().slice(0, 7);
    await this.scheduler.schedule(
      PEPPOL_REPORT_JOB,
      { month },
      { at: new Date(`${nextMonth(month)}-01T00:00:00.000Z`), uniqueKey: `${PEPPOL_REPORT_JOB}-${month}` },
    );
  }

  /** The job: prepares `month` (once) and sends its two reports (once), then schedules the next month's. */
  async run(month: string, now = new Date()): Promise<void> {
    if (this.codec) await this.prepareAndSubmit(month, now);
    else this.logger.warn({ month }, 'no AS4 identity: no Peppol report prepared');
    await this.scheduleFor(new Date(`${nextMonth(month)}-01T00:00:00.000Z`));
  }

  /** `month`'s reports prepared (as of `now` unless they were already) and handed to the submission (once). */
  async prepareAndSubmit(
    month: string,
    now = new Date(),
    actor: Actor = systemActor('peppol-reporting'),
  ): Promise<PeppolReportPrepared['data']> {
    const prepared = await this.prepare(month, now.toISOString());
    await this.submission.submit(prepared, { actor, correlationId: peppolReportStream(month) });
    return prepared;
  }

  /** The month before the one `now` is in: the one reported on the 1st. */
  static lastMonth(now: Date): string {
    return previousMonth(now.toISOString().slice(0, 7));
  }

  /** Every AS4 exchange with another access point whose events were recorded up to `asOf`. */
  async exchanges(asOf: string): Promise<PeppolExchange[]> {
    const limit = Date.parse(asOf);
    const documents = new Map<string, DocumentFacts>();
    const countries = new Map<string, string>();
    const participantCountry = new Map<string, string>();
    const facts = (id: string): DocumentFacts => {
      let f = documents.get(id);
      if (!f) documents.set(id, (f = {}));
      return f;
    };
    const found: Array<() => PeppolExchange | null> = [];
    let after: bigint | undefined;
    for (;;) {
      const batch = await this.store.readAll({ after, maxCount: 1000, withoutData: WITHOUT });
      if (batch.length === 0) break;
      after = batch[batch.length - 1]!.globalPosition;
      for (const event of batch) {
        if (!REPORT_EVENT_TYPES.has(event.type) || Date.parse(event.recordedAt) > limit) continue;
        this.collect(event, facts, countries, participantCountry, found);
      }
    }
    // Resolved once every document's facts are known (a receipt may precede nothing, but the
    // facts it needs were recorded before it).
    return found.map((f) => f()).filter((e): e is PeppolExchange => e !== null);
  }

  private collect(
    event: RecordedEvent,
    facts: (id: string) => DocumentFacts,
    tenantCountries: Map<string, string>,
    participantCountries: Map<string, string>,
    found: Array<() => PeppolExchange | null>,
  ): void {
    const countryOf = (participant: string | null | undefined, tenantId?: string): string =>
      (participant ? participantCountries.get(participant) : undefined) ??
      (tenantId ? tenantCountries.get(tenantId) : undefined) ??
      (participant ? countryOfScheme(participant.split(':')[0] ?? '') : null) ??
      'ZZ';
    if (event.type === 'TenantPeppolRegistered') {
      const d = event.data as { tenant_id: string; peppol_id: string; country_code: string };
      tenantCountries.set(d.tenant_id, d.country_code);
      participantCountries.set(d.peppol_id, d.country_code);
      return;
    }
    if (event.type === 'As4MessageReceived') {
      const d = event.data as As4MessageReceived['data'];
      // Status messages between providers have no end user (nor do the reports, which are never received here).
      if (d.kind === 'mls') return;
      found.push(() => {
        const doc = d.document_id ? facts(d.document_id) : {};
        const envelope = d.envelope;
        const kind = envelope
          ? { documentType: envelope.document_type, process: envelope.process }
          : d.kind === 'invoice-response'
            ? PEPPOL_INVOICE_RESPONSE
            : (doc.kind ?? PEPPOL_INVOICE);
        // The receiver: ours (the invoice's receiver, or for an answer the invoice's sender).
        const endUser = envelope?.receiver ?? (d.kind === 'invoice-response' ? doc.sender : doc.receiver) ?? null;
        if (!endUser) return null;
        return {
          direction: 'incoming',
          at: d.received_at,
          otherServiceProvider: d.sender_ap,
          documentType: { scheme: kind.documentType.scheme, value: kind.documentType.value },
          process: { scheme: kind.process.scheme, value: kind.process.value },
          transportProtocol: AS4_TRANSPORT_PROFILE,
          countryC1: envelope?.country_c1 ?? countryOf(envelope?.sender),
          countryC4: countryOf(endUser, d.tenant_id ?? undefined),
          endUser,
        };
      });
      return;
    }
    const d = event.data as DocumentEvent['data'] & { document_id: string };
    const doc = facts(d.document_id);
    switch (event.type) {
      case 'DocumentCreated': {
        const c = event.data as Extract<DocumentEvent, { type: 'DocumentCreated' }>['data'];
        doc.tenantId = c.tenant_id;
        doc.kind = c.header?.document_type === 'CREDIT_NOTE' ? PEPPOL_CREDIT_NOTE : PEPPOL_INVOICE;
        return;
      }
      case 'DocumentReceived': {
        const r = event.data as Extract<DocumentEvent, { type: 'DocumentReceived' }>['data'];
        doc.tenantId = r.tenant_id;
        doc.kind = r.header?.document_type === 'CREDIT_NOTE' ? PEPPOL_CREDIT_NOTE : PEPPOL_INVOICE;
        doc.receiver = r.receiver_peppol_id;
        doc.sender = r.sender.peppol_id;
        return;
      }
      case 'SendRequested': {
        const s = event.data as Extract<DocumentEvent, { type: 'SendRequested' }>['data'];
        doc.sender = s.sender_peppol_id;
        doc.receiver = s.receiver_peppol_id;
        return;
      }
      case 'DeliveryAttempted':
      case 'ResponseDeliveryAttempted': {
        const a = event.data as Extract<DocumentEvent, { type: 'DeliveryAttempted' }>['data'];
        const as4 = a.as4;
        if (a.outcome !== 'delivered' || !as4?.receipt?.verified) return;
        const response = event.type === 'ResponseDeliveryAttempted';
        found.push(() => {
          // Our end user sends: the invoice's sender, or for an answer the invoice's receiver.
          const endUser = (response ? doc.receiver : doc.sender) ?? null;
          if (!endUser) return null;
          const envelope: As4EnvelopeFacts | undefined = as4.envelope;
          const kind = envelope
            ? { documentType: envelope.document_type, process: envelope.process }
            : response
              ? PEPPOL_INVOICE_RESPONSE
              : (doc.kind ?? PEPPOL_INVOICE);
          return {
            direction: 'outgoing',
            at: as4.receipt!.received_at,
            otherServiceProvider: as4.remote_ap?.seat_id ?? 'unknown',
            documentType: { scheme: kind.documentType.scheme, value: kind.documentType.value },
            process: { scheme: kind.process.scheme, value: kind.process.value },
            transportProtocol: AS4_TRANSPORT_PROFILE,
            countryC1: envelope?.country_c1 ?? countryOf(endUser, doc.tenantId),
            countryC4: null,
            endUser,
          };
        });
        return;
      }
    }
  }
}
