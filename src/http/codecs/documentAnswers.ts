import * as t from 'io-ts';
import { DIRECTIONS, DOCUMENT_STATES, DOCUMENT_TYPES } from '../../domain/document/invoice/documentModel.js';
import { TAX_CODES } from '../../domain/document/invoice/codeLists.js';
import { nullable, oneOf, pageOf } from './answerCodecs.js';

/*
 * The answers of the document, inbox, outbox and validation routes. Each handler hands its answer
 * to the route's `answer` (routeRegistry.ts), typed by the codec; test/http/answerShapes.test.ts
 * checks the real answers against the schemas the OpenAPI document publishes from these codecs.
 */

/** Amounts and quantities as decimal strings (never floating point). */
const decimal = nullable(t.string);
const text = nullable(t.string);
const TaxCode = oneOf(TAX_CODES);

const AllowanceCharge = t.type({
  reason: text,
  reason_code: text,
  multiplier_factor: decimal,
  amount: decimal,
  base_amount: decimal,
  tax_rate: decimal,
  tax_code: nullable(TaxCode),
});

const LineItem = t.type({
  amount: decimal,
  date: text,
  description: text,
  quantity: decimal,
  product_code: text,
  tax: decimal,
  tax_rate: decimal,
  tax_code: nullable(TaxCode),
  unit: text,
  unit_price: decimal,
  allowances: t.array(AllowanceCharge),
  charges: t.array(AllowanceCharge),
});

/** An attachment without its content (`file_url` serves it). */
export const AttachmentAnswer = t.type({
  id: text,
  file_name: t.string,
  file_type: text,
  file_size: nullable(t.number),
  file_url: text,
});

/** The document's own fields: what the client sent or the UBL said, totals computed. */
const documentFields = {
  document_type: oneOf(DOCUMENT_TYPES),
  state: oneOf(DOCUMENT_STATES),
  direction: oneOf(DIRECTIONS),
  invoice_id: text,
  invoice_date: text,
  due_date: text,
  note: text,
  purchase_order: text,
  payment_term: text,
  currency: t.string,
  vendor_name: text,
  vendor_email: text,
  vendor_tax_id: text,
  vendor_company_id: text,
  vendor_peppol_id: text,
  vendor_address: text,
  vendor_address_recipient: text,
  customer_name: text,
  customer_id: text,
  customer_email: text,
  customer_tax_id: text,
  customer_company_id: text,
  customer_peppol_id: text,
  customer_address: text,
  customer_address_recipient: text,
  billing_address: text,
  billing_address_recipient: text,
  shipping_address: text,
  shipping_address_recipient: text,
  remittance_address: text,
  remittance_address_recipient: text,
  service_address: text,
  service_address_recipient: text,
  service_start_date: text,
  service_end_date: text,
  tax_code: TaxCode,
  vatex: text,
  vatex_note: text,
  subtotal: decimal,
  total_discount: decimal,
  total_tax: decimal,
  invoice_total: decimal,
  amount_due: decimal,
  payment_details: t.array(
    t.type({
      iban: text,
      swift: text,
      bank_account_number: text,
      payment_reference: text,
      payment_means_code: text,
      mandate_reference: text,
    }),
  ),
  tax_details: t.array(
    t.type({ amount: decimal, rate: decimal, tax_code: nullable(TaxCode), taxable_amount: decimal }),
  ),
  items: t.array(LineItem),
  attachments: t.array(AttachmentAnswer),
  allowances: t.array(AllowanceCharge),
  charges: t.array(AllowanceCharge),
};

/** Why the calling tenant cannot send a document (domain/peppol/senderIdentity.ts SendBlock). */
const SendBlockedAnswer = t.type({
  /** The document's field of the issuer's electronic address: vendor_peppol_id (customer_peppol_id when self-billed). */
  field: t.string,
  /** The same in the UBL, as a 422 of the send names it: ['document', 'AccountingSupplierParty', 'EndpointID']. */
  loc: t.array(t.string),
  message: t.string,
  issuer_peppol_id: nullable(t.string),
  /** The participant ids the tenant may send as; empty when it holds none. */
  allowed_ids: t.array(t.string),
});

/** The buyer's answer: given (inbound) or received from the buyer (outbound); null until then. */
const InvoiceResponse = nullable(
  t.type({
    status: oneOf(['accepted', 'rejected']),
    code: oneOf(['AP', 'RE']),
    reason: text,
    responded_at: t.string,
  }),
);

/**
 * The Document resource. In a list page, a document past the page's line budget comes without its
 * lines (`items_omitted`, `line_count`).
 */
export const DocumentAnswer = t.intersection([
  t.type({ ...documentFields, invoice_response: InvoiceResponse, send_blocked: nullable(SendBlockedAnswer) }),
  t.partial({ id: t.string, created_at: t.string, items_omitted: t.boolean, line_count: t.number }),
]);

/** `GET /api/documents` (skip and limit). */
export const DocumentListAnswer = t.type({
  documents: t.array(DocumentAnswer),
  total: t.number,
  skip: t.number,
  limit: t.number,
});

/** The outbox, drafts and inbox lists. */
export const DocumentPageAnswer = pageOf(DocumentAnswer);

/** One problem as the Validation result lists it. */
const ValidationIssue = t.type({
  message: t.string,
  type: oneOf(['error', 'warning']),
  flag: oneOf(['fatal', 'warning']),
  rule_id: text,
  location: text,
  schematron: t.string,
});

/** The Validation result: `ubl_document` when the JSON converted to valid UBL. */
export const ValidationAnswer = t.intersection([
  t.type({
    id: t.string,
    file_name: text,
    is_valid: t.boolean,
    issues: t.array(ValidationIssue),
    rule_set: t.string,
  }),
  t.partial({ ubl_document: text }),
]);

/** `POST /api/documents/pdf`: the document read, whether it is compliant, and how it was read. */
export const PdfCreationAnswer = t.intersection([
  t.type({
    ...documentFields,
    success: t.boolean,
    ubl_document: text,
    issues: t.array(ValidationIssue),
    extraction: t.type({
      method: oneOf(['embedded_ubl', 'embedded_cii', 'text', 'none']),
      embedded_file: text,
      pages: t.number,
      warnings: t.array(t.string),
    }),
  }),
  // A stored draft (id) says, as every document does, whether this tenant may send it.
  t.partial({
    id: t.string,
    created_at: t.string,
    invoice_response: InvoiceResponse,
    send_blocked: nullable(SendBlockedAnswer),
  }),
]);

/** `GET /api/documents/{id}/ubl` as JSON: the UBL's metadata. */
export const UblAnswer = t.type({
  id: t.string,
  file_name: t.string,
  file_hash: t.string,
  file_size: t.number,
  sender_peppol_scheme: text,
  sender_peppol_id: text,
  receiver_peppol_scheme: text,
  receiver_peppol_id: text,
  signed_url: t.string,
  validated_at: text,
});

/** `GET /api/validate/rule-sets`. */
export const RuleSetsAnswer = t.type({
  today: t.string,
  in_force: t.string,
  rule_sets: t.array(
    t.type({
      id: t.string,
      name: t.string,
      peppol_bis: t.string,
      en16931_ubl: t.string,
      valid_from: text,
      release: t.string,
      in_force: t.boolean,
    }),
  ),
});

/** `GET /api/documents/{id}/history`: the events, without payloads. */
export const HistoryAnswer = t.type({
  document_id: t.string,
  events: t.array(
    t.type({
      id: t.string,
      type: t.string,
      revision: t.number,
      position: t.string,
      recorded_at: t.string,
      /** Who caused it, in words: "API key 'erp' (…)", "the operator", "access point POP000123", "delivery job". */
      actor: t.string,
      /** Who caused it, as recorded: kind (api_key, organization_admin, operator, access_point, system, unknown) and its ids. */
      actor_detail: t.record(t.string, nullable(t.string)),
      request_id: text,
      data: t.UnknownRecord,
    }),
  ),
});

const RemoteAccessPoint = t.type({
  seat_id: text,
  subject: t.string,
  serial: t.string,
  issuer: t.string,
  valid_from: t.string,
  valid_to: t.string,
});

const AttemptReport = t.intersection([
  t.type({
    attempt: t.number,
    retry: t.number,
    transport: t.string,
    receiver: t.string,
    started_at: t.string,
    finished_at: t.string,
    duration_ms: t.number,
    outcome: t.string,
    error: text,
    message_id: t.string,
    next_attempt_at: text,
  }),
  // Over Peppol AS4 only.
  t.partial({
    as4_message_id: t.string,
    endpoint_url: t.string,
    receipt_received_at: text,
    receipt_verified: nullable(t.boolean),
    receipt_verification: text,
    remote_ap: nullable(RemoteAccessPoint),
    ebms_error_codes: nullable(t.array(t.string)),
  }),
]);

/** The receiving provider's Message Level Status about a delivery (AP, AB: delivered; RE: rejected). */
const MlsReport = t.type({
  code: text,
  description: text,
  issues: t.array(t.type({ location: text, description: text, reason: text })),
  /** Whether the MLS passed the SCH-MLS rules; `problems` names those it broke. */
  valid: t.boolean,
  problems: t.array(t.string),
  mls_id: text,
  sender_ap: t.string,
  received_at: t.string,
});

/** `GET /api/documents/{id}/transmission-report`. */
export const TransmissionReportAnswer = t.intersection([
  t.type({
    document_id: t.string,
    state: t.string,
    direction: text,
    attempts_total: t.number,
    deliveries: t.array(
      t.type({
        delivery_id: t.string,
        message_id: t.string,
        transport: t.string,
        sender_peppol_id: text,
        receiver_peppol_id: text,
        email: text,
        requested_at: t.string,
        requested_by: text,
        status: oneOf(['in_progress', 'sent', 'failed']),
        completed_at: text,
        failure_reason: text,
        next_attempt_at: text,
        attempts: t.array(AttemptReport),
        mls: nullable(MlsReport),
      }),
    ),
    received: nullable(
      t.intersection([
        t.type({ message_id: t.string, sender_peppol_id: text, received_at: t.string }),
        t.partial({ sender_ap: t.string }),
      ]),
    ),
    response: nullable(t.type({ code: oneOf(['AP', 'RE']), reason: text, responded_at: t.string })),
  }),
  // A received document's answers taken back to the sender's access point, attempt by attempt.
  t.partial({ response_deliveries: t.array(t.UnknownRecord) }),
]);
