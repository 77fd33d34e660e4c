import type { DocumentType } from '../invoice/documentModel.js';
import { assertNever } from '../../decider.js';

// The UBL 2.1 namespaces, one copy: the XML tree's (domain/xml), which the rule engine shares.
export { NS } from '../../xml/xmlNames.js';

export const BILLING_CUSTOMIZATION_ID = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';
export const BILLING_PROFILE_ID = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';
export const SELFBILLING_CUSTOMIZATION_ID =
  'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:selfbilling:3.0';
export const SELFBILLING_PROFILE_ID = 'urn:fdc:peppol.eu:2017:poacc:selfbilling:01:1.0';

export interface UblKind {
  root: 'Invoice' | 'CreditNote';
  typeCode: string;
  customizationId: string;
  profileId: string;
}

/** How each document type is expressed in Peppol BIS (billing or self-billing). */
export const ublKindOf = (type: DocumentType): UblKind => {
  switch (type) {
    case 'INVOICE':
      return {
        root: 'Invoice',
        typeCode: '380',
        customizationId: BILLING_CUSTOMIZATION_ID,
        profileId: BILLING_PROFILE_ID,
      };
    case 'DEBIT_NOTE':
      // A debit note is an Invoice with type 383 in Peppol BIS (there is no DebitNote root in the profile).
      return {
        root: 'Invoice',
        typeCode: '383',
        customizationId: BILLING_CUSTOMIZATION_ID,
        profileId: BILLING_PROFILE_ID,
      };
    case 'CREDIT_NOTE':
      return {
        root: 'CreditNote',
        typeCode: '381',
        customizationId: BILLING_CUSTOMIZATION_ID,
        profileId: BILLING_PROFILE_ID,
      };
    case 'SELFBILLING_INVOICE':
      return {
        root: 'Invoice',
        typeCode: '389',
        customizationId: SELFBILLING_CUSTOMIZATION_ID,
        profileId: SELFBILLING_PROFILE_ID,
      };
    case 'SELFBILLING_CREDIT_NOTE':
      return {
        root: 'CreditNote',
        typeCode: '261',
        customizationId: SELFBILLING_CUSTOMIZATION_ID,
        profileId: SELFBILLING_PROFILE_ID,
      };
    default:
      return assertNever(type);
  }
};

/** Inverse of ublKindOf for documents we receive, which may use any UNTDID 1001 code. */
export const documentTypeOf = (
  root: 'Invoice' | 'CreditNote',
  typeCode: string,
  customizationId: string,
): DocumentType => {
  const selfBilling = customizationId.includes(':selfbilling:') || typeCode === '389' || typeCode === '261';
  if (root === 'CreditNote') return selfBilling ? 'SELFBILLING_CREDIT_NOTE' : 'CREDIT_NOTE';
  if (selfBilling) return 'SELFBILLING_INVOICE';
  if (typeCode === '383') return 'DEBIT_NOTE';
  return 'INVOICE';
};
