import * as t from 'io-ts';
import type { InboxCommands } from '../../../application/inbox/inboxCommands.js';
import { documentResponse } from '../../../application/readModels/documentView.js';
import { tenantOf } from '../../auth.js';
import { decode, NonEmptyString, Nullable } from '../../codecs.js';
import { commandMetadata } from '../../requestContext.js';
import type { RouteRegistry } from '../../routeRegistry.js';

const AcceptBody = t.partial({ note: Nullable(t.string) });
const RejectBody = t.type({ reason: NonEmptyString });

/** One received document, and the buyer's answer to it (sent back as a Peppol Invoice Response). */
export function inboxRoutes(routes: RouteRegistry, inbox: InboxCommands): void {
  const id = (params: Record<string, unknown>) => String(params.documentId);

  routes.add({
    method: 'get',
    path: '/api/inbox/:documentId',
    summary: 'A received document',
    tag: 'inbox',
    auth: 'tenant',
    responses: { 200: 'The document', 404: 'Not found (or not a received document)' },
    handler: async (req, res) => {
      res.json(await documentResponse(await inbox.get(tenantOf(res).tenantId, id(req.params))));
    },
  });
  routes.add({
    method: 'post',
    path: '/api/inbox/:documentId/accept',
    summary: 'Accept a received document (Invoice Response AP to the sender)',
    tag: 'inbox',
    auth: 'tenant',
    body: AcceptBody,
    responses: { 200: 'The document with its response', 404: 'Not found', 409: 'Already accepted or rejected' },
    handler: async (req, res) => {
      const body = decode(AcceptBody, req.body ?? {}, 'body');
      const record = await inbox.accept(tenantOf(res).tenantId, id(req.params), body.note?.trim() || null, commandMetadata(req, res));
      res.json(await documentResponse(record));
    },
  });
  routes.add({
    method: 'post',
    path: '/api/inbox/:documentId/reject',
    summary: 'Reject a received document with a reason (Invoice Response RE to the sender)',
    tag: 'inbox',
    auth: 'tenant',
    body: RejectBody,
    responses: { 200: 'The document with its response', 404: 'Not found', 409: 'Already accepted or rejected', 422: 'No reason' },
    handler: async (req, res) => {
      const body = decode(RejectBody, req.body ?? {}, 'body');
      const record = await inbox.reject(tenantOf(res).tenantId, id(req.params), body.reason.trim(), commandMetadata(req, res));
      res.json(await documentResponse(record));
    },
  });
}
