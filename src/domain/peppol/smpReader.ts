import libxmljs from 'libxmljs';
import type { XMLElement as Element, XMLDocument } from 'libxmljs';
import {
  BUSINESS_CARD_NAMESPACES,
  IDS_NS,
  SMP_NS,
  WSA_NS,
  type BusinessCard,
  type BusinessEntity,
  type Identifier,
  type ServiceInformation,
  type SmpEndpoint,
} from './smpDocuments.js';

/** A response of an SMP that is not what Peppol SMP 1.x specifies. */
export class SmpFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SmpFormatError';
  }
}

/** SMP responses are a few kB; anything far larger is refused before parsing. */
export const MAX_SMP_RESPONSE_BYTES = 2 * 1024 * 1024;

/**
 * Parses XML from another server: no DOCTYPE at all, no entity substitution, no DTD loading,
 * no network (as the UBL parser does).
 */
export function parseUntrustedXml(text: string): XMLDocument {
  if (text.length > MAX_SMP_RESPONSE_BYTES) throw new SmpFormatError(`response too large (${text.length} characters)`);
  if (/<!DOCTYPE/i.test(text) || /<!ENTITY/i.test(text)) throw new SmpFormatError('DTD / DOCTYPE declarations are not accepted');
  let doc: XMLDocument;
  try {
    doc = libxmljs.parseXml(text, { replaceEntities: false, validateEntities: false, nonet: true, recover: false, flags: [libxmljs.XMLParseFlags.XML_PARSE_NONET] });
  } catch (error) {
    throw new SmpFormatError(`malformed XML: ${(error as Error).message.trim()}`);
  }
  if (!doc.root()) throw new SmpFormatError('document has no root element');
  return doc;
}

const NS = { smp: SMP_NS, ids: IDS_NS, wsa: WSA_NS };

const text = (element: Element | null | undefined): string | null => {
  const value = element?.text().trim();
  return value ? value : null;
};

const child = (parent: Element, xpath: string): Element | null => (parent.get(xpath, NS) as Element | null) ?? null;

function identifierOf(element: Element | null, what: string): Identifier {
  const value = text(element);
  if (!element || !value) throw new SmpFormatError(`${what} is missing`);
  return { scheme: element.getAttribute('scheme')?.value() ?? '', value };
}

function rootIs(doc: XMLDocument, name: string, namespaces: readonly string[]): Element {
  const root = doc.root()!;
  const ns = root.namespace()?.href() ?? '';
  if (root.name() !== name || !namespaces.includes(ns)) throw new SmpFormatError(`expected {${namespaces[0]}}${name}, got {${ns}}${root.name()}`);
  return root;
}

/** A ServiceGroup: the participant and the hrefs of its service metadata. */
export function readServiceGroup(doc: XMLDocument): { participant: Identifier; references: string[] } {
  const root = rootIs(doc, 'ServiceGroup', [SMP_NS]);
  const participant = identifierOf(child(root, 'ids:ParticipantIdentifier'), 'ParticipantIdentifier');
  const references = (root.find('smp:ServiceMetadataReferenceCollection/smp:ServiceMetadataReference', NS) as Element[])
    .map((ref) => ref.getAttribute('href')?.value().trim() ?? '')
    .filter((href) => href !== '');
  return { participant, references };
}

export type ServiceMetadataContent =
  | { kind: 'information'; information: ServiceInformation }
  | { kind: 'redirect'; href: string; certificateUid: string | null };

function endpointOf(element: Element): SmpEndpoint {
  const address = text(child(element, 'wsa:EndpointReference/wsa:Address'));
  if (!address) throw new SmpFormatError('Endpoint without EndpointReference/Address');
  return {
    transportProfile: element.getAttribute('transportProfile')?.value() ?? '',
    address,
    requireBusinessLevelSignature: text(child(element, 'smp:RequireBusinessLevelSignature')) === 'true',
    activationDate: text(child(element, 'smp:ServiceActivationDate')),
    expirationDate: text(child(element, 'smp:ServiceExpirationDate')),
    certificate: text(child(element, 'smp:Certificate'))?.replace(/\s+/g, '') ?? null,
    description: text(child(element, 'smp:ServiceDescription')),
    technicalContactUrl: text(child(element, 'smp:TechnicalContactUrl')),
    technicalInformationUrl: text(child(element, 'smp:TechnicalInformationUrl')),
  };
}

/** SignedServiceMetadata (or a bare ServiceMetadata): the service information, or a redirect. */
export function readServiceMetadata(doc: XMLDocument): ServiceMetadataContent {
  const root = doc.root()!;
  const metadata =
    root.name() === 'SignedServiceMetadata' && root.namespace()?.href() === SMP_NS
      ? child(root, 'smp:ServiceMetadata')
      : rootIs(doc, 'ServiceMetadata', [SMP_NS]);
  if (!metadata) throw new SmpFormatError('SignedServiceMetadata without ServiceMetadata');
  const redirect = child(metadata, 'smp:Redirect');
  if (redirect) {
    const href = redirect.getAttribute('href')?.value().trim();
    if (!href) throw new SmpFormatError('Redirect without href');
    return { kind: 'redirect', href, certificateUid: text(child(redirect, 'smp:CertificateUID')) };
  }
  const information = child(metadata, 'smp:ServiceInformation');
  if (!information) throw new SmpFormatError('ServiceMetadata has neither ServiceInformation nor Redirect');
  return {
    kind: 'information',
    information: {
      participant: identifierOf(child(information, 'ids:ParticipantIdentifier'), 'ParticipantIdentifier'),
      documentType: identifierOf(child(information, 'ids:DocumentIdentifier'), 'DocumentIdentifier'),
      processes: (information.find('smp:ProcessList/smp:Process', NS) as Element[]).map((process) => ({
        processId: identifierOf(child(process, 'ids:ProcessIdentifier'), 'ProcessIdentifier'),
        endpoints: (process.find('smp:ServiceEndpointList/smp:Endpoint', NS) as Element[]).map(endpointOf),
      })),
    },
  };
}

/** A Peppol Directory business card of any published version (v1 2016-01, v2 2016-11, v3 2018-06). */
export function readBusinessCard(doc: XMLDocument): BusinessCard {
  const root = rootIs(doc, 'BusinessCard', BUSINESS_CARD_NAMESPACES);
  const bc = { bc: root.namespace()!.href() };
  const participant = identifierOf(root.get('bc:ParticipantIdentifier', bc) as Element | null, 'ParticipantIdentifier');
  const all = (parent: Element, xpath: string) => parent.find(xpath, bc) as Element[];
  const entities: BusinessEntity[] = all(root, 'bc:BusinessEntity').map((entity) => ({
    names: all(entity, 'bc:Name').map((name) => text(name)).filter((name): name is string => name !== null),
    countryCode: text(entity.get('bc:CountryCode', bc) as Element | null),
    registrationDate: entity.getAttribute('registrationDate')?.value() ?? text(entity.get('bc:RegistrationDate', bc) as Element | null),
    geographicalInformation: text(entity.get('bc:GeographicalInformation', bc) as Element | null),
    identifiers: all(entity, 'bc:Identifier').map((id) => ({ scheme: id.getAttribute('scheme')?.value() ?? '', value: text(id) ?? '' })),
    websites: all(entity, 'bc:WebsiteURI').map((site) => text(site)).filter((site): site is string => site !== null),
    additionalInformation: text(entity.get('bc:AdditionalInformation', bc) as Element | null)?.replace(/\s+/g, ' ') ?? null,
  }));
  return { participant, entities };
}
