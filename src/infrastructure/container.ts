import 'reflect-metadata';
import { container as rootContainer, type DependencyContainer } from 'tsyringe';
import pg from 'pg';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { EventStore } from '../application/ports/eventStore.js';
import type { ReadModelStore } from '../application/ports/readModelStore.js';
import type { JobScheduler } from '../application/ports/jobScheduler.js';
import { PgEventStore } from './postgres/pgEventStore.js';
import { PgReadModelStore } from './postgres/pgReadModelStore.js';
import { applyPostgresSchema } from './postgres/pgSchema.js';
import { PgIdempotencyStore } from './postgres/pgIdempotencyStore.js';
import { AgendaScheduler } from './jobs/agendaScheduler.js';
import { ProjectionRunner } from '../projections/projectionRunner.js';
import { allProjections } from '../projections/index.js';
import { AccountCommands } from '../application/accounts/accountCommands.js';
import { AccountQueries } from '../application/accounts/accountQueries.js';
import { OperatorKey } from '../application/accounts/operatorKey.js';
import { DocumentCommands } from '../application/documents/documentCommands.js';
import { DocumentQueries } from '../application/documents/documentQueries.js';
import { SendDocument } from '../application/delivery/sendDocument.js';
import { DeliveryProcess } from '../application/delivery/deliveryProcess.js';
import { PeppolTransport } from '../application/delivery/peppolTransport.js';
import { RegisteredParticipants } from '../application/delivery/registeredParticipants.js';
import { InboxCommands, responseRouter } from '../application/inbox/inboxCommands.js';
import { DocumentHistory } from '../application/documents/documentHistory.js';
import { EmailTransport } from './mail/emailTransport.js';
import path from 'node:path';
import { WebhookDispatch } from '../application/webhooks/webhookDispatch.js';
import { WebhookCommands } from '../application/webhooks/webhookCommands.js';
import { HttpWebhookClient, type ResolveHost } from './webhooks/httpWebhookClient.js';
import { failpoint } from './failpoints.js';
import { wirePeppol } from './peppol/peppolWiring.js';
import { DocumentPdfs } from '../application/documents/documentPdfs.js';
import { TaskPool } from './workers/taskPool.js';
import { useXmlLimits } from '../domain/validation/index.js';
import { StoredUblValidator } from './xml/ublText.js';
import { PooledDocumentWork } from './workers/pooledDocumentWork.js';
import { PdfContentReader } from './pdf/pdfContentReader.js';

/** Injection tokens: the service is wired by explicit tokens, not by reflected constructor types. */
export const TOKENS = {
  Config: Symbol('Config'),
  Logger: Symbol('Logger'),
  Pool: Symbol('Pool'),
  EventStore: Symbol('EventStore'),
  ReadModelStore: Symbol('ReadModelStore'),
  JobScheduler: Symbol('JobScheduler'),
  ProjectionRunner: Symbol('ProjectionRunner'),
  AccountCommands: Symbol('AccountCommands'),
  AccountQueries: Symbol('AccountQueries'),
  OperatorKey: Symbol('OperatorKey'),
  DocumentCommands: Symbol('DocumentCommands'),
  DocumentQueries: Symbol('DocumentQueries'),
  DocumentHistory: Symbol('DocumentHistory'),
  SendDocument: Symbol('SendDocument'),
  DeliveryProcess: Symbol('DeliveryProcess'),
  InboxCommands: Symbol('InboxCommands'),
  EmailTransport: Symbol('EmailTransport'),
  WebhookCommands: Symbol('WebhookCommands'),
  DocumentPdfs: Symbol('DocumentPdfs'),
  TaskPool: Symbol('TaskPool'),
  IdempotencyStore: Symbol('IdempotencyStore'),
} as const;

export interface WiringOptions {
  config: Config;
  logger: Logger;
  /** The PostgreSQL database of this deployment (embedded or DATABASE_URL). */
  databaseUrl: string;
  /** Agenda settings for tests, which want fast polling and short locks. */
  jobs?: { processEveryMs?: number; lockLifetimeMs?: number };
  /** The delivery and webhook schedules' unit: a minute unless a test compresses it. */
  deliveryRetryUnitMs?: number;
  /** How long a webhook subscriber may take to answer (tests shorten it). */
  webhookTimeoutMs?: number;
  /** How webhook host names are resolved: the system resolver unless a test gives its own answers. */
  webhookResolveHost?: ResolveHost;
}

/**
 * Builds the dependency container for one service instance, choosing adapters by profile:
 * PostgreSQL for everything by default; EventStoreDB for events when EVENTSTORE_URL is set;
 * MongoDB for read models and jobs when MONGODB_URL is set.
 */
export async function wire(options: WiringOptions): Promise<DependencyContainer> {
  const { config, logger } = options;
  const container = rootContainer.createChildContainer();
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: config.databasePoolSize });
  // While the pool ends, its closing connections may still report the server going away.
  pool.on('error', (error) => {
    if (!pool.ending) logger.warn({ err: error }, 'idle database connection failed');
  });
  await applyPostgresSchema(pool);

  const eventStore: EventStore = config.eventStoreUrl
    ? new (await import('./eventstoredb/esdbEventStore.js')).EsdbEventStore(config.eventStoreUrl)
    : new PgEventStore(pool, options.databaseUrl);

  let readModels: ReadModelStore;
  let jobBackend;
  if (config.mongodbUrl) {
    const { MongoReadModelStore } = await import('./mongo/mongoReadModelStore.js');
    readModels = await MongoReadModelStore.connect(config.mongodbUrl);
    const { MongoBackend } = await import('@agendajs/mongo-backend');
    jobBackend = new MongoBackend({ address: config.mongodbUrl });
  } else {
    readModels = new PgReadModelStore(pool);
    const { PostgresBackend } = await import('@agendajs/postgres-backend');
    jobBackend = new PostgresBackend({ pool });
  }

  const scheduler: JobScheduler = new AgendaScheduler({
    backend: jobBackend,
    logger,
    lockLifetimeMs: config.jobLockLifetimeMs,
    maxConcurrency: config.deliveryConcurrency + config.webhookConcurrency,
    // Scheduling looks a unique key up among all jobs kept so far: index it in either profile.
    afterReady: config.mongodbUrl
      ? async () => {
          const { MongoJobRepository } = await import('@agendajs/mongo-backend');
          const repository = jobBackend.repository;
          if (repository instanceof MongoJobRepository) await repository.collection.createIndex({ name: 1, 'data.unique_key': 1 });
        }
      : async () => {
          await pool.query(`CREATE INDEX IF NOT EXISTS agenda_jobs_unique_key ON agenda_jobs (name, (data->>'unique_key'))`);
        },
    ...options.jobs,
  });
  const operatorKey = await OperatorKey.load(config.operatorKey, config.dataDir, (key, file) => {
    // Printed once, on the first start, straight to the terminal rather than the structured log.
    process.stdout.write(
      `\nOperator key generated (shown only now; its hash is stored in ${file}):\n  ${key}\n` +
        'Set OPERATOR_KEY to choose your own instead.\n\n',
    );
  });

  container.register(TOKENS.Config, { useValue: config });
  container.register(TOKENS.Logger, { useValue: logger });
  container.register(TOKENS.Pool, { useValue: pool });
  container.register(TOKENS.EventStore, { useValue: eventStore });
  container.register(TOKENS.ReadModelStore, { useValue: readModels });
  container.register(TOKENS.JobScheduler, { useValue: scheduler });
  container.register(TOKENS.OperatorKey, { useValue: operatorKey });
  // The XML limits in force for every parse of untrusted XML, in this process and the workers.
  useXmlLimits(config.xmlLimits);
  const taskPool = new TaskPool({
    workers: config.work.workers,
    taskTimeoutMs: config.work.taskTimeoutMs,
    maxHeapMb: config.work.heapMb,
    maxWaitingPerTenant: config.work.maxWaitingPerTenant,
  });
  container.register(TOKENS.TaskPool, { useValue: taskPool });
  container.register(TOKENS.IdempotencyStore, {
    // A claim whose process died is free again after the longest a request may take.
    useValue: new PgIdempotencyStore(pool, { ttlHours: config.idempotencyKeyTtlHours, claimLeaseMs: 5 * 60_000 }),
  });
  const work = new PooledDocumentWork(taskPool);
  const email = new EmailTransport({ smtpUrl: config.smtpUrl, from: config.mailFrom, mailDir: path.join(config.dataDir, 'mail') });
  const delivery = new DeliveryProcess(
    eventStore,
    readModels,
    scheduler,
    { email, peppol: new PeppolTransport(eventStore, new RegisteredParticipants(eventStore), work) },
    {
      retryUnitMs: options.deliveryRetryUnitMs ?? 60_000,
      concurrency: config.deliveryConcurrency,
      // A first attempt is claimed for as long as a job would be.
      abandonedAfterMs: config.jobLockLifetimeMs,
      afterTransport: () => failpoint('delivery:after-transport'),
    },
    logger.child({ component: 'delivery' }),
  );
  delivery.register();
  const webhooks = new WebhookDispatch(
    eventStore,
    scheduler,
    new HttpWebhookClient(config.webhookAllowPrivateNetworks, options.webhookResolveHost),
    { retryUnitMs: options.deliveryRetryUnitMs ?? 60_000, timeoutMs: options.webhookTimeoutMs ?? 10_000, concurrency: config.webhookConcurrency, afterCall: () => failpoint('webhook:after-call') },
    logger.child({ component: 'webhooks' }),
  );
  webhooks.register();
  // Process managers follow the log like projections do (and are not rebuilt with them).
  const processManagers = [responseRouter(eventStore, logger.child({ component: 'responses' })), webhooks.dispatcher()];
  container.register(TOKENS.ProjectionRunner, {
    useValue: new ProjectionRunner(eventStore, readModels, allProjections, logger.child({ component: 'projections' }), processManagers),
  });
  container.register(TOKENS.EmailTransport, { useValue: email });
  container.register(TOKENS.DeliveryProcess, { useValue: delivery });
  container.register(TOKENS.SendDocument, {
    useValue: new SendDocument(eventStore, (requested, known) => {
      failpoint('send:after-request');
      delivery.startNow(requested, known);
    }, new StoredUblValidator()),
  });
  container.register(TOKENS.InboxCommands, { useValue: new InboxCommands(eventStore) });
  container.register(TOKENS.DocumentHistory, { useValue: new DocumentHistory(eventStore) });
  container.register(TOKENS.WebhookCommands, { useValue: new WebhookCommands(eventStore, readModels, config.webhookAllowPrivateNetworks) });
  const accounts = new AccountCommands(eventStore);
  container.register(TOKENS.AccountCommands, { useValue: accounts });
  container.register(TOKENS.AccountQueries, { useValue: new AccountQueries(readModels) });
  const documentCommands = new DocumentCommands(eventStore, work, { ...config.documentLimits, text: config.text });
  container.register(TOKENS.DocumentCommands, { useValue: documentCommands });
  container.register(TOKENS.DocumentPdfs, { useValue: new DocumentPdfs(documentCommands, work, new PdfContentReader(config.pdfReader), config.documentLimits.maxRenderedLines) });
  container.register(TOKENS.DocumentQueries, { useValue: new DocumentQueries(readModels, config.listMaxLines) });
  // Peppol registration, SMP, lookup and SML (tokens in PEPPOL_TOKENS).
  wirePeppol(container, config.peppol, { eventStore, readModels, accounts, logger });
  return container;
}
