/**
 * Ports to the Peppol network: the SML (DNS), SMPs (HTTP), XML signatures, the Peppol Directory
 * and the SML's management service. The adapters are in src/infrastructure/peppol.
 */
import type { XNode } from '../../domain/xml/xmlTree.js';

/** A certificate as lookups report it (the e-invoice-api client's Certificate shape). */
export interface CertificateReport {
  status: 'success' | 'error';
  details: Record<string, unknown> | null;
  error: string | null;
}

export interface SignatureReport {
  /** Whether the document carries an enveloped XMLDSig signature at all. */
  signed: boolean;
  valid: boolean;
  error: string | null;
  /** The signer's certificate, checked (validity, and issuer when trusted CAs are configured). */
  certificate: CertificateReport | null;
  /** When valid: the signed content (the document without the signature), to read data from. */
  signedXml: string | null;
}

export interface XmlSignatures {
  verify(xml: string): SignatureReport;
  describeCertificate(base64Der: string, purpose: string): CertificateReport;
}

/**
 * XML another server sent (an SMP's answer), read into the tree the SMP readers take: parsed at
 * the edge with no DOCTYPE, entities or network, bounded; SmpFormatError when it is not acceptable.
 */
export interface RemoteXmlReader {
  read(xml: string): XNode;
}
/** Injection token of the `RemoteXmlReader`. */
export const REMOTE_XML_READER = Symbol('RemoteXmlReader');

export interface XmlSigner {
  /** Appends an enveloped signature as the last child of the root element. */
  sign(xml: string): string;
}

export interface NaptrAnswer {
  flags: string;
  service: string;
  regexp: string;
  replacement: string;
  order: number;
  preference: number;
}

export type SmlAnswer =
  | { kind: 'found'; smpUrl: string; records: NaptrAnswer[] }
  /** The SML has no (usable) record: the participant is not registered in Peppol. */
  | { kind: 'not_found'; reason: string };

export interface SmlLocator {
  readonly zone: string;
  /**
   * Resolves the U-NAPTR record of the name; network failures are thrown. `cnameName`: the
   * participant's CNAME-form name, tried when there is no U-NAPTR record and the locator is
   * configured to fall back to it.
   */
  locate(dnsName: string, cnameName?: string): Promise<SmlAnswer>;
  /** IP addresses of a host, best effort (an empty list when unknown). */
  addresses(host: string): Promise<string[]>;
}

export interface HttpResponse {
  status: number;
  body: string;
  contentType: string | null;
}

export interface HttpGetter {
  get(url: string): Promise<HttpResponse>;
}

/** One match of the Peppol Directory search API (search/1.0/json). */
export interface DirectoryMatch {
  participantID: { scheme: string; value: string };
  docTypes: Array<{ scheme: string; value: string }>;
  entities: Array<{
    name: Array<{ name: string; language?: string }>;
    countryCode: string | null;
    geoInfo: string | null;
    identifiers: Array<{ scheme: string; value: string }>;
    websites: string[];
    additionalInfo: string | null;
    regDate: string | null;
  }>;
}

export interface DirectoryResult {
  total: number;
  matches: DirectoryMatch[];
}

export interface PeppolDirectory {
  search(query: string, countryCode: string | null): Promise<DirectoryResult>;
}

/** Refusal of the SML (a SOAP fault), e.g. the participant is registered by another SMP. */
export class SmlRefusedError extends Error {
  constructor(
    message: string,
    readonly faultCode: 'not_found' | 'conflict' | 'unauthorized' | 'other',
  ) {
    super(message);
    this.name = 'SmlRefusedError';
  }
}

/** Registration of participants at the SML for this SMP; off unless configured. */
export interface SmlPublisher {
  readonly enabled: boolean;
  create(participantId: string): Promise<void>;
  delete(participantId: string): Promise<void>;
}

export const XML_SIGNATURES = Symbol('XmlSignatures');
/** `XmlSigner | null`: null when no SMP signing key is configured (ServiceMetadata is then unsigned). */
export const XML_SIGNER = Symbol('XmlSigner');
export const SML_LOCATOR = Symbol('SmlLocator');
export const HTTP_GETTER = Symbol('HttpGetter');
/** `PeppolDirectory | null`: null when no Directory is configured (search is then local only). */
export const PEPPOL_DIRECTORY = Symbol('PeppolDirectory');
export const SML_PUBLISHER = Symbol('SmlPublisher');
