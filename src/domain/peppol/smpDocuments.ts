import { setAttribute, writeXml, xmlBuilder } from '../xml/xmlWriter.js';
import type { XNode } from '../xml/xmlTree.js';
import { MLS_DOCUMENT_TYPE, MLS_PROCESS } from './mls/messageLevelStatus.js';

/** Peppol SMP 1.x (busdox) namespaces and identifier schemes. */
export const SMP_NS = 'http://busdox.org/serviceMetadata/publishing/1.0/';
export const IDS_NS = 'http://busdox.org/transport/identifiers/1.0/';
export const WSA_NS = 'http://www.w3.org/2005/08/addressing';
export const DSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';
/** Peppol Directory business card, version 3 (the current one). */
export const BUSINESS_CARD_NS = 'http://www.peppol.eu/schema/pd/businesscard/20180621/';
export const BUSINESS_CARD_NAMESPACES = [
  BUSINESS_CARD_NS,
  'http://www.peppol.eu/schema/pd/businesscard/20161123/',
  'http://www.peppol.eu/schema/pd/businesscard/20160112/',
] as const;

export const DOCUMENT_ID_SCHEME = 'busdox-docid-qns';
export const PROCESS_ID_SCHEME = 'cenbii-procid-ubl';
export const AS4_TRANSPORT_PROFILE = 'peppol-transport-as4-v2_0';
export const BIS_BILLING_PROCESS = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';
export const BIS_BILLING_INVOICE =
  'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1';
export const BIS_BILLING_CREDIT_NOTE =
  'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2::CreditNote##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1';
/** Peppol BIS Invoice Response 3 (T111): the buyer's answer to an invoice, which our senders receive. */
export const INVOICE_RESPONSE_PROCESS = 'urn:fdc:peppol.eu:poacc:bis:invoice_response:3';
export const INVOICE_RESPONSE_DOCUMENT_TYPE =
  'urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2::ApplicationResponse##urn:fdc:peppol.eu:poacc:trns:invoice_response:3::2.1';
/**
 * What this service receives: Peppol BIS Billing 3.0 invoices and credit notes, and the Invoice
 * Responses that answer the invoices its tenants sent.
 */
export const RECEIVED_DOCUMENT_TYPES: readonly string[] = [
  BIS_BILLING_INVOICE,
  BIS_BILLING_CREDIT_NOTE,
  INVOICE_RESPONSE_DOCUMENT_TYPE,
];

/** The process a received document type belongs to, as our ServiceMetadata names it. */
export const processOfDocumentType = (documentType: string): string =>
  documentType === INVOICE_RESPONSE_DOCUMENT_TYPE
    ? INVOICE_RESPONSE_PROCESS
    : documentType === MLS_DOCUMENT_TYPE
      ? MLS_PROCESS
      : BIS_BILLING_PROCESS;

export interface Identifier {
  scheme: string;
  value: string;
}

export interface SmpEndpoint {
  transportProfile: string;
  address: string;
  requireBusinessLevelSignature: boolean;
  activationDate: string | null;
  expirationDate: string | null;
  /** Base64 DER of the access point certificate; null when none is configured (an empty element is written). */
  certificate: string | null;
  description: string | null;
  technicalContactUrl: string | null;
  technicalInformationUrl: string | null;
}

export interface SmpProcess {
  processId: Identifier;
  endpoints: SmpEndpoint[];
}

export interface ServiceInformation {
  participant: Identifier;
  documentType: Identifier;
  processes: SmpProcess[];
}

export interface BusinessEntity {
  names: string[];
  countryCode: string | null;
  /** YYYY-MM-DD */
  registrationDate: string | null;
  geographicalInformation: string | null;
  identifiers: Identifier[];
  websites: string[];
  additionalInformation: string | null;
}

export interface BusinessCard {
  participant: Identifier;
  entities: BusinessEntity[];
}

/** `busdox-docid-qns::<value>`, the form of a document type id in SMP URLs. */
export const documentTypeUri = (value: string) => `${DOCUMENT_ID_SCHEME}::${value}`;

const SMP = { smp: SMP_NS, ids: IDS_NS, wsa: WSA_NS };
const { agg, leaf, element } = xmlBuilder(SMP);
const card = xmlBuilder({ '': BUSINESS_CARD_NS });

const identifier = (name: string, id: Identifier, build = element): XNode =>
  build(name, { scheme: id.scheme }, id.value);
/** Elements the schema requires even when we have nothing to say (an empty string is schema-valid). */
const required = (name: string, value: string | null): XNode => element(name, {}, value ?? '');

/** GET /{participant}: the participant and one reference per document type it receives. */
export function serviceGroupXml(participant: Identifier, references: readonly string[]): string {
  return writeXml('smp:ServiceGroup', SMP, [
    identifier('ids:ParticipantIdentifier', participant),
    element(
      'smp:ServiceMetadataReferenceCollection',
      {},
      '',
      references.map((href) => element('smp:ServiceMetadataReference', { href }, '')),
    ),
  ]);
}

function endpointNode(endpoint: SmpEndpoint): XNode {
  const node = agg(
    'smp:Endpoint',
    agg('wsa:EndpointReference', leaf('wsa:Address', endpoint.address)),
    required('smp:RequireBusinessLevelSignature', String(endpoint.requireBusinessLevelSignature)),
    leaf('smp:ServiceActivationDate', endpoint.activationDate),
    leaf('smp:ServiceExpirationDate', endpoint.expirationDate),
    required('smp:Certificate', endpoint.certificate),
    required('smp:ServiceDescription', endpoint.description),
    required('smp:TechnicalContactUrl', endpoint.technicalContactUrl),
    leaf('smp:TechnicalInformationUrl', endpoint.technicalInformationUrl),
  )!;
  setAttribute(node, 'transportProfile', endpoint.transportProfile);
  return node;
}

/**
 * GET /{participant}/services/{documentType}: SignedServiceMetadata whose ServiceMetadata lists
 * the processes and endpoints. The signature (when this SMP has a signing key) is appended as the
 * root's last child by the signer, as the SMP 1.x schema orders it.
 */
export function signedServiceMetadataXml(info: ServiceInformation): string {
  return writeXml('smp:SignedServiceMetadata', SMP, [
    agg(
      'smp:ServiceMetadata',
      agg(
        'smp:ServiceInformation',
        identifier('ids:ParticipantIdentifier', info.participant),
        identifier('ids:DocumentIdentifier', info.documentType),
        agg(
          'smp:ProcessList',
          info.processes.map((process) =>
            agg(
              'smp:Process',
              identifier('ids:ProcessIdentifier', process.processId),
              agg('smp:ServiceEndpointList', process.endpoints.map(endpointNode)),
            ),
          ),
        ),
      ),
    ),
  ]);
}

/** GET /businesscard/{participant}: the Peppol Directory business card (v3, 2018-06-21 schema). */
export function businessCardXml(businessCard: BusinessCard): string {
  return writeXml('BusinessCard', { '': BUSINESS_CARD_NS }, [
    identifier('ParticipantIdentifier', businessCard.participant, card.element),
    businessCard.entities.map((entity) => {
      const node = card.agg(
        'BusinessEntity',
        entity.names.map((name) => card.leaf('Name', name)),
        card.leaf('CountryCode', entity.countryCode),
        card.leaf('GeographicalInformation', entity.geographicalInformation),
        entity.identifiers.map((id) => card.leaf('Identifier', id.value, { scheme: id.scheme })),
        entity.websites.map((site) => card.leaf('WebsiteURI', site)),
        card.leaf('AdditionalInformation', entity.additionalInformation),
      )!;
      if (entity.registrationDate) setAttribute(node, 'registrationDate', entity.registrationDate);
      return node;
    }),
  ]);
}
