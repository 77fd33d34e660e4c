import type { Request, Response } from 'express';
import type { EventMetadata, IdempotencyMark } from '../application/ports/eventStore.js';
import type { Principal } from '../application/accounts/authenticate.js';
import type { Actor } from '../application/actor.js';

/**
 * Metadata recorded on every event a request causes: who, for whom, and which request (with its
 * Idempotency-Key, when it has one: idempotency.ts claimed it).
 */
export function commandMetadata(req: Request, res: Response): EventMetadata {
  const principal = res.locals.principal as Principal | undefined;
  const idempotency = res.locals.idempotency as IdempotencyMark | undefined;
  const requestId = String(req.id ?? '');
  return {
    // Set by authentication (auth.ts); routes without a key record no event of their own.
    actor: (res.locals.actor as Actor | undefined) ?? { kind: 'unknown' },
    requestId,
    correlationId: requestId,
    ...(principal ? { organizationId: principal.organizationId } : {}),
    ...(principal?.kind === 'tenant' ? { tenantId: principal.tenantId } : {}),
    ...(idempotency ? { idempotency } : {}),
  };
}
