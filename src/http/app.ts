import express, { type ErrorRequestHandler, type Express } from 'express';
import { pinoHttp } from 'pino-http';
import { randomUUID } from 'node:crypto';
import { authMiddleware } from './auth.js';
import { errorMiddleware, notFoundRoute } from './errors.js';
import { RouteRegistry } from './routeRegistry.js';
import { inputHygiene } from './inputHygiene.js';
import { idempotency } from './idempotency.js';
import { documentBodyParser } from './documentBody.js';
import { createRateLimitGates } from './rateLimit.js';
import type { HttpDependencies } from './dependencies.js';
import { registerRoutes } from './routes/index.js';
import { documentErrorToHttp, XML_TYPES } from './routes/documents/documentErrors.js';
import { peppolErrorToHttp } from './routes/peppol/peppolErrors.js';
import { isAs4Path } from './routes/peppol/as4Routes.js';
import { consoleApp } from './console/consoleApp.js';
import * as t from 'io-ts';

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
  // Requests by route pattern (never the raw path: ids would make a series each); unmatched ones as one.
  app.use((req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const pattern = (req.route as { path?: unknown } | undefined)?.path;
      const route = typeof pattern === 'string' ? `${req.baseUrl}${pattern}` : 'unmatched';
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      deps.operations.metrics.requestServed(req.method, route, res.statusCode, seconds);
    });
    next();
  });
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
      // The line a person reads; the JSON record keeps req and res in full.
      customSuccessMessage: (req, res, ms) => `${req.method} ${urlOf(req)} ${res.statusCode} ${Math.round(ms)} ms`,
      customErrorMessage: (req, res, error) => `${req.method} ${urlOf(req)} ${res.statusCode} failed: ${error.message}`,
      redact: ['req.headers.authorization'],
    }),
  );
  // XML bodies stay bytes: their encoding is the document's to say (BOM, declaration), and
  // decodeXmlBytes refuses invalid sequences where a text parser would put U+FFFD.
  app.use(
    express.raw({
      // `POST /as4` reads its own body: a SOAP message, answered with an ebMS error when too large.
      type: (req) => !isAs4Path(req.url) && XML_TYPES.test(req.headers['content-type'] ?? ''),
      limit: deps.uploadBodyLimit,
    }),
  );

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
  registerRoutes(routes, deps, readYourWrites);
  routes.add({
    method: 'get',
    path: '/api/openapi.json',
    summary: 'This OpenAPI 3.1 description (public: it holds no account data)',
    tag: 'meta',
    auth: 'none',
    answer: t.UnknownRecord,
    handler: (_req, _res, answer) => answer(openApi),
  });
  const openApi = routes.openApi({ title: 'Invoicing service', version: deps.version });

  // The web console (static files; it calls the API above like any client).
  app.use(consoleApp());
  app.use(routes.router);
  app.use(notFoundRoute);
  // Errors of the application layer that have an HTTP meaning, for every route that may meet
  // them (a tenant's deletion unregisters it from Peppol too, for instance).
  app.use(((error, _req, _res, next) => next(peppolErrorToHttp(documentErrorToHttp(error)))) as ErrorRequestHandler);
  app.use(errorMiddleware);
  return { app, routes };
}

/** The path as the client sent it (express strips a router's mount point from req.url). */
const urlOf = (req: { url?: string; originalUrl?: string }): string => req.originalUrl ?? req.url ?? '';
