import * as t from 'io-ts';
import type { InboxCommands } from '../../../application/inbox/inboxCommands.js';
import type { DocumentQueries } from '../../../application/documents/documentQueries.js';
import { documentResponse, withSendBlock } from '../../../application/readModels/documentView.js';
import { tenantOf } from '../../auth.js';
import { AsOfQuery, decode, NonEmptyString, Nullable } from '../../codecs.js';
import type { AsOfReader } from '../../asOf.js';
import type { DocumentHistory } from '../../../application/documents/documentHistory.js';
import { commandMetadata } from '../../requestContext.js';
import type { RouteRegistry } from '../../routeRegistry.js';
import type { DocumentPageRoute } from '../documents/documentPages.js';
import { DocumentAnswer } from '../../codecs/documentAnswers.js';
import { readDocumentHandler } from '../documents/readDocument.js';

const CREDIT_NOTES = ['CREDIT_NOTE', 'SELFBILLING_CREDIT_NOTE'];
const INVOICES = ['INVOICE', 'DEBIT_NOTE', 'SELFBILLING_INVOICE'];
const AcceptBody = t.partial({ note: Nullable(t.string) });
const RejectBody = t.type({ reason: NonEmptyString });

/**
 * The inbox: received documents (all, invoices, credit notes), one received document, and the
 * buyer's answer to it (sent back as a Peppol Invoice Response). The lists come first: their
 * paths would otherwise be taken for a document id.
 */
export function inboxRoutes(
  routes: RouteRegistry,
  page: DocumentPageRoute,
  inbox: InboxCommands,
  queries: DocumentQueries,
  readYourWrites: () => Promise<void>,
  asOf: { history: DocumentHistory; asOf: AsOfReader },
): void {
  const id = (params: Record<string, unknown>) => String(params.documentId);

  page('/api/inbox', 'Received documents', 'inbox', () => ({ direction: 'INBOUND' }));
  page('/api/inbox/invoices', 'Received invoices (and debit notes)', 'inbox', (q) => ({
    direction: 'INBOUND',
    types: q.type ? [q.type].filter((x) => INVOICES.includes(x)) : INVOICES,
  }));
  page('/api/inbox/credit-notes', 'Received credit notes', 'inbox', (q) => ({
    direction: 'INBOUND',
    types: q.type ? [q.type].filter((x) => CREDIT_NOTES.includes(x)) : CREDIT_NOTES,
  }));

  routes.add({
    method: 'get',
    path: '/api/inbox/:documentId',
    summary: 'A received document (as_of: as it was at that moment)',
    tag: 'inbox',
    auth: 'tenant',
    query: AsOfQuery,
    responses: {
      200: 'The document',
      404: 'Not found (or not a received document; with as_of: not received by then)',
      422: 'A malformed as_of, or one in the future',
    },
    answer: DocumentAnswer,
    handler: readDocumentHandler(queries, readYourWrites, asOf, 'INBOUND'),
  });
  routes.add({
    method: 'post',
    path: '/api/inbox/:documentId/accept',
    summary: 'Accept a received document (Invoice Response AP to the sender)',
    tag: 'inbox',
    auth: 'tenant',
    body: AcceptBody,
    responses: {
      200: 'The document with its response',
      404: 'Not found',
      409: 'Already accepted or rejected',
      422: 'The account no longer holds the participant id the document was addressed to',
    },
    answer: DocumentAnswer,
    handler: async (req, res, answer) => {
      const body = decode(AcceptBody, req.body ?? {}, 'body');
      const record = await inbox.accept(
        tenantOf(res).tenant,
        id(req.params),
        body.note?.trim() || null,
        commandMetadata(req, res),
      );
      answer(withSendBlock(await documentResponse(record), tenantOf(res).tenant));
    },
  });
  routes.add({
    method: 'post',
    path: '/api/inbox/:documentId/reject',
    summary: 'Reject a received document with a reason (Invoice Response RE to the sender)',
    tag: 'inbox',
    auth: 'tenant',
    body: RejectBody,
    responses: {
      200: 'The document with its response',
      404: 'Not found',
      409: 'Already accepted or rejected',
      422: 'No reason, or the account no longer holds the participant id the document was addressed to',
    },
    answer: DocumentAnswer,
    handler: async (req, res, answer) => {
      const body = decode(RejectBody, req.body ?? {}, 'body');
      const record = await inbox.reject(
        tenantOf(res).tenant,
        id(req.params),
        body.reason.trim(),
        commandMetadata(req, res),
      );
      answer(withSendBlock(await documentResponse(record), tenantOf(res).tenant));
    },
  });
}
