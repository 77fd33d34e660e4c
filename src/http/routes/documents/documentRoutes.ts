import * as t from 'io-ts';
import type { DocumentCommands } from '../../../application/documents/documentCommands.js';
import type { DocumentQueries } from '../../../application/documents/documentQueries.js';
import { documentResponse } from '../../../application/readModels/documentView.js';
import { tenantOf } from '../../auth.js';
import { AS_OF_FIELDS, AsOfQuery, decode, SkipLimitQuery } from '../../codecs.js';
import type { AsOfReader } from '../../asOf.js';
import type { DocumentHistory } from '../../../application/documents/documentHistory.js';
import { commandMetadata } from '../../requestContext.js';
import type { RouteRegistry } from '../../routeRegistry.js';
import { uploadedFile } from '../../uploads.js';
import { DocumentCreateCodec } from '../../codecs/documentCodec.js';
import { XML_TYPES, XML_UPLOAD_TYPES } from './documentErrors.js';

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
      422: 'Invalid or not compliant',
    },
    idempotent: true,
    documentBody: true,
    handler: async (req, res) => {
      const query = decode(CreateQuery, req.query, 'query');
      // construct_pdf: the rendering becomes an attachment, hence also an embedded document of the UBL.
      const record = await documents.createFromJson(
        tenantOf(res).tenantId,
        req.body,
        { renderPdf: query.construct_pdf === 'true' },
        commandMetadata(req, res),
      );
      res.json(await documentResponse(record));
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
    handler: async (req, res) => {
      const q = decode(ListQuery, req.query, 'query');
      await readYourWrites();
      const moment = await asOf.asOf(q.as_of, 'read models');
      res.json(await queries.list(tenantOf(res).tenantId, q.skip ?? 0, q.limit ?? 100, moment?.position));
    },
  });
  routes.add({
    method: 'post',
    path: '/api/documents/ubl',
    summary: 'Create a document from a UBL Invoice or CreditNote (multipart field "file", or an application/xml body)',
    tag: 'documents',
    auth: 'tenant',
    responses: { 200: 'The created document', 400: 'Not acceptable XML', 413: 'Too large', 422: 'Not compliant' },
    upload: { rawTypes: XML_UPLOAD_TYPES },
    idempotent: true,
    handler: async (req, res) => {
      const file = await uploadedFile(req, res, uploadLimit, XML_TYPES);
      const record = await documents.createFromUbl(
        tenantOf(res).tenantId,
        file.buffer,
        file.fileName,
        commandMetadata(req, res),
      );
      res.json(await documentResponse(record));
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
    handler: async (req, res) => {
      const moment = await asOf.asOf(decode(AsOfQuery, req.query, 'query').as_of, 'events');
      if (moment)
        return res.json(await asOf.history.documentAsOf(tenantOf(res).tenantId, id(req.params), moment.position));
      // From the read model; what this client wrote before is in it (read-your-writes).
      await readYourWrites();
      res.json(await queries.get(tenantOf(res).tenantId, id(req.params)));
    },
  });
  routes.add({
    method: 'delete',
    path: '/api/documents/:documentId',
    summary: 'Delete a DRAFT or FAILED document (its history stays in the event log)',
    tag: 'documents',
    auth: 'tenant',
    responses: { 200: '{"is_deleted": true}', 404: 'Not found', 409: 'Not deletable in its state' },
    handler: async (req, res) => {
      await documents.delete(tenantOf(res).tenantId, id(req.params), commandMetadata(req, res));
      res.json({ is_deleted: true });
    },
  });
}
