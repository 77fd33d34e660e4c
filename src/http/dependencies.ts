import type { Logger } from 'pino';
import type { Authenticator } from '../application/accounts/authenticate.js';
import type { AccountCommands } from '../application/accounts/accountCommands.js';
import type { AccountQueries } from '../application/accounts/accountQueries.js';
import type { OperatorQueries } from '../application/accounts/operatorQueries.js';
import type { DocumentCommands } from '../application/documents/documentCommands.js';
import type { DocumentQueries } from '../application/documents/documentQueries.js';
import type { DocumentHistory } from '../application/documents/documentHistory.js';
import type { EvidenceBundles } from '../application/evidence/evidenceBundle.js';
import type { DocumentPdfs } from '../application/documents/documentPdfs.js';
import type { SendDocument } from '../application/delivery/sendDocument.js';
import type { InboxCommands } from '../application/inbox/inboxCommands.js';
import type { WebhookCommands } from '../application/webhooks/webhookCommands.js';
import type { WebhookDispatch } from '../application/webhooks/webhookDispatch.js';
import type { DocumentStats } from '../application/documents/documentStats.js';
import type { PeppolReportSubmission } from '../application/reporting/peppolReportSubmission.js';
import type { PeppolReporting } from '../application/reporting/peppolReports.js';
import type { PeppolRegistrations } from '../application/peppol/peppolRegistration.js';
import type { SmpPublication } from '../application/peppol/smpPublication.js';
import type { ParticipantLookup } from '../application/peppol/participantLookup.js';
import type { ParticipantSearch } from '../application/peppol/participantSearch.js';
import type { HealthProbe } from '../application/ports/healthProbe.js';
import type { OperationalMetrics } from '../application/ports/operationalMetrics.js';
import type { OperationsStatus } from '../application/operations/operationsStatus.js';
import type { IdempotencyStore } from '../application/ports/idempotencyStore.js';
import type { ReadModelProgress } from '../application/ports/projection.js';
import type { RateLimitStore } from '../application/ports/rateLimitStore.js';
import type { As4Inbox } from '../application/inbox/as4Inbox.js';
import type { HygieneLimits } from './inputHygiene.js';
import type { RateLimits } from './rateLimit.js';
import type { RuleSetClock } from '../application/documents/ruleSetChoice.js';
import type { AsOfMoments } from '../application/asOf/asOfMoment.js';
import type { PersonalDataErasure } from '../application/personalData/personalDataErasure.js';
import type { HistoryRouteDependencies } from './routes/history/historyRoutes.js';

/** What the HTTP interface talks to: application handlers, queries and ports, and its own limits. */
export interface HttpDependencies {
  logger: Logger;
  health: HealthProbe;
  /** Readiness, metrics and what the operator watches. */
  operations: { status: OperationsStatus; metrics: OperationalMetrics };
  authenticator: Authenticator;
  accounts: AccountCommands;
  accountQueries: AccountQueries;
  operatorQueries: OperatorQueries;
  documents: DocumentCommands;
  documentQueries: DocumentQueries;
  documentHistory: DocumentHistory;
  /** Retention of a tenant's documents, and erasure of its personal data (the operator's). */
  erasure: PersonalDataErasure;
  /** `as_of` of the document reads, their history, the lists and the stats. */
  asOfMoments: AsOfMoments;
  evidenceBundles: Pick<EvidenceBundles, 'bundle'>;
  sending: SendDocument;
  inbox: InboxCommands;
  webhooks: WebhookCommands;
  /** `POST /api/webhooks/{id}/test`. */
  webhookTests: Pick<WebhookDispatch, 'sendTest'>;
  documentStats: DocumentStats;
  peppolReporting: PeppolReporting;
  /** The tamper-evident history: checkpoints and verification (operator routes). */
  history: HistoryRouteDependencies;
  peppolReportSubmission: PeppolReportSubmission;
  peppol: {
    registrations: PeppolRegistrations;
    smp: SmpPublication;
    lookup: ParticipantLookup;
    search: ParticipantSearch;
    /** `POST /as4`: AS4 messages from other access points. */
    as4: As4Inbox;
    /** Largest AS4 request body read (AS4_MAX_MESSAGE_BYTES). */
    as4MaxMessageBytes: number;
  };
  documentPdfs: DocumentPdfs;
  /** Lists (and single reads of the read models) wait for it: a client sees what it just wrote. */
  readModels: ReadModelProgress;
  rateLimitStore: RateLimitStore;
  rateLimits: RateLimits;
  jsonBodyLimit: number;
  /** Largest JSON body of a route that takes no document. */
  jsonOtherBodyLimit: number;
  uploadBodyLimit: number;
  /** Which day it is for the rules (the rule set in force). */
  ruleSetClock: RuleSetClock;
  hygiene: HygieneLimits;
  idempotencyStore: IdempotencyStore;
  version: string;
}
