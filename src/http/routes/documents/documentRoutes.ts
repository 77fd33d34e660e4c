import * as t from 'io-ts';
import type { DocumentCommands } from '../../../application/documents/documentCommands.js';
import type { DocumentQueries } from '../../../application/documents/documentQueries.js';
import { documentResponse, withSendBlock } from '../../../application/readModels/documentView.js';
import { tenantOf } from '../../auth.js';
import { AS_OF_FIELDS, AsOfQuery, decode, SkipLimitQuery } from '../../codecs.js';
import type { AsOfReader } from '../../asOf.js';
import type { DocumentHistory } from '../../../application/documents/documentHistory.js';
import { commandMetadata } from '../../requestContext.js';
import type { RouteRegistry } from '../../routeRegistry.js';
import { uploadedFile } from '../../uploads.js';
import { DocumentCreateCodec } from '../../codecs/documentCodec.js';
import { XML_TYPES, XML_UPLOAD_TYPES } from './documentErrors.js';
import { DocumentAnswer, DocumentListAnswer } from '../../codecs/documentAnswers.js';
import { DeletedAnswer } from '../../codecs/answerCodecs.js';
import { readDocumentHandler } from './readDocument.js';

const CreateQuery = t.partial({ construct_pdf: t.keyof({ true: null, false: null }) });
const ListQuery = t.partial({ ...SkipLimitQuery.props, ...AS_OF_FIELDS });

/** Documents of the calling tenant: create (from JSON or UBL), list, read, delete. */
export function documentRoutes(
  routes: RouteRegistry,
  documents: DocumentCommands,
  queries: DocumentQueries,
  readYourWrites: () => Promise<void>,
  uploadLimit: number,
  asOf: { history: DocumentHistory; asOf: AsOfReader },
): void {
  const id = (params: Record<string, unknown>) => String(params.documentId);

  routes.add({
    method: 'post',
    path: '/api/documents',
    summary: 'Create a document from JSON; it must pass validation (422 lists the problems)',
    tag: 'documents',
    auth: 'tenant',
    query: CreateQuery,
    // Decoded by decodeDocumentInput (on a worker process when large), from this codec.
    body: DocumentCreateCodec,
    responses: {
      200: 'The created document (state DRAFT); with construct_pdf=true its PDF rendering is attached and embedded in the UBL',
      422: "Invalid or not compliant, or a seller's electronic address (vendor_peppol_id) that is not one of the tenant's participant ids",
    },
    idempotent: true,
    documentBody: true,
    answer: DocumentAnswer,
    handler: async (req, res, answer) => {
      const query = decode(CreateQuery, req.query, 'query');
      // construct_pdf: the rendering becomes an attachment, hence also an embedded document of the UBL.
      const { tenant } = tenantOf(res);
      const record = await documents.createFromJson(
        tenant,
        req.body,
        { renderPdf: query.construct_pdf === 'true' },
        commandMetadata(req, res),
      );
      answer(withSendBlock(await documentResponse(record), tenant));
    },
  });
  routes.add({
    method: 'get',
    path: '/api/documents',
    summary: "List the tenant's documents, newest first (as_of: as the list stood at that moment)",
    tag: 'documents',
    auth: 'tenant',
    query: ListQuery,
    responses: { 200: 'The documents', 422: 'A bad skip, limit or as_of (or one in the future)' },
    answer: DocumentListAnswer,
    handler: async (req, res, answer) => {
      const q = decode(ListQuery, req.query, 'query');
      await readYourWrites();
      const moment = await asOf.asOf(q.as_of, 'read models');
      const { tenant } = tenantOf(res);
      const list = await queries.list(tenant.id, q.skip ?? 0, q.limit ?? 100, moment?.position);
      answer({ ...list, documents: list.documents.map((d) => withSendBlock(d, tenant)) });
    },
  });
  routes.add({
    method: 'post',
    path: '/api/documents/ubl',
    summary: 'Create a document from a UBL Invoice or CreditNote (multipart field "file", or an application/xml body)',
    tag: 'documents',
    auth: 'tenant',
    responses: {
      200: 'The created document; send_blocked says why the tenant cannot send it (e.g. another seller)',
      400: 'Not acceptable XML',
      413: 'Too large',
      422: 'Not compliant',
    },
    upload: { rawTypes: XML_UPLOAD_TYPES },
    idempotent: true,
    answer: DocumentAnswer,
    handler: async (req, res, answer) => {
      const file = await uploadedFile(req, res, uploadLimit, XML_TYPES);
      const { tenant } = tenantOf(res);
      // Stored whoever its seller is; send_blocked says when this tenant may not send it.
      const record = await documents.createFromUbl(tenant.id, file.buffer, file.fileName, commandMetadata(req, res));
      answer(withSendBlock(await documentResponse(record), tenant));
    },
  });
  routes.add({
    method: 'get',
    path: '/api/documents/:documentId',
    summary: 'Read a document (as_of: as it was at that moment, from its events up to there)',
    tag: 'documents',
    auth: 'tenant',
    query: AsOfQuery,
    responses: {
      200: 'The document',
      404: 'Not found (with as_of: it did not exist then, or was deleted by then)',
      422: 'A malformed as_of, or one in the future',
    },
    answer: DocumentAnswer,
    handler: readDocumentHandler(queries, readYourWrites, asOf),
  });
  routes.add({
    method: 'delete',
    path: '/api/documents/:documentId',
    summary: 'Delete a DRAFT or FAILED document (its history stays in the event log)',
    tag: 'documents',
    auth: 'tenant',
    responses: { 200: '{"is_deleted": true}', 404: 'Not found', 409: 'Not deletable in its state' },
    answer: DeletedAnswer,
    handler: async (req, res, answer) => {
      await documents.delete(tenantOf(res).tenantId, id(req.params), commandMetadata(req, res));
      answer({ is_deleted: true });
    },
  });
}
