import type { Request, Response } from 'express';
import type { EventMetadata, IdempotencyMark } from '../application/ports/eventStore.js';
import type { Principal } from '../application/accounts/authenticate.js';

/**
 * Metadata recorded on every event a request causes: who, for whom, and which request (with its
 * Idempotency-Key, when it has one: idempotency.ts claimed it).
 */
export function commandMetadata(req: Request, res: Response): EventMetadata {
  const principal = res.locals.principal as Principal | undefined;
  const idempotency = res.locals.idempotency as IdempotencyMark | undefined;
  const requestId = String(req.id ?? '');
  return {
    actor: String(res.locals.actor ?? 'anonymous'),
    requestId,
    correlationId: requestId,
    // The key's name as it is now: the history says which key did what by the name it had then.
    ...(principal ? { organizationId: principal.organizationId, actorName: principal.keyName } : {}),
    ...(principal?.kind === 'tenant' ? { tenantId: principal.tenantId } : {}),
    ...(idempotency ? { idempotency } : {}),
  };
}
