import { DEFAULT_XML_LIMITS, XML_LIMIT_SETTINGS } from '../../domain/validation/index.js';
import { DEFAULT_DOCUMENT_SIZE_LIMITS } from '../../domain/document/invoice/documentLimits.js';
import { DEFAULT_HYGIENE_LIMITS } from '../../domain/inputText.js';
import { PEPPOL_PRODUCTION_SML_ZONE } from '../../domain/peppol/smlName.js';
import { OPENPEPPOL_REPORTING_RECEIVER } from '../../domain/reporting/peppolReporting.js';
import { OCSP_FAILURE_POLICIES } from '../peppol/accessPointTrust.js';
import { DEFAULT_PDF_READER_LIMITS } from '../pdf/pdfContentReader.js';
import {
  choice,
  day,
  flag,
  integer,
  optionalInteger,
  libraryVariable,
  list,
  optionalText,
  text,
  url,
  type Setting,
} from './setting.js';

/*
 * Every environment variable the service reads, declared once: its name, section, meaning and
 * default. The code reads each through its declaration (config.ts, peppolConfig.ts,
 * blobStoreConfig.ts, …); docs/operating/configuration.md is generated from this file
 * (`npm run docs:generate`). A new setting is declared here, or test/docs/settings.test.ts fails.
 */
export const SETTINGS = {
  // Service
  PORT: integer('PORT', 8080, { section: 'service', description: 'HTTP port.' }),
  HOST: text('HOST', '0.0.0.0', { section: 'service', description: 'HTTP bind address.' }),
  DATA_DIR: text('DATA_DIR', './var', {
    section: 'service',
    description:
      'The embedded PostgreSQL cluster (`postgres/`), its generated password, the operator key hash, test-mode `.eml` files, the `fs` blob store by default: with the embedded database, everything the service keeps.',
  }),
  OPERATOR_KEY: optionalText('OPERATOR_KEY', {
    section: 'service',
    defaultText: 'generated',
    description:
      'The operator credential for `/api/operator/…`. Unset: the first start generates one, prints it once and keeps only its hash (`DATA_DIR/operator-key.sha256`).',
  }),
  BOOTSTRAP_ADMIN_KEY: optionalText('BOOTSTRAP_ADMIN_KEY', {
    section: 'service',
    description: 'On start, create an organization holding exactly this admin key, unless one already does.',
  }),
  PERSONAL_DATA_KEY: optionalText('PERSONAL_DATA_KEY', {
    section: 'service',
    defaultText: 'generated',
    description:
      "The master key (32 bytes in base64, e.g. `openssl rand -base64 32`) that wraps each tenant's personal-data key (crypto-shredding, docs/operating/retention-and-erasure.md). Unset: the first start generates one into `DATA_DIR/personal-data.key` (mode 0600). Every process of a deployment needs the same one; losing it loses every tenant's personal data, so keep a copy apart from the database's backups.",
  }),
  LOG_FORMAT: choice('LOG_FORMAT', ['auto', 'pretty', 'json'] as const, 'auto', {
    section: 'service',
    description:
      'How the log is written: `pretty` (lines for people), `json` (one JSON object a line, for collectors); `auto`: pretty on a terminal, JSON otherwise.',
  }),
  LOG_LEVEL: text('LOG_LEVEL', 'info', {
    section: 'service',
    description: 'pino level: `debug`, `info`, `warn`, `error`, `silent`.',
  }),
  RULES_DATE: day('RULES_DATE', {
    section: 'service',
    defaultText: 'today (UTC)',
    description:
      'The day (YYYY-MM-DD) that decides which rule set is in force: to run an instance as of a release’s first day ahead of time, or as of a past day.',
  }),

  // Storage profiles
  DATABASE_URL: optionalText('DATABASE_URL', {
    section: 'storage',
    defaultText: 'unset (embedded PostgreSQL)',
    description: 'Use this PostgreSQL server instead of the embedded one.',
  }),
  EMBEDDED_PG_PORT: integer('EMBEDDED_PG_PORT', 54329, {
    section: 'storage',
    description: 'Port of the embedded PostgreSQL (it listens on 127.0.0.1 only).',
  }),
  DATABASE_POOL_SIZE: optionalInteger('DATABASE_POOL_SIZE', {
    section: 'storage',
    min: 1,
    defaultText: '`20` with `DATABASE_URL`, `30` on the embedded server',
    description:
      'PostgreSQL connections per process (requests, projections and jobs share them); each process also holds two listening connections and one for Idempotency-Key claims. See [several processes](processes.md).',
  }),
  EVENTSTORE_URL: optionalText('EVENTSTORE_URL', {
    section: 'storage',
    description: 'Scale-out profile: keep the events in EventStoreDB (`esdb://…`).',
  }),
  MONGODB_URL: optionalText('MONGODB_URL', {
    section: 'storage',
    description: 'Scale-out profile: keep the read models and the jobs in MongoDB.',
  }),

  // Blob store
  BLOB_STORE: choice('BLOB_STORE', ['postgres', 'fs', 's3'] as const, 'postgres', {
    section: 'blobs',
    description:
      'Where payloads are kept by their SHA-256: `postgres` (table `blobs`), `fs` (a folder) or `s3` (a bucket). Only the chosen kind’s variables are read.',
  }),
  BLOB_CACHE_MB: integer('BLOB_CACHE_MB', 32, {
    section: 'blobs',
    description:
      'Memory for recently written and read blobs; `0` turns it off. A blob never changes under its key, so the cache is never stale.',
  }),
  BLOB_DIR: optionalText('BLOB_DIR', {
    section: 'blobs',
    defaultText: '`DATA_DIR/blobs`',
    description: '`BLOB_STORE=fs`: the folder (created when missing; keep it on one file system).',
  }),
  S3_BUCKET: optionalText('S3_BUCKET', {
    section: 'blobs',
    description: '`BLOB_STORE=s3`: the bucket (required; it must exist: opening the store checks that it answers).',
  }),
  S3_PREFIX: optionalText('S3_PREFIX', {
    section: 'blobs',
    defaultText: 'empty',
    description: '`BLOB_STORE=s3`: folder-like prefix of the object names (`prod/blobs` → `prod/blobs/<sha256>`).',
  }),
  S3_ENDPOINT: optionalText('S3_ENDPOINT', {
    section: 'blobs',
    defaultText: 'unset (AWS S3)',
    description: '`BLOB_STORE=s3`: an S3-compatible server’s URL (`http://minio:9000`).',
  }),
  S3_REGION: optionalText('S3_REGION', {
    section: 'blobs',
    defaultText: '`AWS_REGION`, else `us-east-1`',
    description: '`BLOB_STORE=s3`: the region requests are signed for.',
  }),
  AWS_REGION: optionalText('AWS_REGION', {
    section: 'blobs',
    description: '`BLOB_STORE=s3`: the region when `S3_REGION` is unset (the AWS SDK reads it too).',
  }),
  S3_FORCE_PATH_STYLE: flag('S3_FORCE_PATH_STYLE', {
    section: 'blobs',
    description:
      '`BLOB_STORE=s3`: address `<endpoint>/<bucket>/<key>` instead of `<bucket>.<endpoint>/<key>` (most S3-compatible servers need `true`).',
  }),
  AWS_ACCESS_KEY_ID: libraryVariable('AWS_ACCESS_KEY_ID', 'the AWS SDK', {
    section: 'blobs',
    description:
      '`BLOB_STORE=s3`: credentials, read by the AWS SDK’s default chain (which also takes `AWS_PROFILE`, web identity and container or instance roles); they need `s3:GetObject`, `s3:PutObject`, `s3:ListBucket`.',
  }),
  AWS_SECRET_ACCESS_KEY: libraryVariable('AWS_SECRET_ACCESS_KEY', 'the AWS SDK', {
    section: 'blobs',
    description: '`BLOB_STORE=s3`: with `AWS_ACCESS_KEY_ID`.',
  }),
  AWS_SESSION_TOKEN: libraryVariable('AWS_SESSION_TOKEN', 'the AWS SDK', {
    section: 'blobs',
    description: '`BLOB_STORE=s3`: with temporary credentials.',
  }),

  // Limits
  JSON_BODY_LIMIT: integer('JSON_BODY_LIMIT', 2 * 1024 * 1024, {
    section: 'limits',
    description: 'Largest JSON document body in bytes (`POST /api/documents`, `/api/validate/json`; larger: 413).',
  }),
  JSON_OTHER_BODY_LIMIT: integer('JSON_OTHER_BODY_LIMIT', 64 * 1024, {
    section: 'limits',
    description: 'Largest JSON body of every other route, in bytes (larger: 413).',
  }),
  UPLOAD_BODY_LIMIT: integer('UPLOAD_BODY_LIMIT', 20 * 1024 * 1024, {
    section: 'limits',
    description: 'Largest XML or PDF upload in bytes (larger: 413).',
  }),
  RATE_LIMIT_STANDARD_PER_MINUTE: integer('RATE_LIMIT_STANDARD_PER_MINUTE', 100, {
    section: 'limits',
    description: 'Requests per minute per tenant key, standard tier (`0`: unlimited).',
  }),
  RATE_LIMIT_PREMIUM_PER_MINUTE: integer('RATE_LIMIT_PREMIUM_PER_MINUTE', 1000, {
    section: 'limits',
    description: 'Requests per minute per tenant key, premium tier (`0`: unlimited).',
  }),
  RATE_LIMIT_ADMIN_PER_MINUTE: integer('RATE_LIMIT_ADMIN_PER_MINUTE', 100, {
    section: 'limits',
    description: 'Requests per minute per organization key (`0`: unlimited).',
  }),
  RATE_LIMIT_ADMIN_PER_HOUR: integer('RATE_LIMIT_ADMIN_PER_HOUR', 1000, {
    section: 'limits',
    description: 'Requests per hour per organization key (`0`: unlimited).',
  }),
  MAX_DOCUMENT_LINES: integer('MAX_DOCUMENT_LINES', DEFAULT_DOCUMENT_SIZE_LIMITS.maxLines, {
    section: 'limits',
    description:
      'Lines of one document, created from JSON or UBL (more: 422). Raising it costs the other tenants tail latency: see [Limits](limits.md).',
  }),
  MAX_DOCUMENT_ATTACHMENTS: integer('MAX_DOCUMENT_ATTACHMENTS', DEFAULT_DOCUMENT_SIZE_LIMITS.maxAttachments, {
    section: 'limits',
    description: 'Attachments of one document (more: 422).',
  }),
  PDF_RENDER_MAX_LINES: integer('PDF_RENDER_MAX_LINES', DEFAULT_DOCUMENT_SIZE_LIMITS.maxRenderedLines, {
    section: 'limits',
    description:
      'Lines of the longest document rendered as a PDF (`construct_pdf`, `GET …/pdf`; about 220 pages; more: 422).',
  }),
  MAX_STRING_LENGTH: integer('MAX_STRING_LENGTH', DEFAULT_HYGIENE_LIMITS.maxStringLength, {
    section: 'limits',
    description: 'Longest string in a JSON body, path or query (attachment content excepted; more: 422).',
  }),
  MAX_JSON_DEPTH: integer('MAX_JSON_DEPTH', DEFAULT_HYGIENE_LIMITS.maxDepth, {
    section: 'limits',
    description: 'Deepest nesting of a JSON body (more: 422).',
  }),
  LIST_MAX_LINES: integer('LIST_MAX_LINES', 10_000, {
    section: 'limits',
    description: 'Lines one list page carries in all; documents past it are listed without their lines.',
  }),
  IDEMPOTENCY_KEY_TTL_HOURS: integer('IDEMPOTENCY_KEY_TTL_HOURS', 24, {
    section: 'limits',
    description: 'How long the first result of an `Idempotency-Key` is kept.',
  }),
  XML_MAX_BYTES: integer(XML_LIMIT_SETTINGS.maxBytes, DEFAULT_XML_LIMITS.maxBytes, {
    section: 'limits',
    description: 'Largest XML document, in UTF-8 bytes (more: 413).',
  }),
  XML_MAX_ELEMENTS: integer(XML_LIMIT_SETTINGS.maxElements, DEFAULT_XML_LIMITS.maxElements, {
    section: 'limits',
    description: 'Elements in one XML document (a 28,000-line invoice has 364,000; more: 422).',
  }),
  XML_MAX_DEPTH: integer(XML_LIMIT_SETTINGS.maxDepth, DEFAULT_XML_LIMITS.maxDepth, {
    section: 'limits',
    description: 'Nesting of one XML document (UBL uses about 10; more: 422).',
  }),
  XML_MAX_ATTRIBUTES: integer(XML_LIMIT_SETTINGS.maxAttributesPerElement, DEFAULT_XML_LIMITS.maxAttributesPerElement, {
    section: 'limits',
    description: 'Attributes of one XML element, namespace declarations included (more: 422).',
  }),
  XML_MAX_TEXT_LENGTH: integer(XML_LIMIT_SETTINGS.maxTextLength, DEFAULT_XML_LIMITS.maxTextLength, {
    section: 'limits',
    description: 'Characters of one XML text or attribute value (libxml2’s own cap; more: 422).',
  }),
  PDF_READ_MAX_PAGES: integer('PDF_READ_MAX_PAGES', DEFAULT_PDF_READER_LIMITS.maxPages, {
    section: 'limits',
    description: 'Pages whose text an uploaded PDF is read from (the rest are not read).',
  }),
  PDF_READ_MAX_DECODED_BYTES: integer('PDF_READ_MAX_DECODED_BYTES', DEFAULT_PDF_READER_LIMITS.maxDecodedBytes, {
    section: 'limits',
    description: 'Bytes all the compressed streams of one uploaded PDF may expand to (more: 413).',
  }),
  PDF_READ_MAX_EMBEDDED_BYTES: integer('PDF_READ_MAX_EMBEDDED_BYTES', DEFAULT_PDF_READER_LIMITS.maxEmbeddedBytes, {
    section: 'limits',
    description: 'Largest embedded file read from an uploaded PDF (larger ones are skipped).',
  }),
  PDF_READ_MAX_IMAGE_PIXELS: integer('PDF_READ_MAX_IMAGE_PIXELS', DEFAULT_PDF_READER_LIMITS.maxImagePixels, {
    section: 'limits',
    description: 'Largest image (width × height) the PDF reader would decode (text extraction decodes none).',
  }),
  PDF_READ_HEAP_MB: integer('PDF_READ_HEAP_MB', DEFAULT_PDF_READER_LIMITS.maxHeapMb, {
    section: 'limits',
    description: 'Heap of the PDF reader’s worker thread (a file needing more: 413).',
  }),
  PDF_READ_TIMEOUT_MS: integer('PDF_READ_TIMEOUT_MS', DEFAULT_PDF_READER_LIMITS.timeoutMs, {
    section: 'limits',
    description: 'Time one uploaded PDF may take to read (longer: 422; the reader’s worker is replaced).',
  }),

  // Work off the event loop
  WORK_PROCESSES: integer('WORK_PROCESSES', 0, {
    section: 'work',
    defaultText: 'the cores, at least 2',
    description:
      'Worker processes for CPU-heavy document work (checking, writing, rendering documents); `0`: the default.',
  }),
  WORK_TASK_TIMEOUT_MS: integer('WORK_TASK_TIMEOUT_MS', 20_000, {
    section: 'work',
    description:
      'CPU time one task (checking, writing, rendering a document) may take; longer: 422 and its process is replaced.',
  }),
  WORK_HEAP_MB: integer('WORK_HEAP_MB', 384, {
    section: 'work',
    description: 'V8 heap of each worker process; a task needing more: 422.',
  }),
  WORK_MAX_WAITING_PER_TENANT: integer('WORK_MAX_WAITING_PER_TENANT', 16, {
    section: 'work',
    description: 'Heavy tasks one tenant may have waiting; more: 429.',
  }),

  // Delivery, mail, webhooks, jobs
  SMTP_URL: optionalText('SMTP_URL', {
    section: 'delivery',
    defaultText: 'unset (`.eml` files under `DATA_DIR/mail`)',
    description: 'SMTP server for test-mode mail (`smtp://user:pass@host:587`).',
  }),
  MAIL_FROM: text('MAIL_FROM', 'E-invoicing test mode <no-reply@localhost>', {
    section: 'delivery',
    description: 'From address of test-mode mail.',
  }),
  DELIVERY_CONCURRENCY: integer('DELIVERY_CONCURRENCY', 20, {
    section: 'delivery',
    description: 'Deliveries one process runs at once.',
  }),
  DELIVERY_RETRY_UNIT_MS: integer('DELIVERY_RETRY_UNIT_MS', 60_000, {
    section: 'delivery',
    description:
      'The retry schedule’s unit: retries wait 1, 2, 4 … 256 units, then 360 (tests and demos of faults shorten it).',
  }),
  WEBHOOK_CONCURRENCY: integer('WEBHOOK_CONCURRENCY', 20, {
    section: 'delivery',
    description: 'Webhook calls one process runs at once.',
  }),
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: flag('WEBHOOK_ALLOW_PRIVATE_NETWORKS', {
    section: 'delivery',
    description: 'Let webhooks call loopback and private-network addresses (off: no SSRF into your network).',
  }),
  JOB_LOCK_LIFETIME_MS: integer('JOB_LOCK_LIFETIME_MS', 60_000, {
    section: 'delivery',
    description:
      'How long a claimed job stays locked: after a crash, another (or the restarted) process takes its jobs over after this.',
  }),

  // Peppol
  PUBLIC_URL: url('PUBLIC_URL', {
    section: 'peppol',
    defaultText: 'from each request’s Host',
    description:
      'Public base URL of this service: SMP hrefs, the default AS4 endpoint and technical contact. Set it behind a proxy.',
  }),
  SMP_SIGNING_KEY_FILE: optionalText('SMP_SIGNING_KEY_FILE', {
    section: 'peppol',
    defaultText: 'unset (unsigned)',
    description: 'PEM key the SMP signs ServiceMetadata with (set with `SMP_SIGNING_CERTIFICATE_FILE`).',
  }),
  SMP_SIGNING_CERTIFICATE_FILE: optionalText('SMP_SIGNING_CERTIFICATE_FILE', {
    section: 'peppol',
    defaultText: 'unset (unsigned)',
    description: 'PEM certificate of that key (the Peppol SMP certificate).',
  }),
  SMP_TECHNICAL_CONTACT_URL: optionalText('SMP_TECHNICAL_CONTACT_URL', {
    section: 'peppol',
    defaultText: '`PUBLIC_URL`',
    description: '`TechnicalContactUrl` of the published endpoint.',
  }),
  SML_DNS_ZONE: text('SML_DNS_ZONE', PEPPOL_PRODUCTION_SML_ZONE, {
    section: 'peppol',
    description:
      'SML zone of lookups (the Peppol test network: `participant.sml.test.tech.peppol.org`; the production one is the default).',
  }),
  SML_DNS_SERVER: optionalText('SML_DNS_SERVER', {
    section: 'peppol',
    defaultText: 'the system’s resolvers',
    description: 'DNS server `host:port` for SML queries.',
  }),
  SML_CNAME_FALLBACK: flag('SML_CNAME_FALLBACK', {
    section: 'peppol',
    description: 'When sending, look a participant up in the SML’s older CNAME form when it has no U-NAPTR record.',
  }),
  PEPPOL_LOOKUP_TIMEOUT_MS: integer('PEPPOL_LOOKUP_TIMEOUT_MS', 5000, {
    section: 'peppol',
    min: 1,
    description: 'Limit of each DNS query and HTTP request of a lookup.',
  }),
  PEPPOL_TRUSTED_CA_FILES: list('PEPPOL_TRUSTED_CA_FILES', {
    section: 'peppol',
    defaultText: 'unset (issuers not checked)',
    description:
      'Comma-separated CA certificates (PEM or DER) that SMP signers and endpoint certificates must come from: the Peppol SMP and AP CAs.',
  }),
  PEPPOL_DIRECTORY_URL: url('PEPPOL_DIRECTORY_URL', {
    section: 'peppol',
    defaultText: 'unset (local search only)',
    description: 'Peppol Directory base URL for participant search, e.g. `https://directory.peppol.eu`.',
  }),
  SML_URL: url('SML_URL', {
    section: 'peppol',
    defaultText: 'unset (registrations not published to the SML)',
    description: 'SML ManageBusinessIdentifierService URL; set with `SML_SMP_ID`.',
  }),
  SML_SMP_ID: optionalText('SML_SMP_ID', {
    section: 'peppol',
    description: 'This SMP’s id at the SML.',
  }),
  SML_CLIENT_CERTIFICATE_FILE: optionalText('SML_CLIENT_CERTIFICATE_FILE', {
    section: 'peppol',
    description: 'PEM TLS client certificate for the SML.',
  }),
  SML_CLIENT_KEY_FILE: optionalText('SML_CLIENT_KEY_FILE', {
    section: 'peppol',
    description: 'PEM key of that certificate.',
  }),

  // AS4
  AS4_KEY_FILE: optionalText('AS4_KEY_FILE', {
    section: 'as4',
    defaultText: 'unset (AS4 off)',
    description:
      'This access point’s private key (PEM file). Without a key (this or `AS4_KEY_PEM`) the service neither sends nor receives over AS4.',
  }),
  AS4_KEY_PEM: optionalText('AS4_KEY_PEM', {
    section: 'as4',
    description: 'The same key as PEM text, instead of a file.',
  }),
  AS4_CERTIFICATE_FILE: optionalText('AS4_CERTIFICATE_FILE', {
    section: 'as4',
    defaultText: 'unset (empty `Certificate` in the SMP)',
    description:
      'Its certificate (PEM or DER file): published in ServiceMetadata, signs messages and receipts. Its subject CN is the Peppol seat id (`P` + two letters + six digits).',
  }),
  AS4_CERTIFICATE_PEM: optionalText('AS4_CERTIFICATE_PEM', {
    section: 'as4',
    description: 'The same certificate as PEM text, instead of a file.',
  }),
  AS4_ENDPOINT_URL: url('AS4_ENDPOINT_URL', {
    section: 'as4',
    defaultText: '`PUBLIC_URL/as4`',
    description: 'The AS4 endpoint published in ServiceMetadata.',
  }),
  PEPPOL_AP_CA_FILES: list('PEPPOL_AP_CA_FILES', {
    section: 'as4',
    defaultText: 'unset (no AP trusted)',
    description:
      'Comma-separated AP CA certificates (PEM or DER): other access points’ certificates must be issued by one.',
  }),
  AS4_CRL_FILES: list('AS4_CRL_FILES', {
    section: 'as4',
    defaultText: 'unset (no revocation check)',
    description: 'Comma-separated CRLs of those CAs (PEM or DER), verified at start.',
  }),
  AS4_OCSP: flag(
    'AS4_OCSP',
    {
      section: 'as4',
      description:
        'Check other access points’ certificates that name an OCSP responder by OCSP, on receipt (the signer) and before sending (the receiver’s SMP certificate); see [certificate revocation](certificate-revocation.md).',
    },
    true,
  ),
  AS4_OCSP_FAILURE_POLICY: choice('AS4_OCSP_FAILURE_POLICY', OCSP_FAILURE_POLICIES, 'crl', {
    section: 'as4',
    description:
      'When OCSP gives no status (responder down, unknown, stale or invalid answer): `crl` lets the operator’s CRL of that CA decide (refused for now without one), `accept` accepts with a warning, `refuse` refuses for now (a temporary refusal: senders retry).',
  }),
  AS4_OCSP_TIMEOUT_MS: integer('AS4_OCSP_TIMEOUT_MS', 5000, {
    section: 'as4',
    min: 1,
    description: 'Limit of one OCSP request, answer included.',
  }),
  AS4_OCSP_CACHE_MAX_SECONDS: integer('AS4_OCSP_CACHE_MAX_SECONDS', 3600, {
    section: 'as4',
    min: 1,
    description: 'Longest an OCSP answer is kept (never past its `nextUpdate`).',
  }),
  AS4_OCSP_NONCE: flag('AS4_OCSP_NONCE', {
    section: 'as4',
    description:
      'Send a nonce in OCSP requests and require it back (many CA responders serve pre-signed answers without one).',
  }),
  PEPPOL_SPID: optionalText('PEPPOL_SPID', {
    section: 'as4',
    defaultText: '`0242:` and the six digits of the AS4 certificate’s seat id',
    description:
      'This service provider’s SPIS participant id (`0242:<SPID>`): where other providers send MLS (our SBDH’s `MLS_TO`), the sender of our MLS and Peppol reports.',
  }),
  PEPPOL_SP_COUNTRY: optionalText('PEPPOL_SP_COUNTRY', {
    section: 'as4',
    defaultText: 'the AS4 certificate’s subject `C`',
    description: '`COUNTRY_C1` of the messages sent as the provider (MLS, reports): an ISO 3166-1 alpha-2 code.',
  }),
  MLS_TYPE: choice('MLS_TYPE', ['ALWAYS_SEND', 'FAILURE_ONLY'] as const, 'ALWAYS_SEND', {
    section: 'as4',
    description: 'The `MLS_TYPE` our SBDH asks of receiving providers; see [MLS](mls.md).',
  }),
  MLS_SEND: flag(
    'MLS_SEND',
    {
      section: 'as4',
      description:
        'As the receiving provider, send the MLS senders ask for (`false`: send none; Peppol requires them).',
    },
    true,
  ),
  PEPPOL_REPORTING_RECEIVER: text('PEPPOL_REPORTING_RECEIVER', OPENPEPPOL_REPORTING_RECEIVER, {
    section: 'as4',
    description:
      'Who the monthly Peppol reports (TSR, EUSR) are sent to (OpenPeppol by default); see [Peppol Reporting](peppol-reporting.md).',
  }),
  PEPPOL_REPORTING_SUBMIT: flag(
    'PEPPOL_REPORTING_SUBMIT',
    {
      section: 'as4',
      description: 'Send the monthly Peppol reports over AS4 (`false`: prepare and keep them, send nothing).',
    },
    true,
  ),
  AS4_ALLOW_PLAIN_HTTP_LOOPBACK: flag('AS4_ALLOW_PLAIN_HTTP_LOOPBACK', {
    section: 'as4',
    description: 'Allow `http://` AS4 endpoints on loopback addresses (tests, demos). Peppol requires HTTPS.',
  }),
  AS4_MAX_MESSAGE_BYTES: integer('AS4_MAX_MESSAGE_BYTES', 64 * 1024 * 1024, {
    section: 'as4',
    min: 1,
    description: 'Largest AS4 request `POST /as4` reads (larger: EBMS:0010, not read further).',
  }),
  AS4_SEND_TIMEOUT_MS: integer('AS4_SEND_TIMEOUT_MS', 60_000, {
    section: 'as4',
    min: 1,
    description: 'Limit of one AS4 POST to another access point, answer included.',
  }),

  // Tamper-evident history (docs/internals/proving-history.md)
  HISTORY_CHECKPOINT_INTERVAL_S: integer('HISTORY_CHECKPOINT_INTERVAL_S', 600, {
    section: 'history',
    description:
      'A signed checkpoint of the hash chain is written when the last one is this many seconds old and events were chained since; `0`: on demand only.',
  }),
  HISTORY_CHECKPOINT_EVERY_EVENTS: integer('HISTORY_CHECKPOINT_EVERY_EVENTS', 10_000, {
    section: 'history',
    description:
      'A checkpoint as soon as this many events were chained since the last one (it bounds the proof linking an event to a checkpoint); `0`: no such bound.',
  }),
  HISTORY_SIGNING_KEY_FILE: optionalText('HISTORY_SIGNING_KEY_FILE', {
    section: 'history',
    defaultText: 'the AS4 key, else one generated in `DATA_DIR`',
    description:
      "PEM private key (RSA, EC or Ed25519) checkpoints are signed with. Unset: the access point's AS4 key, else a P-256 key generated on the first start in `DATA_DIR/history-signing-key.pem`.",
  }),
  HISTORY_SIGNING_CERTIFICATE_FILE: optionalText('HISTORY_SIGNING_CERTIFICATE_FILE', {
    section: 'history',
    description: 'The certificate of `HISTORY_SIGNING_KEY_FILE`, carried by each checkpoint.',
  }),
  HISTORY_CHECKPOINT_FILE: optionalText('HISTORY_CHECKPOINT_FILE', {
    section: 'history',
    description:
      "Each checkpoint is also appended to this file, one JSON line: a copy to keep where the database's administrators cannot write.",
  }),
  HISTORY_CHAIN_PACE_MS: integer('HISTORY_CHAIN_PACE_MS', 250, {
    section: 'history',
    description:
      'The chainer reads what was appended and writes its links this often (at most, under load): it bounds how long an event stays unchained (about twice this).',
  }),
  HISTORY_VERIFY_WORKERS: integer('HISTORY_VERIFY_WORKERS', 0, {
    section: 'history',
    defaultText: 'the cores, at most 4',
    description: 'Worker threads a verification of a long chain walks it with; `0`: the default.',
  }),

  // Tests only
  FAILPOINTS: list('FAILPOINTS', {
    section: 'testing',
    description:
      'Comma-separated crash points (`send:after-request`, `delivery:after-transport`, `webhook:after-call`, `as4:after-store`): the process kills itself (SIGKILL) the first time it passes one. For the crash tests; never set it in production.',
  }),

  // Set by the service
  INVOICING_WORKER_XML_LIMITS: optionalText('INVOICING_WORKER_XML_LIMITS', {
    section: 'internal',
    description:
      'The XML limits a worker process runs with, as JSON: set by the service for the worker processes it starts, from the `XML_MAX_*` settings. Not a setting.',
  }),
} as const satisfies Record<string, Setting<unknown>>;

export type SettingName = keyof typeof SETTINGS;

/** The declarations in the reference's order. */
export const ALL_SETTINGS: readonly Setting<unknown>[] = Object.values(SETTINGS);
