import { isSelfBilling, type DocumentType } from '../document/invoice/documentModel.js';
import { endpointIdFor, formatPeppolId, partyPeppolId } from '../document/invoice/peppolId.js';
import { APPLICATION_RESPONSE_NS } from '../document/ubl/invoiceResponse.js';
import { documentTypeOf, NS } from '../document/ubl/ublNames.js';
import { xmlPath } from '../xml/xmlPath.js';
import type { XNode } from '../xml/xmlTree.js';
import { participantKey, sameParticipant } from './participantId.js';

/*
 * Who a document says it is from, and whether a tenant may send it. A Peppol service provider
 * answers for the identity of the senders it serves: a tenant sends only documents whose issuer's
 * electronic address is one of its own participant ids, and the envelope (SBDH sender, ebMS
 * originalSender) says the same. The issuer is the seller (BT-34, AccountingSupplierParty), except
 * in self-billing, where the buyer issues the invoice on the seller's behalf and sends it (BT-49,
 * AccountingCustomerParty; Peppol BIS Self-Billing 3.0). See docs/operating/sender-identity.md.
 */

/** A tenant's participant ids: the ones its administrator set, then its Peppol registration. */
export interface ParticipantHolder {
  peppol_ids: readonly string[];
  peppol_registration: { peppol_id: string } | null;
}

/** The ids a tenant may send as, in order (the first is the default), each once (compared as Peppol does). */
export function ownParticipantIds(holder: ParticipantHolder): string[] {
  const own: string[] = [];
  for (const id of [...holder.peppol_ids, holder.peppol_registration?.peppol_id])
    if (id && participantKey(id) !== null && ownIdMatching(own, id) === null) own.push(id);
  return own;
}

/** The tenant's own id that is `id` (scheme and value case-insensitive, as Peppol compares them), or null. */
export const ownIdMatching = (own: readonly string[], id: string | null): string | null =>
  own.find((o) => sameParticipant(o, id)) ?? null;

/** The party that issues (and sends) a document of this type, and how each interface names it. */
export interface IssuingParty {
  /** The UBL party element. */
  element: 'AccountingSupplierParty' | 'AccountingCustomerParty';
  /** The document's JSON field of its electronic address. */
  field: 'vendor_peppol_id' | 'customer_peppol_id';
  /** What the party is, in messages. */
  role: string;
}

const SELLER: IssuingParty = {
  element: 'AccountingSupplierParty',
  field: 'vendor_peppol_id',
  role: "the seller's electronic address (BT-34)",
};
const SELF_BILLING_BUYER: IssuingParty = {
  element: 'AccountingCustomerParty',
  field: 'customer_peppol_id',
  role: "the buyer's electronic address (BT-49; in self-billing the buyer issues and sends)",
};

export const issuingPartyOf = (type: DocumentType): IssuingParty => (isSelfBilling(type) ? SELF_BILLING_BUYER : SELLER);

/** Where a send refusal points: the issuer's EndpointID in the document. */
export const issuerLoc = (party: IssuingParty): string[] => ['document', party.element, 'EndpointID'];

/** The document facts the issuer is read from: its type and both parties' identifiers. */
export type IssuerFacts = {
  document_type: DocumentType;
} & Record<
  | 'vendor_peppol_id'
  | 'vendor_tax_id'
  | 'vendor_company_id'
  | 'customer_peppol_id'
  | 'customer_tax_id'
  | 'customer_company_id',
  string | null
>;

/** The issuer's participant id as the document's EndpointID carries it (as the UBL writer writes it), or null. */
export function issuerIdOf(document: IssuerFacts): string | null {
  const vendor = issuingPartyOf(document.document_type).field === 'vendor_peppol_id';
  const id = vendor
    ? partyPeppolId(document.vendor_peppol_id, document.vendor_tax_id, document.vendor_company_id)
    : partyPeppolId(document.customer_peppol_id, document.customer_tax_id, document.customer_company_id);
  return id ? formatPeppolId(endpointIdFor(id)) : null;
}

/** Why a tenant cannot send a document: the field, the message, the ids it may send as. */
export interface SendBlock {
  /** The document's JSON field of the issuer's electronic address. */
  field: IssuingParty['field'];
  /** The same in the UBL: ['document', 'AccountingSupplierParty', 'EndpointID'] (or the customer's in self-billing). */
  loc: string[];
  message: string;
  /** Who the document says issues it. */
  issuer_peppol_id: string | null;
  /** The participant ids the tenant may send as (empty: it holds none yet). */
  allowed_ids: string[];
}

/**
 * Whether a tenant holding `own` may send `document`: null when its issuer is one of them, else
 * why not. A tenant that holds no id cannot send at all until its administrator gives it one.
 */
export function sendBlockOf(own: readonly string[], document: IssuerFacts): SendBlock | null {
  const party = issuingPartyOf(document.document_type);
  const issuer = issuerIdOf(document);
  if (own.length > 0 && ownIdMatching(own, issuer)) return null;
  const block = (message: string): SendBlock => ({
    field: party.field,
    loc: issuerLoc(party),
    message,
    issuer_peppol_id: issuer,
    allowed_ids: [...own],
  });
  if (own.length === 0)
    return block(
      'This account holds no Peppol participant id, so it cannot send: its administrator (the reseller) must give it one, after verifying that the business controls it',
    );
  const mayUse = `This account may send as: ${own.join(', ')}`;
  const where = `${party.role} at ${party.element}/Party/EndpointID`;
  if (!issuer) return block(`The document names no issuer: ${where} is missing. ${mayUse}`);
  return block(
    `The document is issued by ${issuer}, ${where}, which is not a Peppol participant id of this account, so it cannot send it. ${mayUse}`,
  );
}

/**
 * A JSON document's issuer bound to the tenant: its electronic address, when not given, is the
 * tenant's first id; one of the tenant's own is kept (as the tenant holds it); another is refused,
 * naming the field. A tenant without ids gets the document as written: it cannot send it (sendBlockOf)
 * until its administrator gives it one.
 */
export function bindIssuer<D extends { document_type: DocumentType } & Record<IssuingParty['field'], string | null>>(
  document: D,
  own: readonly string[],
): { ok: true; document: D } | { ok: false; loc: string[]; msg: string } {
  const { field } = issuingPartyOf(document.document_type);
  if (own.length === 0) return { ok: true, document };
  const given = document[field];
  if (given === null) return { ok: true, document: { ...document, [field]: own[0]! } };
  const held = ownIdMatching(own, given);
  if (held) return { ok: true, document: { ...document, [field]: held } };
  return {
    ok: false,
    loc: ['body', field],
    msg: `${given} is not a Peppol participant id of this account: ${issuingPartyOf(document.document_type).role} must be one of its own (${own.join(', ')}); leave ${field} out to use ${own[0]}`,
  };
}

/** The issuer a received business document names, as its EndpointID says (null when it names none). */
export interface NamedIssuer {
  /** Where, e.g. `Invoice/AccountingSupplierParty/Party/EndpointID`. */
  path: string;
  id: string | null;
}

const ubl = xmlPath({ cac: NS.cac, cbc: NS.cbc });
const endpointOf = (party: XNode | null): string | null => {
  const endpoint = ubl.one(party, 'cbc:EndpointID');
  const scheme = ubl.attr(endpoint, 'schemeID');
  const value = ubl.text(endpoint);
  return scheme && value ? `${scheme}:${value}` : null;
};

/**
 * The issuer of a business document as it travels: a UBL Invoice or CreditNote's seller (its
 * buyer when self-billed), an ApplicationResponse's SenderParty. Null for other documents (this
 * access point serves none: they are refused as not serviced).
 */
export function namedIssuerOf(root: XNode): NamedIssuer | null {
  if (root.ns === APPLICATION_RESPONSE_NS && root.local === 'ApplicationResponse') {
    return { path: 'ApplicationResponse/SenderParty/EndpointID', id: endpointOf(ubl.one(root, 'cac:SenderParty')) };
  }
  const isInvoice = root.ns === NS.invoice && root.local === 'Invoice';
  if (!isInvoice && !(root.ns === NS.creditNote && root.local === 'CreditNote')) return null;
  const type = documentTypeOf(
    isInvoice ? 'Invoice' : 'CreditNote',
    ubl.text(root, isInvoice ? 'cbc:InvoiceTypeCode' : 'cbc:CreditNoteTypeCode') ?? '',
    ubl.text(root, 'cbc:CustomizationID') ?? '',
  );
  const { element } = issuingPartyOf(type);
  return {
    path: `${root.local}/${element}/Party/EndpointID`,
    id: endpointOf(ubl.one(root, `cac:${element}/cac:Party`)),
  };
}
