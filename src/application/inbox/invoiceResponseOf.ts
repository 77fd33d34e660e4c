import type { DocumentRecord } from '../../domain/document/lifecycle/documentAggregate.js';
import { writeInvoiceResponse } from '../../domain/document/ubl/invoiceResponse.js';

/**
 * The Peppol Invoice Response (T111) a tenant's accept or reject of a received document makes:
 * from the tenant (the invoice's buyer) to the invoice's seller. `id` must be stable for one
 * answer, so that every attempt to deliver it sends the same document.
 */
export function invoiceResponseOf(
  received: Pick<DocumentRecord, 'header' | 'inbound' | 'response'>,
  id: string,
): string | null {
  const { inbound, response } = received;
  if (!inbound || !response) return null;
  return writeInvoiceResponse({
    id,
    issueDate: response.responded_at.slice(0, 10),
    code: response.code,
    reason: response.reason,
    invoice: received.header,
    buyerPeppolId: inbound.receiver_peppol_id,
    sellerPeppolId: inbound.peppol_id,
  });
}
