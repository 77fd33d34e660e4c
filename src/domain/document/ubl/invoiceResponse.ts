import type { DocumentJson } from '../invoice/documentJson.js';
import type { ResponseCode } from '../invoice/codeLists.js';
import { ublKindOf, NS } from './ublNames.js';
import { writeXml, xmlBuilder } from '../../xml/xmlWriter.js';
import { xmlPath } from '../../xml/xmlPath.js';
import type { XNode } from '../../xml/xmlTree.js';

export const APPLICATION_RESPONSE_NS = NS.applicationResponse;
const { agg, leaf } = xmlBuilder({ cac: NS.cac, cbc: NS.cbc });

export const INVOICE_RESPONSE_CUSTOMIZATION_ID = 'urn:fdc:peppol.eu:poacc:trns:invoice_response:3';
export const INVOICE_RESPONSE_PROFILE_ID = 'urn:fdc:peppol.eu:poacc:bis:invoice_response:3';

export interface InvoiceResponseInput {
  id: string;
  issueDate: string;
  code: ResponseCode;
  reason: string | null;
  /** The invoice as received (its number, date, type and parties): the buyer answers, the seller is told. */
  invoice: Pick<DocumentJson, 'invoice_id' | 'invoice_date' | 'document_type' | 'customer_name' | 'vendor_name'>;
  buyerPeppolId: string | null;
  sellerPeppolId: string | null;
}

const endpoint = (peppolId: string | null) => {
  const i = peppolId?.indexOf(':') ?? -1;
  if (!peppolId || i < 1) return null;
  return leaf('cbc:EndpointID', peppolId.slice(i + 1), { schemeID: peppolId.slice(0, i) });
};

const party = (name: string, peppolId: string | null, registrationName: string | null) =>
  agg(name, endpoint(peppolId), agg('cac:PartyLegalEntity', leaf('cbc:RegistrationName', registrationName)));

/**
 * A Peppol BIS Invoice Response 3 (T111) message: AP (accepted) or RE (rejected, with the
 * reason as StatusReason under reason code OTH of the OPStatusReason list).
 */
export function writeInvoiceResponse(input: InvoiceResponseInput): string {
  const { invoice } = input;
  return writeXml('ApplicationResponse', { '': APPLICATION_RESPONSE_NS, cac: NS.cac, cbc: NS.cbc }, [
    leaf('cbc:CustomizationID', INVOICE_RESPONSE_CUSTOMIZATION_ID),
    leaf('cbc:ProfileID', INVOICE_RESPONSE_PROFILE_ID),
    leaf('cbc:ID', input.id),
    leaf('cbc:IssueDate', input.issueDate),
    party('cac:SenderParty', input.buyerPeppolId, invoice.customer_name),
    party('cac:ReceiverParty', input.sellerPeppolId, invoice.vendor_name),
    agg(
      'cac:DocumentResponse',
      agg(
        'cac:Response',
        leaf('cbc:ResponseCode', input.code),
        input.code === 'RE' || input.reason
          ? agg(
              'cac:Status',
              leaf('cbc:StatusReasonCode', 'OTH', { listID: 'OPStatusReason' }),
              leaf('cbc:StatusReason', input.reason),
            )
          : null,
      ),
      agg(
        'cac:DocumentReference',
        leaf('cbc:ID', invoice.invoice_id),
        leaf('cbc:IssueDate', invoice.invoice_date),
        leaf('cbc:DocumentTypeCode', ublKindOf(invoice.document_type).typeCode),
      ),
    ),
  ]);
}

/** What a received Invoice Response says, as far as recording it on the invoice it answers goes. */
export interface ReceivedInvoiceResponse {
  /** cbc:ResponseCode as sent (UNCL 4343 subset: AB, IP, UQ, CA, RE, AP, PD). */
  code: string;
  reason: string | null;
  /** The number (cbc:ID) of the invoice it answers. */
  invoiceId: string;
  /** The responder (the buyer), `<scheme>:<id>` from SenderParty/EndpointID. */
  senderPeppolId: string | null;
  /** Who is told (the seller), `<scheme>:<id>` from ReceiverParty/EndpointID. */
  receiverPeppolId: string | null;
}

const read = xmlPath({ ar: APPLICATION_RESPONSE_NS, cac: NS.cac, cbc: NS.cbc });

const endpointOf = (party: XNode | null): string | null => {
  const endpoint = read.one(party, 'cbc:EndpointID');
  const scheme = read.attr(endpoint, 'schemeID');
  const id = read.text(endpoint);
  return scheme && id ? `${scheme}:${id}` : null;
};

/** Reads a Peppol Invoice Response (an ApplicationResponse tree); a reason when it is none. */
export function readInvoiceResponse(
  root: XNode,
): { ok: true; response: ReceivedInvoiceResponse } | { ok: false; reason: string } {
  if (root.ns !== APPLICATION_RESPONSE_NS || root.local !== 'ApplicationResponse')
    return { ok: false, reason: `the document is {${root.ns}}${root.local}, not an ApplicationResponse` };
  const response = read.one(root, 'cac:DocumentResponse');
  const code = read.text(response, 'cac:Response/cbc:ResponseCode');
  if (!code) return { ok: false, reason: 'the Invoice Response has no ResponseCode' };
  const invoiceId = read.text(response, 'cac:DocumentReference/cbc:ID');
  if (!invoiceId) return { ok: false, reason: 'the Invoice Response names no invoice (DocumentReference/ID)' };
  const reasons = read
    .all(response, 'cac:Response/cac:Status')
    .map((status) => read.text(status, 'cbc:StatusReason'))
    .filter((r): r is string => r !== null);
  return {
    ok: true,
    response: {
      code,
      reason: reasons.length > 0 ? reasons.join('; ') : null,
      invoiceId,
      senderPeppolId: endpointOf(read.one(root, 'cac:SenderParty')),
      receiverPeppolId: endpointOf(read.one(root, 'cac:ReceiverParty')),
    },
  };
}
