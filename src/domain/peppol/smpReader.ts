import { xmlPath } from '../xml/xmlPath.js';
import { str, type XNode as Element } from '../xml/xmlTree.js';
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

/*
 * SMP responses and business cards, read from the tree the edge parsed them into
 * (infrastructure/peppol/smpXml.ts: no DOCTYPE, no entities, no network, bounded).
 */

const { all, one, attr } = xmlPath({ smp: SMP_NS, ids: IDS_NS, wsa: WSA_NS });

const text = (element: Element | null | undefined): string | null => {
  const value = element ? str(element).trim() : '';
  return value ? value : null;
};

const child = (parent: Element, path: string): Element | null => one(parent, path);

/** An attribute as written, untrimmed ('' when absent). */
const attribute = (element: Element, name: string): string => element.attrs[name] ?? '';

function identifierOf(element: Element | null, what: string): Identifier {
  const value = text(element);
  if (!element || !value) throw new SmpFormatError(`${what} is missing`);
  return { scheme: attribute(element, 'scheme'), value };
}

function rootIs(root: Element, name: string, namespaces: readonly string[]): Element {
  if (root.local !== name || !namespaces.includes(root.ns))
    throw new SmpFormatError(`expected {${namespaces[0]}}${name}, got {${root.ns}}${root.local}`);
  return root;
}

/** A ServiceGroup: the participant and the hrefs of its service metadata. */
export function readServiceGroup(tree: Element): { participant: Identifier; references: string[] } {
  const root = rootIs(tree, 'ServiceGroup', [SMP_NS]);
  const participant = identifierOf(child(root, 'ids:ParticipantIdentifier'), 'ParticipantIdentifier');
  const references = all(root, 'smp:ServiceMetadataReferenceCollection/smp:ServiceMetadataReference')
    .map((ref) => attr(ref, 'href') ?? '')
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
    transportProfile: attribute(element, 'transportProfile'),
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
export function readServiceMetadata(root: Element): ServiceMetadataContent {
  const metadata =
    root.local === 'SignedServiceMetadata' && root.ns === SMP_NS
      ? child(root, 'smp:ServiceMetadata')
      : rootIs(root, 'ServiceMetadata', [SMP_NS]);
  if (!metadata) throw new SmpFormatError('SignedServiceMetadata without ServiceMetadata');
  const redirect = child(metadata, 'smp:Redirect');
  if (redirect) {
    const href = attr(redirect, 'href');
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
      processes: all(information, 'smp:ProcessList/smp:Process').map((process) => ({
        processId: identifierOf(child(process, 'ids:ProcessIdentifier'), 'ProcessIdentifier'),
        endpoints: all(process, 'smp:ServiceEndpointList/smp:Endpoint').map(endpointOf),
      })),
    },
  };
}

/** A Peppol Directory business card of any published version (v1 2016-01, v2 2016-11, v3 2018-06). */
export function readBusinessCard(tree: Element): BusinessCard {
  const root = rootIs(tree, 'BusinessCard', BUSINESS_CARD_NAMESPACES);
  const bc = businessCardPaths(root.ns);
  const participant = identifierOf(bc.one(root, 'bc:ParticipantIdentifier'), 'ParticipantIdentifier');
  const entities: BusinessEntity[] = bc.all(root, 'bc:BusinessEntity').map((entity) => ({
    names: bc
      .all(entity, 'bc:Name')
      .map((name) => text(name))
      .filter((name): name is string => name !== null),
    countryCode: text(bc.one(entity, 'bc:CountryCode')),
    registrationDate: entity.attrs.registrationDate ?? text(bc.one(entity, 'bc:RegistrationDate')),
    geographicalInformation: text(bc.one(entity, 'bc:GeographicalInformation')),
    identifiers: bc
      .all(entity, 'bc:Identifier')
      .map((id) => ({ scheme: attribute(id, 'scheme'), value: text(id) ?? '' })),
    websites: bc
      .all(entity, 'bc:WebsiteURI')
      .map((site) => text(site))
      .filter((site): site is string => site !== null),
    additionalInformation: text(bc.one(entity, 'bc:AdditionalInformation'))?.replace(/\s+/g, ' ') ?? null,
  }));
  return { participant, entities };
}

// The business card's elements are in its version's namespace: one set of paths per version.
const cardPaths = new Map<string, ReturnType<typeof xmlPath>>();
function businessCardPaths(ns: string): ReturnType<typeof xmlPath> {
  let paths = cardPaths.get(ns);
  if (!paths) {
    paths = xmlPath({ bc: ns });
    cardPaths.set(ns, paths);
  }
  return paths;
}
