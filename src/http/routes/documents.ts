import * as t from 'io-ts';
import type { DocumentCommands } from '../../application/documents/documentCommands.js';
import { sha256 } from '../../application/documents/documentCommands.js';
import type { DocumentQueries } from '../../application/documents/documentQueries.js';
import { attachmentType } from '../../domain/document/invoice/documentAttachments.js';
import { documentResponse } from '../../projections/documentView.js';
import { tenantOf } from '../auth.js';
import { decode, SkipLimitQuery } from '../codecs.js';
import { HttpError } from '../errors.js';
import { commandMetadata } from '../requestContext.js';
import type { RouteRegistry } from '../routeRegistry.js';
import { uploadedFile } from '../uploads.js';
import { XML_TYPES } from './xmlInput.js';

const CreateQuery = t.partial({ construct_pdf: t.keyof({ true: null, false: null }) });
const ANY_FILE = /.*/;

/** Documents of the calling tenant: create (JSON or UBL), read, validate, delete, attachments. */
export function documentRoutes(
  routes: RouteRegistry,
  documents: DocumentCommands,
  queries: DocumentQueries,
  readYourWrites: () => Promise<void>,
  uploadLimit: number,
): void {
  const id = (params: Record<string, unknown>) => String(params.documentId);

  routes.add({
    method: 'post',
    path: '/api/documents',
    summary: 'Create a document from JSON; it must pass validation (422 lists the problems)',
    tag: 'documents',
    auth: 'tenant',
    query: CreateQuery,
    responses: { 200: 'The created document (state DRAFT); with construct_pdf=true its PDF rendering is attached and embedded in the UBL', 422: 'Invalid or not compliant' },
    idempotent: true,
    documentBody: true,
    handler: async (req, res) => {
      const query = decode(CreateQuery, req.query, 'query');
      // construct_pdf: the rendering becomes an attachment, hence also an embedded document of the UBL.
      const record = await documents.createFromJson(tenantOf(res).tenantId, req.body, { renderPdf: query.construct_pdf === 'true' }, commandMetadata(req, res));
      res.json(await documentResponse(record));
    },
  });
  routes.add({
    method: 'get',
    path: '/api/documents',
    summary: "List the tenant's documents, newest first",
    tag: 'documents',
    auth: 'tenant',
    query: SkipLimitQuery,
    handler: async (req, res) => {
      const q = decode(SkipLimitQuery, req.query, 'query');
      await readYourWrites();
      res.json(await queries.list(tenantOf(res).tenantId, q.skip ?? 0, q.limit ?? 100));
    },
  });
  routes.add({
    method: 'post',
    path: '/api/documents/ubl',
    summary: 'Create a document from a UBL Invoice or CreditNote (multipart field "file", or an application/xml body)',
    tag: 'documents',
    auth: 'tenant',
    responses: { 200: 'The created document', 400: 'Not acceptable XML', 413: 'Too large', 422: 'Not compliant' },
    idempotent: true,
    handler: async (req, res) => {
      const file = await uploadedFile(req, res, uploadLimit, XML_TYPES);
      const record = await documents.createFromUbl(tenantOf(res).tenantId, file.buffer, file.fileName, commandMetadata(req, res));
      res.json(await documentResponse(record));
    },
  });
  routes.add({
    method: 'get',
    path: '/api/documents/:documentId',
    summary: 'Read a document',
    tag: 'documents',
    auth: 'tenant',
    responses: { 200: 'The document', 404: 'Not found' },
    handler: async (req, res) => {
      res.json(await documentResponse(await documents.get(tenantOf(res).tenantId, id(req.params))));
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
  routes.add({
    method: 'get',
    path: '/api/documents/:documentId/ubl',
    summary: "The document's UBL: metadata as JSON, or the XML itself with Accept: application/xml (or ?format=xml)",
    tag: 'documents',
    auth: 'tenant',
    handler: async (req, res) => {
      const { record, ubl } = await documents.ubl(tenantOf(res).tenantId, id(req.params));
      if (req.query.format === 'xml' || (req.accepts(['application/json', 'application/xml']) === 'application/xml' && !req.accepts('json'))) {
        res.type('application/xml').attachment(record.file_name).send(ubl);
        return;
      }
      const [senderScheme, senderId] = splitPeppolId(record.header.vendor_peppol_id);
      const [receiverScheme, receiverId] = splitPeppolId(record.header.customer_peppol_id);
      res.json({
        id: record.id,
        file_name: record.file_name,
        file_hash: sha256(ubl),
        file_size: Buffer.byteLength(ubl),
        sender_peppol_scheme: senderScheme,
        sender_peppol_id: senderId,
        receiver_peppol_scheme: receiverScheme,
        receiver_peppol_id: receiverId,
        signed_url: `/api/documents/${record.id}/ubl?format=xml`,
        validated_at: record.validated_at,
      });
    },
  });
  routes.add({
    method: 'post',
    path: '/api/documents/:documentId/validate',
    summary: "Validate a stored document's UBL again (the run is recorded in its history)",
    tag: 'documents',
    auth: 'tenant',
    handler: async (req, res) => {
      res.json(await documents.revalidate(tenantOf(res).tenantId, id(req.params), commandMetadata(req, res)));
    },
  });
  routes.add({
    method: 'get',
    path: '/api/documents/:documentId/attachments',
    summary: "List a document's attachments",
    tag: 'documents',
    auth: 'tenant',
    handler: async (req, res) => {
      res.json((await documentResponse(await documents.get(tenantOf(res).tenantId, id(req.params)))).attachments);
    },
  });
  routes.add({
    method: 'post',
    path: '/api/documents/:documentId/attachments',
    summary: 'Add an attachment to a DRAFT document (multipart field "file"); it is embedded in the UBL that is sent',
    tag: 'documents',
    auth: 'tenant',
    responses: {
      200: 'The attachment',
      409: 'The document is not a draft, or was created from uploaded UBL (sent as uploaded)',
      422: 'A type Peppol does not carry (PDF, PNG, JPEG, CSV, XLSX, ODS), an empty file, or the document would no longer validate',
    },
    handler: async (req, res) => {
      const file = await uploadedFile(req, res, uploadLimit, ANY_FILE);
      if (!file.fileName) throw new HttpError(422, [{ loc: ['body', 'file'], msg: 'The file needs a name', type: 'missing' }]);
      const attachment = await documents.addAttachment(
        tenantOf(res).tenantId,
        id(req.params),
        { file_name: file.fileName, file_type: attachmentType(file.mimeType, file.fileName), file_size: file.buffer.length, bytes: file.buffer },
        commandMetadata(req, res),
      );
      res.json({ ...attachmentMeta(attachment), file_url: `/api/documents/${id(req.params)}/attachments/${attachment.id}` });
    },
  });
  routes.add({
    method: 'get',
    path: '/api/documents/:documentId/attachments/:attachmentId',
    summary: 'An attachment: metadata as JSON, or its content with ?download=true',
    tag: 'documents',
    auth: 'tenant',
    handler: async (req, res) => {
      const { attachment, bytes } = await documents.attachment(tenantOf(res).tenantId, id(req.params), String(req.params.attachmentId));
      if (req.query.download === 'true') {
        res.type(attachment.file_type).attachment(attachment.file_name).send(await bytes());
        return;
      }
      res.json({ ...attachmentMeta(attachment), file_url: `/api/documents/${id(req.params)}/attachments/${attachment.id}?download=true` });
    },
  });
  routes.add({
    method: 'delete',
    path: '/api/documents/:documentId/attachments/:attachmentId',
    summary: 'Remove an attachment from a DRAFT document (and from the UBL that is sent)',
    tag: 'documents',
    auth: 'tenant',
    handler: async (req, res) => {
      await documents.removeAttachment(tenantOf(res).tenantId, id(req.params), String(req.params.attachmentId), commandMetadata(req, res));
      res.json({ is_deleted: true });
    },
  });
}

/** What the API says of an attachment: its facts, not where its bytes are kept. */
const attachmentMeta = (a: { id: string; file_name: string; file_type: string; file_size: number }) => ({ id: a.id, file_name: a.file_name, file_type: a.file_type, file_size: a.file_size });

function splitPeppolId(value: string | null): [string | null, string | null] {
  if (!value) return [null, null];
  const i = value.indexOf(':');
  return i < 0 ? [null, value] : [value.slice(0, i), value.slice(i + 1)];
}
