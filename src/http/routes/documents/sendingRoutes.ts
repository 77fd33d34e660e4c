import * as t from 'io-ts';
import { TimelineAnswer } from '../../codecs/answerCodecs.js';
import type { SendDocument, SendOptions } from '../../../application/delivery/sendDocument.js';
import type { EvidenceBundles } from '../../../application/evidence/evidenceBundle.js';
import type { DocumentHistory } from '../../../application/documents/documentHistory.js';
import { documentResponse, withSendBlock } from '../../../application/readModels/documentView.js';
import { tenantOf } from '../../auth.js';
import { AsOfQuery, decode, Email } from '../../codecs.js';
import type { AsOfReader } from '../../asOf.js';
import { HttpError } from '../../errors.js';
import { commandMetadata } from '../../requestContext.js';
import type { RouteRegistry } from '../../routeRegistry.js';
import { DocumentAnswer, HistoryAnswer, TransmissionReportAnswer } from '../../codecs/documentAnswers.js';

const EvidenceQuery = t.partial({ part: t.union([t.literal('receipt'), t.literal('message')]) });

const SendQuery = t.partial({
  sender_peppol_scheme: t.string,
  sender_peppol_id: t.string,
  receiver_peppol_scheme: t.string,
  receiver_peppol_id: t.string,
  email: Email,
});

/** The send options: the query's, and the same fields in an optional JSON body; the two may not disagree. */
function sendOptions(query: unknown, body: unknown): SendOptions {
  const fromQuery = decode(SendQuery, query, 'query');
  const fromBody = decode(SendQuery, body ?? {}, 'body');
  const merged: SendOptions = { ...fromQuery };
  for (const field of Object.keys(fromBody) as Array<keyof SendOptions>) {
    const inBody = fromBody[field];
    if (inBody === undefined) continue;
    const inQuery = fromQuery[field];
    if (inQuery !== undefined && inQuery !== inBody) {
      throw new HttpError(422, [
        {
          loc: ['body', field],
          msg: `${field} is given in the query (${JSON.stringify(inQuery)}) and in the body (${JSON.stringify(inBody)}) with different values: give it once, or the same in both`,
          type: 'value_error.conflict',
        },
      ]);
    }
    merged[field] = inBody;
  }
  return merged;
}

/** Sending a document and the audit views of what happened to it. */
export function sendingRoutes(
  routes: RouteRegistry,
  sending: SendDocument,
  history: DocumentHistory,
  asOf: AsOfReader,
  evidence: Pick<EvidenceBundles, 'bundle'>,
): void {
  const at = async (query: unknown) => (await asOf(decode(AsOfQuery, query, 'query').as_of, 'events'))?.position;
  const id = (params: Record<string, unknown>) => String(params.documentId);

  routes.add({
    method: 'post',
    path: '/api/documents/:documentId/send',
    summary:
      'Send a DRAFT or FAILED document: it goes to TRANSIT, then SENT, or FAILED after the retry schedule (e-mail in test mode, Peppol otherwise)',
    tag: 'documents',
    auth: 'tenant',
    query: SendQuery,
    body: SendQuery,
    bodyOptional: true,
    responses: {
      200: 'The document, now in TRANSIT',
      404: 'Not found',
      409: 'Not sendable in its state',
      422: "The document's issuer (the seller; the buyer when self-billed) is not one of the tenant's participant ids (loc names the EndpointID, msg the ids it may use), no receiver, a bad override, or an option given in the query and the body with different values",
    },
    idempotent: true,
    answer: DocumentAnswer,
    handler: async (req, res, answer) => {
      const options = sendOptions(req.query, req.body);
      const { tenant } = tenantOf(res);
      const record = await sending.send(tenant, id(req.params), options, commandMetadata(req, res));
      answer(withSendBlock(await documentResponse(record), tenant));
    },
  });
  routes.add({
    method: 'post',
    path: '/api/documents/:documentId/cancel',
    summary:
      'Cancel a delivery that waits for a retry: the document becomes FAILED with the reason "cancelled" (it may be sent again)',
    tag: 'documents',
    auth: 'tenant',
    responses: {
      200: 'The document, now FAILED',
      404: 'Not found',
      409: 'Not in TRANSIT, or an attempt is due or under way',
    },
    answer: DocumentAnswer,
    handler: async (req, res, answer) => {
      const { tenant } = tenantOf(res);
      const record = await sending.cancel(tenant.id, id(req.params), commandMetadata(req, res));
      answer(withSendBlock(await documentResponse(record), tenant));
    },
  });
  routes.add({
    method: 'get',
    path: '/api/documents/:documentId/transmission-report',
    summary:
      'Every delivery of the document and every attempt: transport, receiver, times, outcome, error (as_of: the report as it stood then)',
    tag: 'documents',
    auth: 'tenant',
    query: AsOfQuery,
    responses: { 200: 'The report', 404: 'Not found (with as_of: not yet created then)', 422: 'A bad as_of' },
    answer: TransmissionReportAnswer,
    handler: async (req, res, answer) => {
      answer(await history.transmissionReport(tenantOf(res).tenantId, id(req.params), await at(req.query)));
    },
  });
  routes.add({
    method: 'get',
    path: '/api/documents/:documentId/evidence',
    summary:
      "The document's evidence bundle, however it was sent or received: one ZIP with manifest.json (each file's SHA-256), the UBL and PDFs as stored, the transport evidence (AS4 message and signed receipt, or the e-mail as sent in test mode, and the delivery record), Invoice Responses and MLS, every event with its chain hashes and the signed checkpoint they link to, who did what, and the validation report; `npm run verify-evidence` checks it offline. part=receipt: the signed AS4 receipt alone; part=message: the AS4 message alone (as posted or received)",
    tag: 'documents',
    auth: 'tenant',
    query: EvidenceQuery,
    responses: {
      200: 'The bundle (application/zip); with part, the receipt (application/xml) or the message (multipart/related)',
      404: 'Not found; with part, not sent or received over Peppol AS4',
      409: 'The history chain is catching up (try again shortly)',
    },
    media: {
      'application/zip': 'The evidence bundle (docs/internals/proving-history.md)',
      'application/xml': 'With part=receipt: the signed AS4 receipt',
      'multipart/related': 'With part=message: the AS4 message as posted or received (MIME)',
    },
    handler: async (req, res) => {
      const { part } = decode(EvidenceQuery, req.query, 'query');
      const documentId = id(req.params);
      if (part === undefined) {
        const zip = await evidence.bundle(tenantOf(res).tenantId, documentId);
        res
          .set('Content-Type', 'application/zip')
          .set('Content-Disposition', `attachment; filename="evidence-${documentId}.zip"`)
          .send(zip);
        return;
      }
      const single = await history.evidence(tenantOf(res).tenantId, documentId, part);
      res.set('Content-Type', part === 'message' ? single.mediaType : 'application/xml').send(single.bytes);
    },
  });
  routes.add({
    method: 'get',
    path: '/api/documents/:documentId/timeline',
    summary:
      "The document's lifecycle, oldest first: {document_id, state, items: [{type, at, actor, details}]} with type one of created, validated, attachment_added, attachment_removed, send_requested, delivery_attempted, sent, failed, received, accepted, rejected, response_received, response_delivery_attempted, deleted",
    tag: 'documents',
    auth: 'tenant',
    query: AsOfQuery,
    responses: { 200: 'The timeline', 404: 'Not found (with as_of: not yet created then)', 422: 'A bad as_of' },
    answer: TimelineAnswer,
    handler: async (req, res, answer) => {
      answer(await history.timeline(tenantOf(res).tenantId, id(req.params), await at(req.query)));
    },
  });
  routes.add({
    method: 'get',
    path: '/api/documents/:documentId/history',
    summary:
      "The document's events, oldest first, for audit (also after it was deleted; as_of: the events up to that moment)",
    tag: 'documents',
    auth: 'tenant',
    query: AsOfQuery,
    responses: { 200: 'The events', 404: 'Not found (with as_of: not yet created then)', 422: 'A bad as_of' },
    answer: HistoryAnswer,
    handler: async (req, res, answer) => {
      answer(await history.history(tenantOf(res).tenantId, id(req.params), await at(req.query)));
    },
  });
}
