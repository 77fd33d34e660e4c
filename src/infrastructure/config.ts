import os from 'node:os';
import path from 'node:path';
import { loadPeppolConfig, type PeppolConfig } from './peppolConfig.js';
import type { XmlLimits } from '../domain/validation/index.js';
import type { HygieneLimits } from '../domain/inputText.js';
import type { PdfReaderLimits } from './pdf/pdfContentReader.js';
import { loadBlobStoreConfig, type BlobStoreConfig } from './blobs/blobStoreConfig.js';
import { SETTINGS } from './settings/catalogue.js';
import type { Env } from './settings/setting.js';
import type { LogFormat } from './logger.js';

/** `Config`: every setting, for the composition root and the service's start (the rest get their own settings). */
export const CONFIG = Symbol('Config');

/** Every setting of the service, read once from the environment (settings/catalogue.ts declares each). */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Unset: start the embedded PostgreSQL under dataDir. */
  databaseUrl: string | null;
  embeddedPostgresPort: number;
  eventStoreUrl: string | null;
  mongodbUrl: string | null;
  operatorKey: string | null;
  bootstrapAdminKey: string | null;
  /**
   * The master key wrapping the tenants' personal-data keys (32 bytes, base64); unset: the key in
   * <dataDir>/personal-data.key, generated on the first start. The same for every process.
   */
  personalDataKey: string | null;
  logLevel: string;
  /** LOG_FORMAT: `pretty` (lines for people), `json` (one object a line); unset: pretty on a terminal, else JSON. */
  logFormat: LogFormat | null;
  /** Largest accepted JSON document body (create, validate), in bytes. */
  jsonBodyLimit: number;
  /** Largest JSON body of any other route, in bytes. */
  jsonOtherBodyLimit: number;
  /** Largest accepted XML or file upload, in bytes. */
  uploadBodyLimit: number;
  /** Requests per minute per tenant key, standard tier (0: unlimited). */
  rateLimitStandardPerMinute: number;
  /** Requests per minute per tenant key, premium tier (0: unlimited). */
  rateLimitPremiumPerMinute: number;
  /** Requests per minute per organization (admin) key (0: unlimited). */
  rateLimitAdminPerMinute: number;
  /** Requests per hour per organization (admin) key (0: unlimited). */
  rateLimitAdminPerHour: number;
  /** Test-mode mail goes through this SMTP server; null writes .eml files under dataDir/mail. */
  smtpUrl: string | null;
  /** The From of test-mode mail. */
  mailFrom: string;
  /**
   * PostgreSQL connections one process may open for requests, projections and jobs (besides 3 of
   * its own: two LISTENs and the idempotency claim session); idle ones close after 10 s.
   */
  databasePoolSize: number;
  /** Deliveries one process runs at once. */
  deliveryConcurrency: number;
  /**
   * The unit of the retry schedule (DELIVERY_RETRY_UNIT_MS, default a minute): the schedule's delays are counted
   * in it. Tests and demos of faults shorten it.
   */
  deliveryRetryUnitMs: number;
  /**
   * The day (YYYY-MM-DD) that decides which rule set is in force (RULES_DATE), instead of today: to
   * run an instance as of a release's first day ahead of time, or as of a past day.
   */
  rulesDate: string | null;
  /** Webhook calls one process runs at once. */
  webhookConcurrency: number;
  /** How long a claimed job stays locked: after a crash, another process takes it over after this. */
  jobLockLifetimeMs: number;
  /** Let webhooks call loopback and private-network addresses (off in production: no SSRF). */
  webhookAllowPrivateNetworks: boolean;
  /** Peppol registration, SMP, lookup and SML settings (peppolConfig.ts). */
  peppol: PeppolConfig;
  /** The task pool that runs CPU-heavy document work off the event loop. */
  work: { workers: number; taskTimeoutMs: number; heapMb: number; maxWaitingPerTenant: number };
  /** Lines and attachments one document may have. */
  documentLimits: { maxLines: number; maxAttachments: number; maxRenderedLines: number };
  /** Lines one list page carries in all; documents past it are listed without their lines. */
  listMaxLines: number;
  /** Longest string of a JSON body, path or query (MAX_STRING_LENGTH) and deepest JSON nesting (MAX_JSON_DEPTH). */
  text: HygieneLimits;
  /** How long an Idempotency-Key's first result is kept. */
  idempotencyKeyTtlHours: number;
  /** Bounds on uploaded XML (size, elements, depth, attributes per element, text length). */
  xmlLimits: XmlLimits;
  /** What reading one uploaded PDF may take (POST /api/documents/pdf): pages, decompressed bytes, memory, time. */
  pdfReader: PdfReaderLimits;
  /** Where payloads are kept by their SHA-256 (blobs/blobStoreConfig.ts): the events name them. */
  blobStore: BlobStoreConfig;
  /** Memory for recently written and read blobs (BLOB_CACHE_MB; 0 turns the cache off). */
  blobCacheBytes: number;
  /** The hash chain over the log and its signed checkpoints (docs/internals/proving-history.md). */
  history: HistorySettings;
}

export interface HistorySettings {
  /** HISTORY_CHECKPOINT_INTERVAL_S (600): a checkpoint when the last is this old and events came since; 0: on demand only. */
  checkpointIntervalMs: number;
  /** HISTORY_CHECKPOINT_EVERY_EVENTS (10000): a checkpoint as soon as this many events came since the last; 0: no such bound. */
  checkpointEveryEvents: number;
  /** HISTORY_SIGNING_KEY_FILE: the PEM private key checkpoints are signed with (else the AS4 key, else one generated in DATA_DIR). */
  signingKeyFile: string | null;
  /** HISTORY_SIGNING_CERTIFICATE_FILE: its certificate, optional. */
  signingCertificateFile: string | null;
  /** HISTORY_CHECKPOINT_FILE: each checkpoint is also appended here, one JSON line (a copy outside the database). */
  checkpointFile: string | null;
  /** HISTORY_CHAIN_PACE_MS (250): the chainer reads and writes this often (at most, under load); an event stays unchained about twice this. */
  chainPaceMs: number;
  /** HISTORY_VERIFY_WORKERS (the cores, at most 4): worker threads a verification of a long chain walks it with. */
  verifyWorkers: number;
}

/** LOG_FORMAT `auto` (unset): pretty on a terminal, JSON otherwise (logger.ts decides). */
const logFormatOf = (format: LogFormat | 'auto'): LogFormat | null => (format === 'auto' ? null : format);

export function loadConfig(env: Env = process.env): Config {
  const dataDir = path.resolve(SETTINGS.DATA_DIR.read(env));
  const workers = SETTINGS.WORK_PROCESSES.read(env);
  return {
    port: SETTINGS.PORT.read(env),
    host: SETTINGS.HOST.read(env),
    dataDir,
    databaseUrl: SETTINGS.DATABASE_URL.read(env),
    embeddedPostgresPort: SETTINGS.EMBEDDED_PG_PORT.read(env),
    eventStoreUrl: SETTINGS.EVENTSTORE_URL.read(env),
    mongodbUrl: SETTINGS.MONGODB_URL.read(env),
    operatorKey: SETTINGS.OPERATOR_KEY.read(env),
    bootstrapAdminKey: SETTINGS.BOOTSTRAP_ADMIN_KEY.read(env),
    personalDataKey: SETTINGS.PERSONAL_DATA_KEY.read(env),
    logLevel: SETTINGS.LOG_LEVEL.read(env),
    logFormat: logFormatOf(SETTINGS.LOG_FORMAT.read(env)),
    jsonBodyLimit: SETTINGS.JSON_BODY_LIMIT.read(env),
    jsonOtherBodyLimit: SETTINGS.JSON_OTHER_BODY_LIMIT.read(env),
    uploadBodyLimit: SETTINGS.UPLOAD_BODY_LIMIT.read(env),
    // The spec's limits; a development host raises them (or sets 0) for load tests.
    rateLimitStandardPerMinute: SETTINGS.RATE_LIMIT_STANDARD_PER_MINUTE.read(env),
    rateLimitPremiumPerMinute: SETTINGS.RATE_LIMIT_PREMIUM_PER_MINUTE.read(env),
    rateLimitAdminPerMinute: SETTINGS.RATE_LIMIT_ADMIN_PER_MINUTE.read(env),
    rateLimitAdminPerHour: SETTINGS.RATE_LIMIT_ADMIN_PER_HOUR.read(env),
    smtpUrl: SETTINGS.SMTP_URL.read(env),
    mailFrom: SETTINGS.MAIL_FROM.read(env),
    // The embedded server is this process's alone (it takes 300 connections); a server of one's
    // own (100 connections as installed) is shared by several processes: 4 × (20 + 4) fit.
    databasePoolSize: SETTINGS.DATABASE_POOL_SIZE.read(env) ?? (SETTINGS.DATABASE_URL.read(env) ? 20 : 30),
    deliveryConcurrency: SETTINGS.DELIVERY_CONCURRENCY.read(env),
    deliveryRetryUnitMs: SETTINGS.DELIVERY_RETRY_UNIT_MS.read(env),
    rulesDate: SETTINGS.RULES_DATE.read(env),
    webhookConcurrency: SETTINGS.WEBHOOK_CONCURRENCY.read(env),
    jobLockLifetimeMs: SETTINGS.JOB_LOCK_LIFETIME_MS.read(env),
    webhookAllowPrivateNetworks: SETTINGS.WEBHOOK_ALLOW_PRIVATE_NETWORKS.read(env),
    peppol: loadPeppolConfig(env),
    work: {
      // Two even on two cores: while one tenant's heavy task holds one worker, another tenant's
      // gets the other (the pool keeps one free for others while anyone else waits).
      workers: workers === 0 ? Math.max(2, os.availableParallelism()) : workers,
      taskTimeoutMs: SETTINGS.WORK_TASK_TIMEOUT_MS.read(env),
      heapMb: SETTINGS.WORK_HEAP_MB.read(env),
      maxWaitingPerTenant: SETTINGS.WORK_MAX_WAITING_PER_TENANT.read(env),
    },
    documentLimits: {
      maxLines: SETTINGS.MAX_DOCUMENT_LINES.read(env),
      maxAttachments: SETTINGS.MAX_DOCUMENT_ATTACHMENTS.read(env),
      maxRenderedLines: SETTINGS.PDF_RENDER_MAX_LINES.read(env),
    },
    listMaxLines: SETTINGS.LIST_MAX_LINES.read(env),
    text: {
      maxStringLength: SETTINGS.MAX_STRING_LENGTH.read(env),
      maxDepth: SETTINGS.MAX_JSON_DEPTH.read(env),
    },
    idempotencyKeyTtlHours: SETTINGS.IDEMPOTENCY_KEY_TTL_HOURS.read(env),
    xmlLimits: {
      maxBytes: SETTINGS.XML_MAX_BYTES.read(env),
      maxElements: SETTINGS.XML_MAX_ELEMENTS.read(env),
      maxDepth: SETTINGS.XML_MAX_DEPTH.read(env),
      maxAttributesPerElement: SETTINGS.XML_MAX_ATTRIBUTES.read(env),
      maxTextLength: SETTINGS.XML_MAX_TEXT_LENGTH.read(env),
    },
    pdfReader: {
      maxPages: SETTINGS.PDF_READ_MAX_PAGES.read(env),
      maxEmbeddedBytes: SETTINGS.PDF_READ_MAX_EMBEDDED_BYTES.read(env),
      maxDecodedBytes: SETTINGS.PDF_READ_MAX_DECODED_BYTES.read(env),
      maxImagePixels: SETTINGS.PDF_READ_MAX_IMAGE_PIXELS.read(env),
      maxHeapMb: SETTINGS.PDF_READ_HEAP_MB.read(env),
      timeoutMs: SETTINGS.PDF_READ_TIMEOUT_MS.read(env),
    },
    blobStore: loadBlobStoreConfig(env, dataDir),
    blobCacheBytes: SETTINGS.BLOB_CACHE_MB.read(env) * 1024 * 1024,
    history: {
      checkpointIntervalMs: SETTINGS.HISTORY_CHECKPOINT_INTERVAL_S.read(env) * 1000,
      checkpointEveryEvents: SETTINGS.HISTORY_CHECKPOINT_EVERY_EVENTS.read(env),
      signingKeyFile: SETTINGS.HISTORY_SIGNING_KEY_FILE.read(env),
      signingCertificateFile: SETTINGS.HISTORY_SIGNING_CERTIFICATE_FILE.read(env),
      checkpointFile: SETTINGS.HISTORY_CHECKPOINT_FILE.read(env),
      chainPaceMs: SETTINGS.HISTORY_CHAIN_PACE_MS.read(env),
      verifyWorkers: SETTINGS.HISTORY_VERIFY_WORKERS.read(env) || Math.min(4, os.availableParallelism()),
    },
  };
}
