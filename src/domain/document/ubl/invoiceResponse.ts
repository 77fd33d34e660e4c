import type { DocumentJson } from '../invoice/documentJson.js';
import type { ResponseCode } from '../invoice/codeLists.js';
import { ublKindOf, NS } from './ublNames.js';
import { writeXml, xmlBuilder } from '../../xml/xmlWriter.js';

const APPLICATION_RESPONSE_NS = 'urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2';
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
