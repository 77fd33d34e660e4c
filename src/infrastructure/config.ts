import os from 'node:os';
import path from 'node:path';
import { loadPeppolConfig, type PeppolConfig } from './peppolConfig.js';
import { DEFAULT_XML_LIMITS, XML_LIMIT_SETTINGS, type XmlLimits } from '../domain/validation/index.js';
import { DEFAULT_DOCUMENT_SIZE_LIMITS } from '../domain/document/invoice/documentLimits.js';
import { DEFAULT_HYGIENE_LIMITS, type HygieneLimits } from '../domain/inputText.js';
import { DEFAULT_PDF_READER_LIMITS, type PdfReaderLimits } from './pdf/pdfContentReader.js';
import { loadBlobStoreConfig, type BlobStoreConfig } from './blobs/blobStoreConfig.js';

/** `Config`: every setting, for the composition root and the service's start (the rest get their own settings). */
export const CONFIG = Symbol('Config');

/** Every setting of the service, read once from the environment. See the README's table. */
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
  logLevel: string;
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
  /** PostgreSQL connections one process keeps (requests, projections and jobs share them). */
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
  /** HISTORY_CHAIN_PACE_MS (250): the chainer reads and writes at most this often under load; it bounds how long an event stays unchained. */
  chainPaceMs: number;
  /** HISTORY_VERIFY_WORKERS (the cores, at most 4): worker threads a verification of a long chain walks it with. */
  verifyWorkers: number;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  return value;
}

/** A calendar day, YYYY-MM-DD (a real date), or null when unset. */
function day(env: NodeJS.ProcessEnv, name: string): string | null {
  const raw = optional(env[name]);
  if (raw === null) return null;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(raw) || new Date(`${raw}T00:00:00Z`).toISOString().slice(0, 10) !== raw)
    throw new Error(`${name} must be a date YYYY-MM-DD, got "${raw}"`);
  return raw;
}

const optional = (value: string | undefined) => (value === undefined || value.trim() === '' ? null : value.trim());

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = path.resolve(env.DATA_DIR || './var');
  return {
    port: integer(env, 'PORT', 8080),
    host: env.HOST || '0.0.0.0',
    dataDir,
    databaseUrl: optional(env.DATABASE_URL),
    embeddedPostgresPort: integer(env, 'EMBEDDED_PG_PORT', 54329),
    eventStoreUrl: optional(env.EVENTSTORE_URL),
    mongodbUrl: optional(env.MONGODB_URL),
    operatorKey: optional(env.OPERATOR_KEY),
    bootstrapAdminKey: optional(env.BOOTSTRAP_ADMIN_KEY),
    logLevel: env.LOG_LEVEL || 'info',
    jsonBodyLimit: integer(env, 'JSON_BODY_LIMIT', 2 * 1024 * 1024),
    jsonOtherBodyLimit: integer(env, 'JSON_OTHER_BODY_LIMIT', 64 * 1024),
    uploadBodyLimit: integer(env, 'UPLOAD_BODY_LIMIT', 20 * 1024 * 1024),
    // The spec's limits; a development host raises them (or sets 0) for load tests.
    rateLimitStandardPerMinute: integer(env, 'RATE_LIMIT_STANDARD_PER_MINUTE', 100),
    rateLimitPremiumPerMinute: integer(env, 'RATE_LIMIT_PREMIUM_PER_MINUTE', 1000),
    rateLimitAdminPerMinute: integer(env, 'RATE_LIMIT_ADMIN_PER_MINUTE', 100),
    rateLimitAdminPerHour: integer(env, 'RATE_LIMIT_ADMIN_PER_HOUR', 1000),
    smtpUrl: optional(env.SMTP_URL),
    mailFrom: env.MAIL_FROM || 'E-invoicing test mode <no-reply@localhost>',
    databasePoolSize: integer(env, 'DATABASE_POOL_SIZE', 30),
    deliveryConcurrency: integer(env, 'DELIVERY_CONCURRENCY', 20),
    deliveryRetryUnitMs: integer(env, 'DELIVERY_RETRY_UNIT_MS', 60_000),
    rulesDate: day(env, 'RULES_DATE'),
    webhookConcurrency: integer(env, 'WEBHOOK_CONCURRENCY', 20),
    jobLockLifetimeMs: integer(env, 'JOB_LOCK_LIFETIME_MS', 60_000),
    webhookAllowPrivateNetworks: env.WEBHOOK_ALLOW_PRIVATE_NETWORKS === 'true',
    peppol: loadPeppolConfig(env),
    work: {
      // Two even on two cores: while one tenant's heavy task holds one worker, another tenant's
      // gets the other (the pool keeps one free for others while anyone else waits).
      workers: Math.max(1, integer(env, 'WORK_PROCESSES', Math.max(2, os.availableParallelism()))),
      taskTimeoutMs: integer(env, 'WORK_TASK_TIMEOUT_MS', 20_000),
      heapMb: integer(env, 'WORK_HEAP_MB', 384),
      maxWaitingPerTenant: integer(env, 'WORK_MAX_WAITING_PER_TENANT', 16),
    },
    documentLimits: {
      maxLines: integer(env, 'MAX_DOCUMENT_LINES', DEFAULT_DOCUMENT_SIZE_LIMITS.maxLines),
      maxAttachments: integer(env, 'MAX_DOCUMENT_ATTACHMENTS', DEFAULT_DOCUMENT_SIZE_LIMITS.maxAttachments),
      maxRenderedLines: integer(env, 'PDF_RENDER_MAX_LINES', DEFAULT_DOCUMENT_SIZE_LIMITS.maxRenderedLines),
    },
    listMaxLines: integer(env, 'LIST_MAX_LINES', 10_000),
    text: {
      maxStringLength: integer(env, 'MAX_STRING_LENGTH', DEFAULT_HYGIENE_LIMITS.maxStringLength),
      maxDepth: integer(env, 'MAX_JSON_DEPTH', DEFAULT_HYGIENE_LIMITS.maxDepth),
    },
    idempotencyKeyTtlHours: integer(env, 'IDEMPOTENCY_KEY_TTL_HOURS', 24),
    // Each limit's setting is named where its refusal names it (XML_LIMIT_SETTINGS).
    xmlLimits: {
      maxBytes: integer(env, XML_LIMIT_SETTINGS.maxBytes, DEFAULT_XML_LIMITS.maxBytes),
      maxElements: integer(env, XML_LIMIT_SETTINGS.maxElements, DEFAULT_XML_LIMITS.maxElements),
      maxDepth: integer(env, XML_LIMIT_SETTINGS.maxDepth, DEFAULT_XML_LIMITS.maxDepth),
      maxAttributesPerElement: integer(
        env,
        XML_LIMIT_SETTINGS.maxAttributesPerElement,
        DEFAULT_XML_LIMITS.maxAttributesPerElement,
      ),
      maxTextLength: integer(env, XML_LIMIT_SETTINGS.maxTextLength, DEFAULT_XML_LIMITS.maxTextLength),
    },
    pdfReader: {
      maxPages: integer(env, 'PDF_READ_MAX_PAGES', DEFAULT_PDF_READER_LIMITS.maxPages),
      maxEmbeddedBytes: integer(env, 'PDF_READ_MAX_EMBEDDED_BYTES', DEFAULT_PDF_READER_LIMITS.maxEmbeddedBytes),
      maxDecodedBytes: integer(env, 'PDF_READ_MAX_DECODED_BYTES', DEFAULT_PDF_READER_LIMITS.maxDecodedBytes),
      maxImagePixels: integer(env, 'PDF_READ_MAX_IMAGE_PIXELS', DEFAULT_PDF_READER_LIMITS.maxImagePixels),
      maxHeapMb: integer(env, 'PDF_READ_HEAP_MB', DEFAULT_PDF_READER_LIMITS.maxHeapMb),
      timeoutMs: integer(env, 'PDF_READ_TIMEOUT_MS', DEFAULT_PDF_READER_LIMITS.timeoutMs),
    },
    blobStore: loadBlobStoreConfig(env, dataDir),
    blobCacheBytes: integer(env, 'BLOB_CACHE_MB', 32) * 1024 * 1024,
    history: {
      checkpointIntervalMs: integer(env, 'HISTORY_CHECKPOINT_INTERVAL_S', 600) * 1000,
      checkpointEveryEvents: integer(env, 'HISTORY_CHECKPOINT_EVERY_EVENTS', 10_000),
      signingKeyFile: optional(env.HISTORY_SIGNING_KEY_FILE),
      signingCertificateFile: optional(env.HISTORY_SIGNING_CERTIFICATE_FILE),
      checkpointFile: optional(env.HISTORY_CHECKPOINT_FILE),
      chainPaceMs: integer(env, 'HISTORY_CHAIN_PACE_MS', 250),
      verifyWorkers: Math.max(1, integer(env, 'HISTORY_VERIFY_WORKERS', Math.min(4, os.availableParallelism()))),
    },
  };
}
