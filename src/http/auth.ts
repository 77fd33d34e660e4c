import type { Request } from 'express';
import { principalActor, type Authenticator, type Principal } from '../application/accounts/authenticate.js';
import { OPERATOR } from '../application/actor.js';
import { HttpError, unauthorized } from './errors.js';
import type { AuthMiddleware } from './routeRegistry.js';

function bearer(req: Request): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1]! : null;
}

/**
 * Tenant routes take tenant keys, administrative routes organization keys, operator routes the
 * operator key, `any` routes each of them. A valid key of the wrong kind is refused like a wrong
 * key: 401.
 */
export function authMiddleware(authenticator: Authenticator): AuthMiddleware {
  return (kind) => async (req, res, next) => {
    const key = bearer(req);
    if (!key)
      throw unauthorized(req.headers.authorization ? 'Invalid authentication credentials' : 'Not authenticated');
    if (kind === 'operator' || (kind === 'any' && authenticator.isOperator(key))) {
      if (!authenticator.isOperator(key)) throw unauthorized();
      res.locals.actor = OPERATOR;
      return next();
    }
    const principal = await authenticator.principal(key);
    if (!principal || (kind !== 'any' && principal.kind !== kind)) throw unauthorized();
    res.locals.principal = principal;
    res.locals.actor = principalActor(principal);
    next();
  };
}

export function tenantOf(res: { locals: Record<string, unknown> }): Extract<Principal, { kind: 'tenant' }> {
  const principal = res.locals.principal as Principal | undefined;
  if (principal?.kind !== 'tenant') throw new HttpError(500, 'Route is missing tenant authentication');
  return principal;
}

/** Who presented the key on an `any` route: the operator, or the principal of an API key. */
export function callerOf(res: { locals: Record<string, unknown> }): Principal | { kind: 'operator' } {
  const principal = res.locals.principal as Principal | undefined;
  if (principal) return principal;
  if ((res.locals.actor as { kind?: string } | undefined)?.kind === 'operator') return { kind: 'operator' };
  throw new HttpError(500, 'Route is missing authentication');
}

export function organizationOf(res: { locals: Record<string, unknown> }): Extract<Principal, { kind: 'organization' }> {
  const principal = res.locals.principal as Principal | undefined;
  if (principal?.kind !== 'organization') throw new HttpError(500, 'Route is missing organization authentication');
  return principal;
}
