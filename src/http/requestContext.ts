import type { Request, Response } from 'express';
import type { EventMetadata } from '../application/ports/eventStore.js';
import type { Principal } from '../application/accounts/authenticate.js';

/** Metadata recorded on every event a request causes: who, for whom, and which request. */
export function commandMetadata(req: Request, res: Response): EventMetadata {
  const principal = res.locals.principal as Principal | undefined;
  const requestId = String(req.id ?? '');
  return {
    actor: String(res.locals.actor ?? 'anonymous'),
    requestId,
    correlationId: requestId,
    // The key's name as it is now: the history says which key did what by the name it had then.
    ...(principal ? { organizationId: principal.organizationId, actorName: principal.keyName } : {}),
    ...(principal?.kind === 'tenant' ? { tenantId: principal.tenantId } : {}),
  };
}
