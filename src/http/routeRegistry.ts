import { Router, type Request, type RequestHandler, type Response } from 'express';
import type * as t from 'io-ts';
import { assertNever } from '../domain/decider.js';
import { jsonSchemaOf } from './jsonSchema.js';
import type { RateLimitGates } from './rateLimit.js';

/** `any`: a valid key of any kind (a tenant's, an organization's or the operator's), e.g. to ask which it is. */
export type AuthKind = 'none' | 'tenant' | 'organization' | 'operator' | 'any';
export type Method = 'get' | 'post' | 'put' | 'delete';

/** Sends the route's JSON answer, typed by its codec (`answer`), with the route's success status unless told otherwise. */
export type Answer<A extends t.Any> = (value: t.TypeOf<A>, status?: number) => void;

export interface RouteDefinition<A extends t.Any = t.Any> {
  method: Method;
  /** Express path, e.g. /api/admin/tenants/:tenantId */
  path: string;
  summary: string;
  tag: string;
  auth: AuthKind;
  body?: t.Any;
  /** The body may be left out (the route then reads it as `{}`). */
  bodyOptional?: boolean;
  query?: t.Any;
  /**
   * The body is a file (uploads.ts): the multipart field "file", or, for the media types listed,
   * the bytes as the body. Documented as such; JSON bodies are documented from `body`.
   */
  upload?: { rawTypes?: string[] };
  /** Status → description of the successful answer. */
  responses?: Record<number, string>;
  /**
   * The JSON shape of the successful answer, for the OpenAPI document (src/http/codecs/): the
   * handler answers through the `answer` it is given, typed by this codec, so the two cannot drift
   * apart. Every route has this or `media` (test/http/answerShapes.test.ts).
   */
  answer?: A;
  /** Answers in other media types (PDF, XML, HTML, text), by media type: what each is. */
  media?: Record<string, string>;
  /**
   * Narrows a pattern the path syntax cannot express (e.g. a parameter that must start with a
   * scheme): a request it refuses goes on to the next routes as if this one did not exist.
   */
  match?: (req: Request) => boolean;
  /** Honours an `Idempotency-Key` header (idempotency.ts): creating POSTs. */
  idempotent?: boolean;
  /** Takes a document as its JSON body, up to JSON_BODY_LIMIT; other routes' bodies are small (JSON_OTHER_BODY_LIMIT). */
  documentBody?: boolean;
  /** Reads its own body as bytes (no JSON parser runs): `POST /as4`. */
  rawBody?: boolean;
  handler: (req: Request, res: Response, answer: Answer<A>) => Promise<unknown> | unknown;
}

const passThrough: RequestHandler = (_req, _res, next) => next();

export type AuthMiddleware = (kind: Exclude<AuthKind, 'none'>) => RequestHandler;

/**
 * Registers every route in one place, so that the OpenAPI document lists exactly the routes
 * that exist and each route states its authentication.
 */
export class RouteRegistry {
  readonly router = Router();
  readonly routes: RouteDefinition[] = [];
  private rateLimits: RateLimitGates | null = null;

  constructor(
    private readonly auth: AuthMiddleware,
    private readonly json: { documents: RequestHandler; other: RequestHandler } = {
      documents: passThrough,
      other: passThrough,
    },
    /** Checks every request's path, query and JSON body for text no field may hold (inputHygiene.ts). */
    private readonly hygiene: RequestHandler = passThrough,
    private readonly idempotency: RequestHandler | null = null,
  ) {}

  /**
   * Installs the per-key rate limits (they need the database, which the registry does not know).
   * Bound late, so routes registered before this call are limited too. Installing again replaces.
   */
  useRateLimits(gates: RateLimitGates): void {
    this.rateLimits = gates;
  }

  /**
   * Limits count per key, so they run after authentication. Operator routes and public routes
   * (health, OpenAPI) are never limited: the operator must always be able to act.
   */
  private rateLimitFor(kind: AuthKind): RequestHandler | null {
    switch (kind) {
      case 'tenant':
      case 'organization':
        return (req, res, next) => (this.rateLimits ? this.rateLimits[kind](req, res, next) : next());
      case 'any':
        // Limited as the kind of key presented; the operator's key is never limited.
        return (req, res, next) => {
          const principal = (res.locals.principal as { kind?: 'tenant' | 'organization' } | undefined)?.kind;
          return this.rateLimits && principal ? this.rateLimits[principal](req, res, next) : next();
        };
      case 'operator':
      case 'none':
        return null;
      default:
        return assertNever(kind);
    }
  }

  add<A extends t.Any>(route: RouteDefinition<A>): void {
    this.routes.push(route as unknown as RouteDefinition);
    const handlers: RequestHandler[] = [];
    const match = route.match;
    if (match) handlers.push((req, _res, next) => (match(req) ? next() : next('route')));
    if (route.auth !== 'none') handlers.push(this.auth(route.auth));
    const limit = this.rateLimitFor(route.auth);
    if (limit) handlers.push(limit);
    if (!route.rawBody) handlers.push(route.documentBody ? this.json.documents : this.json.other);
    handlers.push(this.hygiene);
    if (route.idempotent && this.idempotency) handlers.push(this.idempotency);
    const status = successStatus(route);
    handlers.push(async (req, res) => {
      await route.handler(req, res, (value, answerStatus) => void res.status(answerStatus ?? status).json(value));
    });
    this.router[route.method](route.path, ...handlers);
  }

  openApi(info: { title: string; version: string }): Record<string, unknown> {
    const paths: Record<string, Record<string, object>> = {};
    for (const route of this.routes) {
      const openApiPath = route.path.replace(/:([A-Za-z_]+)/g, '{$1}');
      const pathParams = [...route.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => ({
        name: m[1],
        in: 'path',
        required: true,
        schema: { type: 'string' },
      }));
      const querySchema = route.query ? jsonSchemaOf(route.query) : null;
      const queryParams = querySchema
        ? Object.entries((querySchema.properties as Record<string, object>) ?? {}).map(([name, schema]) => ({
            name,
            in: 'query',
            required: ((querySchema.required as string[]) ?? []).includes(name),
            schema,
          }))
        : [];
      const responses: Record<string, object> = {};
      const success = String(successStatus(route));
      for (const [status, description] of Object.entries({ [success]: 'OK', ...route.responses })) {
        const content = {
          ...(route.answer ? { 'application/json': { schema: jsonSchemaOf(route.answer) } } : {}),
          ...Object.fromEntries(
            Object.entries(route.media ?? {}).map(([type, what]) => [
              type,
              { schema: { type: 'string', description: what } },
            ]),
          ),
        };
        // Every refusal is the spec's error object ({detail}).
        // Every success a route lists answers its one answer codec (e.g. 200 "that one", 201 "a new one").
        const succeeds = Number(status) >= 200 && Number(status) < 300;
        responses[status] =
          succeeds && Object.keys(content).length > 0
            ? { description, content }
            : Number(status) >= 400
              ? { description, content: errorContent }
              : { description };
      }
      if (route.auth !== 'none')
        responses['401'] = { description: 'Missing or invalid credentials', content: errorContent };
      if (this.rateLimitFor(route.auth)) {
        responses['429'] = {
          description: 'Rate limit of the key exceeded; see Retry-After and RateLimit headers',
          content: errorContent,
        };
      }
      if (route.body || route.query) responses['422'] = { description: 'Validation error', content: errorContent };
      (paths[openApiPath] ??= {})[route.method] = {
        summary: route.summary,
        tags: [route.tag],
        operationId: `${route.method}_${openApiPath.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '')}`,
        security: route.auth === 'none' ? [] : security(route.auth),
        parameters: [
          ...pathParams,
          ...queryParams,
          ...(route.idempotent
            ? [
                {
                  name: 'Idempotency-Key',
                  in: 'header',
                  required: false,
                  description: 'Repeats of the request with this key answer its first result (kept 24 hours)',
                  schema: { type: 'string', maxLength: 255 },
                },
              ]
            : []),
        ],
        ...(route.body
          ? {
              requestBody: {
                required: !route.bodyOptional,
                content: { 'application/json': { schema: jsonSchemaOf(route.body) } },
              },
            }
          : route.upload
            ? { requestBody: { required: true, content: uploadContent(route.upload.rawTypes ?? []) } }
            : {}),
        responses,
      };
    }
    return {
      openapi: '3.1.0',
      info,
      paths,
      components: {
        securitySchemes: {
          tenantKey: { type: 'http', scheme: 'bearer', description: 'Tenant API key' },
          organizationKey: { type: 'http', scheme: 'bearer', description: 'Organization (admin) key of a reseller' },
          operatorKey: { type: 'http', scheme: 'bearer', description: 'Operator key of this deployment' },
        },
        schemas: {
          Error: {
            type: 'object',
            properties: {
              detail: {
                anyOf: [
                  { type: 'string' },
                  {
                    type: 'array',
                    items: {
                      type: 'object',
                      properties: {
                        loc: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }] } },
                        msg: { type: 'string' },
                        type: { type: 'string' },
                      },
                    },
                  },
                ],
              },
            },
            required: ['detail'],
          },
        },
      },
    };
  }
}

/** The status of a successful answer: the first 2xx the route lists, else 200. */
function successStatus(route: Pick<RouteDefinition, 'responses'>): number {
  const listed = Object.keys(route.responses ?? {})
    .map(Number)
    .filter((status) => status >= 200 && status < 300);
  return listed.length > 0 ? Math.min(...listed) : 200;
}

const binary = { type: 'string', contentMediaType: 'application/octet-stream' };
function uploadContent(rawTypes: string[]): Record<string, object> {
  return {
    'multipart/form-data': {
      schema: { type: 'object', properties: { file: binary }, required: ['file'] },
    },
    ...Object.fromEntries(rawTypes.map((type) => [type, { schema: binary }])),
  };
}

const errorContent = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };

const SECURITY_SCHEMES = { tenant: 'tenantKey', organization: 'organizationKey', operator: 'operatorKey' } as const;

/** The OpenAPI security requirements of a route: its kind of key, or (for `any`) each kind as an alternative. */
function security(kind: Exclude<AuthKind, 'none'>): Array<Record<string, never[]>> {
  return kind === 'any'
    ? Object.values(SECURITY_SCHEMES).map((scheme) => ({ [scheme]: [] }))
    : [{ [SECURITY_SCHEMES[kind]]: [] }];
}
