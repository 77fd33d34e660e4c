import {
  BIS_BILLING_CREDIT_NOTE,
  BIS_BILLING_INVOICE,
  BIS_BILLING_PROCESS,
  DOCUMENT_ID_SCHEME,
  INVOICE_RESPONSE_DOCUMENT_TYPE,
  INVOICE_RESPONSE_PROCESS,
  PROCESS_ID_SCHEME,
} from './smpDocuments.js';
import type { ScopedId } from './as4/sbdh.js';
import { MLS_DOCUMENT_TYPE, MLS_PROCESS } from './mls/messageLevelStatus.js';
import type { DocumentType } from '../document/invoice/documentModel.js';
import { ublKindOf } from '../document/ubl/ublNames.js';

/** A document type together with the process it travels in: what an SMP lookup and an SBDH name. */
export interface PeppolDocumentKind {
  documentType: ScopedId;
  process: ScopedId;
}

const kind = (documentType: string, process: string): PeppolDocumentKind => ({
  documentType: { scheme: DOCUMENT_ID_SCHEME, value: documentType },
  process: { scheme: PROCESS_ID_SCHEME, value: process },
});

/** Peppol BIS Billing 3.0 invoice. */
export const PEPPOL_INVOICE = kind(BIS_BILLING_INVOICE, BIS_BILLING_PROCESS);
/** Peppol BIS Billing 3.0 credit note. */
export const PEPPOL_CREDIT_NOTE = kind(BIS_BILLING_CREDIT_NOTE, BIS_BILLING_PROCESS);
/**
 * The Peppol document type and process a document of ours travels as: its UBL root and
 * customization (billing, or self-billing for self-billed invoices and credit notes), syntax 2.1.
 */
export function peppolKindOf(type: DocumentType): PeppolDocumentKind {
  const { root, customizationId, profileId } = ublKindOf(type);
  return kind(`urn:oasis:names:specification:ubl:schema:xsd:${root}-2::${root}##${customizationId}::2.1`, profileId);
}
/** Peppol BIS Invoice Response 3.0 (T111), the answer to a received invoice. */
export const PEPPOL_INVOICE_RESPONSE = kind(INVOICE_RESPONSE_DOCUMENT_TYPE, INVOICE_RESPONSE_PROCESS);

/** Peppol Message Level Status 1.0, between service providers. */
export const PEPPOL_MLS = kind(MLS_DOCUMENT_TYPE, MLS_PROCESS);
/** The Peppol Reporting process of both monthly reports (peppol-reporting's CPeppolReporting). */
export const PEPPOL_REPORTING_PROCESS = 'urn:fdc:peppol.eu:edec:bis:reporting:1.0';
/** Transaction Statistics Report 1.0, monthly to OpenPeppol. */
export const PEPPOL_TSR = kind(
  'urn:fdc:peppol:transaction-statistics-report:1.0::TransactionStatisticsReport##urn:fdc:peppol.eu:edec:trns:transaction-statistics-reporting:1.0::1.0',
  PEPPOL_REPORTING_PROCESS,
);
/** End User Statistics Report 1.1, monthly to OpenPeppol. */
export const PEPPOL_EUSR = kind(
  'urn:fdc:peppol:end-user-statistics-report:1.1::EndUserStatisticsReport##urn:fdc:peppol.eu:edec:trns:end-user-statistics-report:1.1::1.1',
  PEPPOL_REPORTING_PROCESS,
);

/** The SBDH DocumentIdentification a Peppol document type implies: Standard, Type and TypeVersion. */
export interface DocumentTypeParts {
  /** The root element's namespace, e.g. urn:oasis:names:specification:ubl:schema:xsd:Invoice-2. */
  standard: string;
  /** The root element's local name, e.g. Invoice. */
  type: string;
  /** The syntax version after the last `::`, e.g. 2.1. */
  typeVersion: string;
}

/**
 * Splits a Peppol document type identifier `<namespace>::<root>##<customization>::<version>`
 * (Peppol Policy for use of identifiers 4.x, syntax-specific form); null for other forms.
 */
export function documentTypeParts(value: string): DocumentTypeParts | null {
  const match = /^(.+?)::([^:#]+)##.+::([^:]+)$/.exec(value.trim());
  if (!match) return null;
  return { standard: match[1]!, type: match[2]!, typeVersion: match[3]! };
}
