import type { DocumentCommands } from '../../../application/documents/documentCommands.js';
import type { DocumentQueries } from '../../../application/documents/documentQueries.js';
import { attachmentType } from '../../../domain/document/rules/documentAttachments.js';
import { tenantOf } from '../../auth.js';
import { HttpError } from '../../errors.js';
import { commandMetadata } from '../../requestContext.js';
import type { RouteRegistry } from '../../routeRegistry.js';
import { uploadedFile } from '../../uploads.js';
import * as t from 'io-ts';
import { AttachmentAnswer } from '../../codecs/documentAnswers.js';
import { DeletedAnswer } from '../../codecs/answerCodecs.js';

const ANY_FILE = /.*/;

/** A document's attachments: list, add and remove (drafts only), read or download one. */
export function attachmentRoutes(
  routes: RouteRegistry,
  documents: DocumentCommands,
  queries: DocumentQueries,
  readYourWrites: () => Promise<void>,
  uploadLimit: number,
): void {
  const id = (params: Record<string, unknown>) => String(params.documentId);

  routes.add({
    method: 'get',
    path: '/api/documents/:documentId/attachments',
    summary: "List a document's attachments",
    tag: 'documents',
    auth: 'tenant',
    answer: t.array(AttachmentAnswer),
    handler: async (req, res, answer) => {
      await readYourWrites();
      answer((await queries.get(tenantOf(res).tenantId, id(req.params))).attachments);
    },
  });
  routes.add({
    method: 'post',
    path: '/api/documents/:documentId/attachments',
    summary: 'Add an attachment to a DRAFT document (multipart field "file"); it is embedded in the UBL that is sent',
    tag: 'documents',
    auth: 'tenant',
    upload: {},
    responses: {
      200: 'The attachment',
      409: 'The document is not a draft, or was created from uploaded UBL (sent as uploaded)',
      422: 'A type Peppol does not carry (PDF, PNG, JPEG, CSV, XLSX, ODS), an empty file, or the document would no longer validate',
    },
    answer: AttachmentAnswer,
    handler: async (req, res, answer) => {
      const file = await uploadedFile(req, res, uploadLimit, ANY_FILE);
      if (!file.fileName)
        throw new HttpError(422, [{ loc: ['body', 'file'], msg: 'The file needs a name', type: 'missing' }]);
      const attachment = await documents.addAttachment(
        tenantOf(res).tenantId,
        id(req.params),
        {
          file_name: file.fileName,
          file_type: attachmentType(file.mimeType, file.fileName),
          file_size: file.buffer.length,
          bytes: file.buffer,
        },
        commandMetadata(req, res),
      );
      const { id: attachmentKey, file_name, file_type, file_size } = attachment;
      answer({
        id: attachmentKey,
        file_name,
        file_type,
        file_size,
        file_url: `/api/documents/${id(req.params)}/attachments/${attachment.id}`,
      });
    },
  });
  routes.add({
    method: 'get',
    path: '/api/documents/:documentId/attachments/:attachmentId',
    summary: 'An attachment: metadata as JSON, or its content with ?download=true',
    tag: 'documents',
    auth: 'tenant',
    answer: AttachmentAnswer,
    media: { 'application/octet-stream': 'With ?download=true: the content, in its own media type' },
    handler: async (req, res, answer) => {
      const attachmentId = String(req.params.attachmentId);
      // The content is read from where it is kept (the document's stream); the metadata from the read model.
      if (req.query.download === 'true') {
        const { attachment, bytes } = await documents.attachment(tenantOf(res).tenantId, id(req.params), attachmentId);
        res
          .type(attachment.file_type)
          .attachment(attachment.file_name)
          .send(await bytes());
        return;
      }
      await readYourWrites();
      const document = await queries.get(tenantOf(res).tenantId, id(req.params));
      const attachment = document.attachments.find((a) => a.id === attachmentId);
      if (!attachment) throw new HttpError(404, 'Attachment not found');
      const { id: attachmentKey, file_name, file_type, file_size } = attachment;
      answer({
        id: attachmentKey,
        file_name,
        file_type,
        file_size,
        file_url: `/api/documents/${document.id}/attachments/${attachmentKey}?download=true`,
      });
    },
  });
  routes.add({
    method: 'delete',
    path: '/api/documents/:documentId/attachments/:attachmentId',
    summary: 'Remove an attachment from a DRAFT document (and from the UBL that is sent)',
    tag: 'documents',
    auth: 'tenant',
    answer: DeletedAnswer,
    handler: async (req, res, answer) => {
      await documents.removeAttachment(
        tenantOf(res).tenantId,
        id(req.params),
        String(req.params.attachmentId),
        commandMetadata(req, res),
      );
      answer({ is_deleted: true });
    },
  });
}
