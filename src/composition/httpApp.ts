import type { DependencyContainer } from './container.js';
import { createApp } from '../http/app.js';
import type { RateLimits } from '../http/rateLimit.js';
import { CONFIG, type Config } from '../infrastructure/config.js';
import { LOGGER } from '../application/ports/logger.js';
import { HEALTH_PROBE } from '../application/ports/healthProbe.js';
import { RATE_LIMIT_STORE } from '../application/ports/rateLimitStore.js';
import { IDEMPOTENCY_STORE } from '../application/ports/idempotencyStore.js';
import { READ_MODEL_PROGRESS } from '../application/ports/projection.js';
import { Authenticator } from '../application/accounts/authenticate.js';
import { AccountCommands } from '../application/accounts/accountCommands.js';
import { AccountQueries } from '../application/accounts/accountQueries.js';
import { OperatorQueries } from '../application/accounts/operatorQueries.js';
import { DocumentCommands } from '../application/documents/documentCommands.js';
import { DocumentQueries } from '../application/documents/documentQueries.js';
import { DocumentHistory } from '../application/documents/documentHistory.js';
import { EvidenceBundles } from '../application/evidence/evidenceBundle.js';
import { DocumentPdfs } from '../application/documents/documentPdfs.js';
import { SendDocument } from '../application/delivery/sendDocument.js';
import { InboxCommands } from '../application/inbox/inboxCommands.js';
import { WebhookCommands } from '../application/webhooks/webhookCommands.js';
import { WebhookDispatch } from '../application/webhooks/webhookDispatch.js';
import { DocumentStats } from '../application/documents/documentStats.js';
import { PeppolReporting } from '../application/reporting/peppolReports.js';
import { PeppolReportSubmission } from '../application/reporting/peppolReportSubmission.js';
import { PeppolRegistrations } from '../application/peppol/peppolRegistration.js';
import { SmpPublication } from '../application/peppol/smpPublication.js';
import { ParticipantLookup } from '../application/peppol/participantLookup.js';
import { ParticipantSearch } from '../application/peppol/participantSearch.js';
import { As4Inbox } from '../application/inbox/as4Inbox.js';
import { OperationsStatus } from '../application/operations/operationsStatus.js';
import { OPERATIONAL_METRICS } from '../application/ports/operationalMetrics.js';
import { RULE_SET_CLOCK, type RuleSetClock } from '../application/documents/ruleSetChoice.js';
import { AsOfMoments } from '../application/asOf/asOfMoment.js';
import { PersonalDataErasure } from '../application/personalData/personalDataErasure.js';
import { HistoryChainer } from '../application/history/historyChainer.js';
import { HistoryCheckpoints } from '../application/history/historyCheckpoints.js';
import { HistoryVerification } from '../application/history/historyVerification.js';
import { CHECKPOINT_SIGNER, type CheckpointSigner } from '../application/ports/historyChain.js';

export function rateLimitsFrom(config: Config): RateLimits {
  return {
    standardPerMinute: config.rateLimitStandardPerMinute,
    premiumPerMinute: config.rateLimitPremiumPerMinute,
    adminPerMinute: config.rateLimitAdminPerMinute,
    adminPerHour: config.rateLimitAdminPerHour,
  };
}

/** The HTTP interface over the container's application handlers, queries and ports. */
export function createHttpApp(container: DependencyContainer, version: string): ReturnType<typeof createApp> {
  const config = container.resolve<Config>(CONFIG);
  return createApp({
    logger: container.resolve(LOGGER),
    health: container.resolve(HEALTH_PROBE),
    operations: { status: container.resolve(OperationsStatus), metrics: container.resolve(OPERATIONAL_METRICS) },
    authenticator: container.resolve(Authenticator),
    accounts: container.resolve(AccountCommands),
    accountQueries: container.resolve(AccountQueries),
    operatorQueries: container.resolve(OperatorQueries),
    documents: container.resolve(DocumentCommands),
    documentQueries: container.resolve(DocumentQueries),
    documentHistory: container.resolve(DocumentHistory),
    asOfMoments: container.resolve(AsOfMoments),
    erasure: container.resolve(PersonalDataErasure),
    evidenceBundles: container.resolve(EvidenceBundles),
    sending: container.resolve(SendDocument),
    inbox: container.resolve(InboxCommands),
    webhooks: container.resolve(WebhookCommands),
    webhookTests: container.resolve(WebhookDispatch),
    documentStats: container.resolve(DocumentStats),
    peppolReporting: container.resolve(PeppolReporting),
    peppolReportSubmission: container.resolve(PeppolReportSubmission),
    history: {
      chainer: container.resolve(HistoryChainer),
      checkpoints: container.resolve(HistoryCheckpoints),
      verification: container.resolve(HistoryVerification),
      signingKeyId: () => container.resolve<CheckpointSigner>(CHECKPOINT_SIGNER).keyId,
    },
    peppol: {
      registrations: container.resolve(PeppolRegistrations),
      smp: container.resolve(SmpPublication),
      lookup: container.resolve(ParticipantLookup),
      search: container.resolve(ParticipantSearch),
      as4: container.resolve(As4Inbox),
      as4MaxMessageBytes: config.peppol.as4MaxMessageBytes,
    },
    documentPdfs: container.resolve(DocumentPdfs),
    readModels: container.resolve(READ_MODEL_PROGRESS),
    rateLimitStore: container.resolve(RATE_LIMIT_STORE),
    rateLimits: rateLimitsFrom(config),
    jsonBodyLimit: config.jsonBodyLimit,
    jsonOtherBodyLimit: config.jsonOtherBodyLimit,
    uploadBodyLimit: config.uploadBodyLimit,
    ruleSetClock: container.resolve<RuleSetClock>(RULE_SET_CLOCK),
    hygiene: config.text,
    idempotencyStore: container.resolve(IDEMPOTENCY_STORE),
    version,
  });
}
