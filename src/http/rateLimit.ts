import type { Request, RequestHandler, Response } from 'express';
import { rateLimit, type RateLimitInfo, type Store } from 'express-rate-limit';
import type { Principal } from '../application/accounts/authenticate.js';
import type { RateLimitCounter, RateLimitStore } from '../application/ports/rateLimitStore.js';
import { assertNever } from '../domain/decider.js';
import { HttpError } from './errors.js';

/** Requests allowed per key; 0 means no limit (e.g. a development host under load tests). */
export interface RateLimits {
  standardPerMinute: number;
  premiumPerMinute: number;
  adminPerMinute: number;
  adminPerHour: number;
}

/** The limiters of the two kinds of limited callers; they run after authentication. */
export interface RateLimitGates {
  tenant: RequestHandler;
  organization: RequestHandler;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

function principalOf(res: Response): Principal {
  const principal = res.locals.principal as Principal | undefined;
  if (!principal) throw new HttpError(500, 'Rate limit runs before authentication');
  return principal;
}

function tenantLimit(limits: RateLimits, res: Response): number {
  const principal = principalOf(res);
  if (principal.kind !== 'tenant') throw new HttpError(500, 'Tenant rate limit on a non-tenant route');
  // The tier comes from the tenant's event stream, read by authentication on this very request,
  // so an operator's tier change applies to the next request in every process.
  const tier = principal.tenant.rate_tier;
  switch (tier) {
    case 'standard':
      return limits.standardPerMinute;
    case 'premium':
      return limits.premiumPerMinute;
    default:
      return assertNever(tier);
  }
}

/** express-rate-limit's store interface over one of the deployment's shared counters. */
function storeOf(counter: RateLimitCounter, name: string): Store {
  return {
    // Counters are shared between processes: the double-count check must not treat them as local.
    localKeys: false,
    prefix: `${name}:`,
    increment: (key) => counter.increment(key),
    get: (key) => counter.get(key),
    decrement: (key) => counter.decrement(key),
    resetKey: (key) => counter.resetKey(key),
    resetAll: () => counter.resetAll(),
  };
}

/**
 * One express-rate-limit limiter over the shared counters (RateLimitStore: in PostgreSQL, so the
 * limits hold for a deployment). Counted per API key (its record id, never the secret). Draft-8 `RateLimit` / `RateLimit-Policy` headers are appended,
 * so an organization key's answer carries both its minute and its hour policy; a refusal also
 * carries `Retry-After` and the spec's `{"detail": "..."}` body.
 */
function limiter(
  store: RateLimitStore,
  name: string,
  windowMs: number,
  limitOf: (res: Response) => number,
): RequestHandler {
  const property = `rateLimit_${name.replace(/-/g, '_')}`;
  const per = windowMs === HOUR ? 'hour' : 'minute';
  return rateLimit({
    windowMs,
    limit: (_req: Request, res: Response) => limitOf(res),
    skip: (_req: Request, res: Response) => limitOf(res) === 0,
    keyGenerator: (_req: Request, res: Response) => principalOf(res).keyId,
    store: storeOf(store.counter(name, windowMs), name),
    standardHeaders: 'draft-8',
    legacyHeaders: false,
    identifier: name,
    requestPropertyName: property,
    handler: (req, res, next) => {
      const info = (req as unknown as Record<string, RateLimitInfo>)[property];
      const retryAfter = res.getHeader('Retry-After');
      next(
        new HttpError(
          429,
          `Rate limit exceeded: at most ${info?.limit ?? '?'} requests per ${per} for this API key; retry after ${String(retryAfter)} seconds`,
        ),
      );
    },
  });
}

/** Runs `first`, then `second` only when `first` let the request through. */
function both(first: RequestHandler, second: RequestHandler): RequestHandler {
  return (req, res, next) => {
    void first(req, res, (error?: unknown) => (error === undefined ? second(req, res, next) : next(error)));
  };
}

/**
 * Tenant keys: per minute by the tenant's tier. Organization keys: per minute and per hour.
 * Counters are shared by every process on the database, so the limits hold for a deployment.
 */
export function createRateLimitGates(store: RateLimitStore, limits: RateLimits): RateLimitGates {
  return {
    tenant: limiter(store, 'tenant-minute', MINUTE, (res) => tenantLimit(limits, res)),
    organization: both(
      limiter(store, 'admin-minute', MINUTE, () => limits.adminPerMinute),
      limiter(store, 'admin-hour', HOUR, () => limits.adminPerHour),
    ),
  };
}
