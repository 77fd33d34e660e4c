import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { AgendaBackend } from 'agenda';
import { instanceCachingFactory, type DependencyContainer } from './container.js';
import type { CompositionOptions } from './options.js';
import { registerPeppol } from './peppol.js';
import { registerHistory } from './history.js';
import { STARTUP_FACTS } from './startupReport.js';
import { CONFIG, type Config } from '../infrastructure/config.js';
import type { Database } from '../infrastructure/postgres/database.js';
import { DATABASE, DATABASE_URL, PG_POOL } from '../infrastructure/postgres/tokens.js';
import { applyPostgresSchema } from '../infrastructure/postgres/pgSchema.js';
import { checkConnectionBudget, namedConnections } from '../infrastructure/postgres/connectionBudget.js';
import { IDEMPOTENCY_RETENTION, PgIdempotencyStore } from '../infrastructure/postgres/pgIdempotencyStore.js';
import { PgRateLimitStore } from '../infrastructure/postgres/pgRateLimitStore.js';
import { PgHealthProbe } from '../infrastructure/postgres/pgHealthProbe.js';
import { AgendaScheduler } from '../infrastructure/jobs/agendaScheduler.js';
import { EMAIL_TRANSPORT_OPTIONS, EmailTransport } from '../infrastructure/mail/emailTransport.js';
import { HttpWebhookClient, RESOLVE_HOST } from '../infrastructure/webhooks/httpWebhookClient.js';
import { TASK_POOL_OPTIONS, TaskPool } from '../infrastructure/workers/taskPool.js';
import { PooledDocumentWork } from '../infrastructure/workers/pooledDocumentWork.js';
import { PDF_READER_LIMITS, PdfContentReader } from '../infrastructure/pdf/pdfContentReader.js';
import { failpoint } from '../infrastructure/failpoints.js';
import { allProjections } from '../projections/index.js';
import { ProjectionRunner } from '../projections/projectionRunner.js';
import { LOGGER } from '../application/ports/logger.js';
import { IDEMPOTENCY_STORE } from '../application/ports/idempotencyStore.js';
import { RATE_LIMIT_STORE } from '../application/ports/rateLimitStore.js';
import { HEALTH_PROBE } from '../application/ports/healthProbe.js';
import type { JobScheduler } from '../application/ports/jobScheduler.js';
import { LOCAL_PARTICIPANTS } from '../application/ports/localParticipants.js';
import { TRANSPORTS } from '../application/ports/transport.js';
import { WEBHOOK_CLIENT } from '../application/ports/webhookClient.js';
import {
  PROCESS_MANAGERS,
  PROJECTION_STATUS,
  READ_MODEL_PROGRESS,
  READ_MODEL_PROJECTIONS,
} from '../application/ports/projection.js';
import { OPERATIONAL_METRICS, type OperationalMetrics } from '../application/ports/operationalMetrics.js';
import { OperationsStatus } from '../application/operations/operationsStatus.js';
import { OperatorQueries } from '../application/accounts/operatorQueries.js';
import { DocumentStats } from '../application/documents/documentStats.js';
import { PeppolReporting } from '../application/reporting/peppolReports.js';
import { PeppolReportSubmission } from '../application/reporting/peppolReportSubmission.js';
import { PrometheusMetrics } from '../infrastructure/metrics/prometheusMetrics.js';
import { OPERATOR_KEY, OperatorKey } from '../application/accounts/operatorKey.js';
import { AccountCommands } from '../application/accounts/accountCommands.js';
import { AccountQueries } from '../application/accounts/accountQueries.js';
import { Authenticator } from '../application/accounts/authenticate.js';
import {
  DOCUMENT_LIMITS,
  DOCUMENT_WORK,
  LIST_LINE_BUDGET,
  MAX_RENDERED_LINES,
  PDF_READER,
} from '../application/documents/documentTokens.js';
import { DocumentCommands } from '../application/documents/documentCommands.js';
import { DocumentQueries } from '../application/documents/documentQueries.js';
import { DocumentHistory } from '../application/documents/documentHistory.js';
import { DocumentPdfs } from '../application/documents/documentPdfs.js';
import { DELIVERY_OPTIONS, DeliveryProcess, type DeliveryOptions } from '../application/delivery/deliveryProcess.js';
import { DELIVERY_STARTER } from '../application/delivery/deliveryStarter.js';
import { PeppolTransport } from '../application/delivery/peppolTransport.js';
import { RegisteredParticipants } from '../application/delivery/registeredParticipants.js';
import { SendDocument } from '../application/delivery/sendDocument.js';
import { InboxCommands } from '../application/inbox/inboxCommands.js';
import { ResponseRouter } from '../application/inbox/responseRouter.js';
import { ResponseDelivery } from '../application/inbox/responseDelivery.js';
import { MlsResponder } from '../application/inbox/mlsResponder.js';
import { ReceivedMlsRecorder } from '../application/inbox/receivedMls.js';
import { NetworkMessages } from '../application/network/networkMessages.js';
import {
  WEBHOOK_DISPATCH_OPTIONS,
  WebhookDispatch,
  type WebhookDispatchOptions,
} from '../application/webhooks/webhookDispatch.js';
import { WEBHOOKS_ALLOW_PRIVATE_NETWORKS, WebhookCommands } from '../application/webhooks/webhookCommands.js';
import { useXmlLimits } from '../domain/validation/index.js';
import { useDocumentDecoder } from '../infrastructure/workers/documentTasks.js';
import { decodeDocumentInput } from '../http/codecs/documentCodec.js';
import { STORED_UBL_RULES } from '../application/ports/storedUblRules.js';
import { StoredUblValidator } from '../infrastructure/xml/ublText.js';
import { BLOBS, openBlobStore } from '../infrastructure/blobs/openBlobStore.js';
import { CachingBlobStore } from '../infrastructure/blobs/cachingBlobStore.js';
import { BLOB_STORE } from '../application/ports/blobStore.js';
import { EVENT_STORE } from '../application/ports/eventStore.js';
import { DocumentContent } from '../application/documents/documentContent.js';
import { DocumentUpcaster } from '../application/documents/documentUpcaster.js';
import { APPEND_SEALER, UPCASTER, UpcastingEventStore } from '../application/upcastingEventStore.js';
import { PERSONAL_DATA_KEY_STORE, PERSONAL_DATA_MASTER_KEY } from '../application/ports/personalDataKeys.js';
import { PersonalDataVault } from '../application/personalData/personalDataVault.js';
import { ErasureKeyShredder, PersonalDataErasure } from '../application/personalData/personalDataErasure.js';
import {
  ChainedUpcaster,
  PersonalEventOpener,
  PersonalEventSealer,
} from '../application/personalData/personalEvents.js';
import { PgPersonalDataKeys } from '../infrastructure/postgres/pgPersonalDataKeys.js';
import { loadPersonalDataMasterKey } from '../infrastructure/personalDataMasterKey.js';
import { RULE_SET_CLOCK, systemRuleSetClock } from '../application/documents/ruleSetChoice.js';
import { AsOfMoments } from '../application/asOf/asOfMoment.js';

/** The worker processes' entry: their own composition root. */
const TASK_PROCESS = fileURLToPath(new URL('./taskProcess.js', import.meta.url));

/*
 * What every storage profile shares. A profile's composition root (embeddedPostgres.ts,
 * postgresServer.ts, scaleOut.ts) opens its database, calls registerPostgres, binds its own
 * RECORDED_EVENT_STORE, READ_MODEL_STORE and JOB_SCHEDULER, then calls registerService for the rest.
 *
 * Values built from the settings (and adapters that are opened, not constructed) are bound as
 * values; every service and adapter with a constructor is an `@injectable()` class bound as a
 * singleton of this container and constructed by it, with its dependencies named by tokens.
 */

/**
 * The PostgreSQL database every profile has (in the scale-out profile too it keeps idempotency
 * keys and rate-limit counters): its pool and schema, and the adapters kept there in every profile.
 */
export async function registerPostgres(
  container: DependencyContainer,
  options: CompositionOptions,
  database: Database,
): Promise<pg.Pool> {
  const { config, logger } = options;
  // Every connection of this process says whose it is (pg_stat_activity.application_name).
  const url = namedConnections(database.url);
  const pool = new pg.Pool({ connectionString: url, max: config.databasePoolSize });
  // While the pool ends, its closing connections may still report the server going away.
  pool.on('error', (error) => {
    if (!pool.ending) logger.warn({ err: error }, 'idle database connection failed');
  });
  await applyPostgresSchema(pool);
  await checkConnectionBudget(pool, config.databasePoolSize, logger);
  container.register(DATABASE, { useValue: database });
  container.register(DATABASE_URL, { useValue: url });
  container.register(PG_POOL, { useValue: pool });
  container.register(IDEMPOTENCY_RETENTION, { useValue: { ttlHours: config.idempotencyKeyTtlHours } });
  container.registerSingleton(IDEMPOTENCY_STORE, PgIdempotencyStore);
  container.registerSingleton(RATE_LIMIT_STORE, PgRateLimitStore);
  container.registerSingleton(HEALTH_PROBE, PgHealthProbe);
  // Payloads (content, UBL, attachments, Invoice Responses) by their SHA-256; events name them.
  const blobs = await openBlobStore(config.blobStore, { pool });
  container.register(BLOBS, { useValue: blobs });
  const cacheBytes = config.blobCacheBytes;
  container.register(BLOB_STORE, {
    useValue: cacheBytes > 0 ? new CachingBlobStore(blobs.store, cacheBytes) : blobs.store,
  });
  return pool;
}

/** Agenda on the profile's backend; `indexJobKeys` indexes the unique key scheduling looks jobs up by. */
export function agendaScheduler(
  options: CompositionOptions,
  backend: AgendaBackend,
  indexJobKeys: () => Promise<void>,
): JobScheduler {
  const { config, logger } = options;
  return new AgendaScheduler({
    backend,
    logger,
    lockLifetimeMs: config.jobLockLifetimeMs,
    maxConcurrency: config.deliveryConcurrency + config.webhookConcurrency,
    afterReady: indexJobKeys,
    ...options.jobs,
  });
}

/**
 * Everything but the stores: the settings the application's classes are given, the adapters
 * they use, the application's handlers and queries, and the projections with the process
 * managers that follow the log with them. The profile has bound the stores already.
 */
export async function registerService(container: DependencyContainer, options: CompositionOptions): Promise<void> {
  const { config, logger } = options;
  container.register(CONFIG, { useValue: config });
  container.register(LOGGER, { useValue: logger });
  container.register(OPERATOR_KEY, { useValue: await loadOperatorKey(config) });
  // The XML limits in force for every parse of untrusted XML, in this process and the workers.
  useXmlLimits(config.xmlLimits);
  // The request codec for bodies decoded on this thread (the workers' entry gives it to them).
  useDocumentDecoder(decodeDocumentInput);

  // Personal data is sealed with its tenant's key before it is appended or stored, and opened as it
  // is read (crypto-shredding: application/personalData).
  container.register(PERSONAL_DATA_MASTER_KEY, {
    useValue: await loadPersonalDataMasterKey(config.personalDataKey, config.dataDir),
  });
  container.registerSingleton(PERSONAL_DATA_KEY_STORE, PgPersonalDataKeys);
  container.registerSingleton(PersonalDataVault);
  container.registerSingleton(APPEND_SEALER, PersonalEventSealer);
  // Every read of the log goes through the upcasters: events recorded before payloads left them
  // read in today's shape, and personal values are opened.
  container.registerSingleton(DocumentContent);
  container.register(UPCASTER, {
    useFactory: instanceCachingFactory(
      (c) => new ChainedUpcaster([c.resolve(DocumentUpcaster), c.resolve(PersonalEventOpener)]),
    ),
  });
  container.registerSingleton(DocumentUpcaster);
  container.registerSingleton(PersonalEventOpener);
  container.registerSingleton(EVENT_STORE, UpcastingEventStore);
  registerDocuments(container, config, options);
  registerDelivery(container, options);
  registerWebhooks(container, options);
  container.registerSingleton(AccountCommands);
  container.registerSingleton(AccountQueries);
  container.registerSingleton(OperatorQueries);
  container.registerSingleton(DocumentStats);
  container.registerSingleton(AsOfMoments);
  container.registerSingleton(Authenticator);
  container.registerSingleton(InboxCommands);
  container.register(STARTUP_FACTS, { useValue: registerPeppol(container, config.peppol, logger) });
  registerHistory(container, config);

  container.register(READ_MODEL_PROJECTIONS, {
    useFactory: instanceCachingFactory((c) => allProjections(c.resolve(DocumentContent))),
  });
  // Process managers follow the log like projections do (and are not rebuilt with them).
  container.register(PROCESS_MANAGERS, {
    useFactory: instanceCachingFactory((c) => [
      c.resolve(ResponseRouter),
      c.resolve(MlsResponder),
      c.resolve(WebhookDispatch).dispatcher(),
      c.resolve(ErasureKeyShredder),
    ]),
  });
  container.registerSingleton(PersonalDataErasure);
  container.registerSingleton(ErasureKeyShredder);
  container.registerSingleton(ResponseRouter);
  container.registerSingleton(NetworkMessages);
  container.registerSingleton(ReceivedMlsRecorder);
  container.registerSingleton(MlsResponder);
  container.registerSingleton(ResponseDelivery);
  container.registerSingleton(PeppolReporting);
  container.registerSingleton(PeppolReportSubmission);
  container.registerSingleton(ProjectionRunner);
  container.register(READ_MODEL_PROGRESS, { useToken: ProjectionRunner });
  container.register(PROJECTION_STATUS, { useToken: ProjectionRunner });
  container.registerSingleton(OperationsStatus);
  container.registerSingleton(PrometheusMetrics);
  container.register(OPERATIONAL_METRICS, { useToken: PrometheusMetrics });

  // Their jobs are defined on the scheduler before it starts (Service.start).
  container.resolve(DeliveryProcess).register();
  container.resolve(ResponseDelivery).register();
  container.resolve(NetworkMessages).register();
  container.resolve(PeppolReporting).register();
  container.resolve(WebhookDispatch).register();
}

/** The document use cases, and the task pool and PDF reader their heavy steps run on. */
function registerDocuments(container: DependencyContainer, config: Config, options: CompositionOptions): void {
  container.register(RULE_SET_CLOCK, { useValue: options.ruleSetClock ?? systemRuleSetClock(config.rulesDate) });
  container.register(TASK_POOL_OPTIONS, {
    useValue: {
      workers: config.work.workers,
      entry: TASK_PROCESS,
      taskTimeoutMs: config.work.taskTimeoutMs,
      maxHeapMb: config.work.heapMb,
      maxWaitingPerTenant: config.work.maxWaitingPerTenant,
      refused: (reason: string) => container.resolve<OperationalMetrics>(OPERATIONAL_METRICS).workRefused(reason),
    },
  });
  container.register(PDF_READER_LIMITS, { useValue: config.pdfReader });
  container.register(DOCUMENT_LIMITS, { useValue: { ...config.documentLimits, text: config.text } });
  container.register(LIST_LINE_BUDGET, { useValue: config.listMaxLines });
  container.register(MAX_RENDERED_LINES, { useValue: config.documentLimits.maxRenderedLines });
  container.registerSingleton(TaskPool);
  container.registerSingleton(DOCUMENT_WORK, PooledDocumentWork);
  container.registerSingleton(PDF_READER, PdfContentReader);
  container.registerSingleton(DocumentCommands);
  container.registerSingleton(DocumentQueries);
  container.registerSingleton(DocumentHistory);
  container.registerSingleton(DocumentPdfs);
}

/** Sending: the send command, the delivery process manager it hands deliveries to, the transports. */
function registerDelivery(container: DependencyContainer, options: CompositionOptions): void {
  const { config } = options;
  const delivery: DeliveryOptions = {
    retryUnitMs: options.deliveryRetryUnitMs ?? config.deliveryRetryUnitMs,
    concurrency: config.deliveryConcurrency,
    // A first attempt is claimed for as long as a job would be.
    abandonedAfterMs: config.jobLockLifetimeMs,
    beforeFirstAttempt: () => failpoint('send:after-request'),
    afterTransport: () => failpoint('delivery:after-transport'),
  };
  container.register(DELIVERY_OPTIONS, { useValue: delivery });
  container.register(STORED_UBL_RULES, { useValue: new StoredUblValidator() });
  container.register(EMAIL_TRANSPORT_OPTIONS, {
    useValue: { smtpUrl: config.smtpUrl, from: config.mailFrom, mailDir: path.join(config.dataDir, 'mail') },
  });
  container.registerSingleton(EmailTransport);
  container.registerSingleton(LOCAL_PARTICIPANTS, RegisteredParticipants);
  container.registerSingleton(PeppolTransport);
  container.register(TRANSPORTS, {
    useFactory: instanceCachingFactory((c) => ({
      email: c.resolve(EmailTransport),
      peppol: c.resolve(PeppolTransport),
    })),
  });
  container.registerSingleton(DeliveryProcess);
  container.register(DELIVERY_STARTER, { useToken: DeliveryProcess });
  container.registerSingleton(SendDocument);
}

/** Webhook subscriptions, and the dispatcher that calls them. */
function registerWebhooks(container: DependencyContainer, options: CompositionOptions): void {
  const { config } = options;
  const dispatch: WebhookDispatchOptions = {
    retryUnitMs: options.deliveryRetryUnitMs ?? config.deliveryRetryUnitMs,
    timeoutMs: options.webhookTimeoutMs ?? 10_000,
    concurrency: config.webhookConcurrency,
    afterCall: () => failpoint('webhook:after-call'),
  };
  container.register(WEBHOOK_DISPATCH_OPTIONS, { useValue: dispatch });
  container.register(WEBHOOKS_ALLOW_PRIVATE_NETWORKS, { useValue: config.webhookAllowPrivateNetworks });
  // A factory: the resolver is usually unset, and tsyringe takes an undefined `useValue` for no provider at all.
  container.register(RESOLVE_HOST, { useFactory: () => options.webhookResolveHost });
  container.registerSingleton(WEBHOOK_CLIENT, HttpWebhookClient);
  container.registerSingleton(WebhookCommands);
  container.registerSingleton(WebhookDispatch);
}

/** The operator key: OPERATOR_KEY's, or one generated on the first start and printed once. */
function loadOperatorKey(config: Config): Promise<OperatorKey> {
  return OperatorKey.load(config.operatorKey, config.dataDir, (key, file) => {
    // Printed once, on the first start, straight to the terminal rather than the structured log.
    process.stdout.write(
      `\nOperator key generated (shown only now; its hash is stored in ${file}):\n  ${key}\n` +
        'Set OPERATOR_KEY to choose your own instead.\n\n',
    );
  });
}
