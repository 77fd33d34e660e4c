import type { DocumentCommands } from '../../../application/documents/documentCommands.js';
import { sha256 } from '../../../application/documents/documentCommands.js';
import { isSelfBilling } from '../../../domain/document/invoice/documentModel.js';
import { tenantOf } from '../../auth.js';
import { commandMetadata } from '../../requestContext.js';
import type { RouteRegistry } from '../../routeRegistry.js';
import { UblAnswer, ValidationAnswer } from '../../codecs/documentAnswers.js';

/** A document's UBL: its metadata or the XML itself, and validating it again. */
export function ublRoutes(routes: RouteRegistry, documents: DocumentCommands): void {
  const id = (params: Record<string, unknown>) => String(params.documentId);

  routes.add({
    method: 'get',
    path: '/api/documents/:documentId/ubl',
    summary: "The document's UBL: metadata as JSON, or the XML itself with Accept: application/xml (or ?format=xml)",
    tag: 'documents',
    auth: 'tenant',
    answer: UblAnswer,
    media: { 'application/xml': 'The UBL itself (with Accept: application/xml, or ?format=xml)' },
    handler: async (req, res, answer) => {
      const { record, ubl } = await documents.ubl(tenantOf(res).tenantId, id(req.params));
      if (
        req.query.format === 'xml' ||
        (req.accepts(['application/json', 'application/xml']) === 'application/xml' && !req.accepts('json'))
      ) {
        res.type('application/xml').attachment(record.file_name).send(ubl);
        return;
      }
      // A self-billed document goes from its buyer (who issues it) to its seller.
      const selfBilled = isSelfBilling(record.header.document_type);
      const [senderScheme, senderId] = splitPeppolId(
        selfBilled ? record.header.customer_peppol_id : record.header.vendor_peppol_id,
      );
      const [receiverScheme, receiverId] = splitPeppolId(
        selfBilled ? record.header.vendor_peppol_id : record.header.customer_peppol_id,
      );
      answer({
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
    answer: ValidationAnswer,
    handler: async (req, res, answer) => {
      answer(await documents.revalidate(tenantOf(res).tenantId, id(req.params), commandMetadata(req, res)));
    },
  });
}

function splitPeppolId(value: string | null): [string | null, string | null] {
  if (!value) return [null, null];
  const i = value.indexOf(':');
  return i < 0 ? [null, value] : [value.slice(0, i), value.slice(i + 1)];
}
