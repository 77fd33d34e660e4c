import express, { type ErrorRequestHandler, type Express } from 'express';
import { pinoHttp } from 'pino-http';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Authenticator } from '../application/accounts/authenticate.js';
import type { HealthProbe } from '../application/ports/healthProbe.js';
import type { ReadModelProgress } from '../application/ports/projection.js';
import type { RateLimitStore } from '../application/ports/rateLimitStore.js';
import type { AccountCommands } from '../application/accounts/accountCommands.js';
import type { AccountQueries } from '../application/accounts/accountQueries.js';
import { authMiddleware } from './auth.js';
import { errorMiddleware, notFoundRoute } from './errors.js';
import { RouteRegistry } from './routeRegistry.js';
import { inputHygiene, type HygieneLimits } from './inputHygiene.js';
import { idempotency } from './idempotency.js';
import { documentBodyParser } from './documentBody.js';
import type { IdempotencyStore } from '../application/ports/idempotencyStore.js';
import { healthRoutes } from './routes/health/healthRoutes.js';
import { operatorRoutes } from './routes/accounts/operatorRoutes.js';
import { adminRoutes } from './routes/accounts/adminRoutes.js';
import { meRoutes } from './routes/accounts/meRoutes.js';
import { documentRoutes } from './routes/documents/documentRoutes.js';
import { validateRoutes } from './routes/documents/validateRoutes.js';
import { listRoutes } from './routes/outbox/outboxRoutes.js';
import { documentErrorToHttp, XML_TYPES } from './routes/documents/documentErrors.js';
import { peppolErrorToHttp } from './routes/peppol/peppolErrors.js';
import type { DocumentCommands } from '../application/documents/documentCommands.js';
import type { DocumentQueries } from '../application/documents/documentQueries.js';
import type { DocumentHistory } from '../application/documents/documentHistory.js';
import type { SendDocument } from '../application/delivery/sendDocument.js';
import type { InboxCommands } from '../application/inbox/inboxCommands.js';
import { sendingRoutes } from './routes/documents/sendingRoutes.js';
import { inboxRoutes } from './routes/inbox/inboxRoutes.js';
import { webhookRoutes } from './routes/webhooks/webhookRoutes.js';
import type { WebhookCommands } from '../application/webhooks/webhookCommands.js';
import type { PeppolRegistrations } from '../application/peppol/peppolRegistration.js';
import type { SmpPublication } from '../application/peppol/smpPublication.js';
import type { ParticipantLookup } from '../application/peppol/participantLookup.js';
import type { ParticipantSearch } from '../application/peppol/participantSearch.js';
import { createRateLimitGates, type RateLimits } from './rateLimit.js';
import { peppolAdminRoutes } from './routes/peppol/peppolAdminRoutes.js';
import { lookupRoutes } from './routes/peppol/lookupRoutes.js';
import { smpRoutes } from './routes/peppol/smpRoutes.js';
import type { DocumentPdfs } from '../application/documents/documentPdfs.js';
import { documentPdfRoutes } from './routes/documents/pdfRoutes.js';

/** What the HTTP interface talks to: application handlers, queries and ports, and its own limits. */
export interface HttpDependencies {
  logger: Logger;
  health: HealthProbe;
  authenticator: Authenticator;
  accounts: AccountCommands;
  accountQueries: AccountQueries;
  documents: DocumentCommands;
  documentQueries: DocumentQueries;
  documentHistory: DocumentHistory;
  sending: SendDocument;
  inbox: InboxCommands;
  webhooks: WebhookCommands;
  peppol: { registrations: PeppolRegistrations; smp: SmpPublication; lookup: ParticipantLookup; search: ParticipantSearch };
  documentPdfs: DocumentPdfs;
  /** Lists (and single reads of the read models) wait for it: a client sees what it just wrote. */
  readModels: ReadModelProgress;
  rateLimitStore: RateLimitStore;
  rateLimits: RateLimits;
  jsonBodyLimit: number;
  /** Largest JSON body of a route that takes no document. */
  jsonOtherBodyLimit: number;
  uploadBodyLimit: number;
  hygiene: HygieneLimits;
  idempotencyStore: IdempotencyStore;
  version: string;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/;
/** How long a read waits for the read models to include earlier writes before it answers with what is there. */
const READ_YOUR_WRITES_MS = 2000;

export function createApp(deps: HttpDependencies): { app: Express; routes: RouteRegistry } {
  const readYourWrites = async () => {
    await deps.readModels.catchUp(READ_YOUR_WRITES_MS);
  };
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.use(
    pinoHttp({
      logger: deps.logger,
      // A caller's request id is kept (for correlating logs across systems) when it is sane.
      genReqId: (req, res) => {
        const given = req.headers['x-request-id'];
        const id = typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
        res.setHeader('X-Request-Id', id);
        return id;
      },
      customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : 'info'),
      redact: ['req.headers.authorization'],
    }),
  );
  // XML bodies stay bytes: their encoding is the document's to say (BOM, declaration), and
  // decodeXmlBytes refuses invalid sequences where a text parser would put U+FFFD.
  app.use(express.raw({ type: (req) => XML_TYPES.test(req.headers['content-type'] ?? ''), limit: deps.uploadBodyLimit }));

  const routes = new RouteRegistry(
    authMiddleware(deps.authenticator),
    // JSON bodies are parsed per route, after authentication: a document may be large, anything
    // else is small, and a stranger without a key gets nothing parsed.
    {
      documents: documentBodyParser(deps.jsonBodyLimit),
      other: express.json({ limit: deps.jsonOtherBodyLimit, strict: true }),
    },
    inputHygiene(deps.hygiene),
    idempotency(deps.idempotencyStore, deps.uploadBodyLimit),
  );
  routes.useRateLimits(createRateLimitGates(deps.rateLimitStore, deps.rateLimits));
  healthRoutes(routes, deps.health);
  operatorRoutes(routes, deps.accounts);
  adminRoutes(routes, deps.accounts, deps.accountQueries, readYourWrites, (organizationId, tenantId, metadata) =>
    deps.peppol.registrations.unregisterIfRegistered(organizationId, tenantId, metadata),
  );
  peppolAdminRoutes(routes, deps.peppol.registrations);
  lookupRoutes(routes, deps.peppol.lookup, deps.peppol.search, readYourWrites, deps.version);
  // The SMP's participant routes match only `iso6523-actorid-upis::…` segments, so they shadow nothing.
  smpRoutes(routes, deps.peppol.smp);
  meRoutes(routes);
  documentRoutes(routes, deps.documents, deps.documentQueries, readYourWrites, deps.uploadBodyLimit);
  documentPdfRoutes(routes, deps.documents, deps.documentPdfs, deps.uploadBodyLimit);
  validateRoutes(routes, deps.documents, deps.uploadBodyLimit);
  listRoutes(routes, deps.documentQueries, readYourWrites);
  sendingRoutes(routes, deps.sending, deps.documentHistory);
  inboxRoutes(routes, deps.inbox);
  webhookRoutes(routes, deps.webhooks, readYourWrites);
  routes.add({
    method: 'get',
    path: '/api/openapi.json',
    summary: 'This OpenAPI 3.1 description (public: it holds no account data)',
    tag: 'meta',
    auth: 'none',
    handler: (_req, res) => res.json(openApi),
  });
  const openApi = routes.openApi({ title: 'Invoicing service', version: deps.version });

  app.use(routes.router);
  app.use(notFoundRoute);
  // Errors of the application layer that have an HTTP meaning, for every route that may meet
  // them (a tenant's deletion unregisters it from Peppol too, for instance).
  app.use(((error, _req, _res, next) => next(peppolErrorToHttp(documentErrorToHttp(error)))) as ErrorRequestHandler);
  app.use(errorMiddleware);
  return { app, routes };
}
