import type { DocumentCommands } from '../../../application/documents/documentCommands.js';
import { tenantOf } from '../../auth.js';
import type { RouteRegistry } from '../../routeRegistry.js';
import { uploadedFile } from '../../uploads.js';
import { DocumentCreateCodec } from '../../codecs/documentCodec.js';
import { XML_TYPES, XML_UPLOAD_TYPES } from './documentErrors.js';

/** Validation of a JSON document or a UBL file; records nothing. */
export function validateRoutes(routes: RouteRegistry, documents: DocumentCommands, uploadLimit: number): void {
  routes.add({
    method: 'post',
    path: '/api/validate/json',
    summary:
      'Validate a JSON document (converted to UBL and checked with the EN 16931 and Peppol rules); creates nothing',
    tag: 'validation',
    auth: 'tenant',
    body: DocumentCreateCodec,
    responses: { 200: 'Validation result, with ubl_document when valid' },
    documentBody: true,
    handler: async (req, res) => {
      res.json(await documents.validateJson(tenantOf(res).tenantId, req.body));
    },
  });
  routes.add({
    method: 'post',
    path: '/api/validate/ubl',
    summary:
      'Validate a UBL Invoice or CreditNote (multipart field "file", or an application/xml body); creates nothing',
    tag: 'validation',
    auth: 'tenant',
    responses: { 200: 'Validation result', 400: 'Not acceptable XML', 413: 'Too large' },
    upload: { rawTypes: XML_UPLOAD_TYPES },
    handler: async (req, res) => {
      const file = await uploadedFile(req, res, uploadLimit, XML_TYPES);
      res.json(await documents.validateUbl(tenantOf(res).tenantId, file.buffer, file.fileName));
    },
  });
}
