import type { PeppolId } from '../../domain/document/invoice/peppolId.js';
import { formatPeppolId, parsePeppolId } from '../../domain/document/invoice/peppolId.js';
import { PARTICIPANT_SCHEME, participantUri } from '../../domain/peppol/participantId.js';
import {
  AS4_TRANSPORT_PROFILE,
  DOCUMENT_ID_SCHEME,
  PROCESS_ID_SCHEME,
  RECEIVED_DOCUMENT_TYPES,
  businessCardXml,
  documentTypeUri,
  processOfDocumentType,
  serviceGroupXml,
  signedServiceMetadataXml,
  type BusinessCard,
  type ServiceInformation,
  type SmpEndpoint,
} from '../../domain/peppol/smpDocuments.js';
import { XML_SIGNER, type XmlSigner } from '../ports/peppolNetwork.js';
import { SERVICE_PROVIDER, type ServiceProvider } from '../ports/serviceProvider.js';
import { MLS_DOCUMENT_TYPE } from '../../domain/peppol/mls/messageLevelStatus.js';
import { participantKey } from '../../domain/peppol/participantId.js';
import { ParticipantRegistry, type RegisteredParticipant } from './participantRegistry.js';
import { inject, injectable } from '../injection.js';

export interface SmpSettings {
  /** Public base URL; null: the base URL of the request being answered. */
  publicUrl: string | null;
  /** Published AS4 endpoint; null: `<base>/as4`. */
  as4EndpointUrl: string | null;
  /** Base64 DER of the access point certificate; null: published empty. */
  as4Certificate: string | null;
  technicalContactUrl: string | null;
}

export const SMP_SETTINGS = Symbol('SmpSettings');

export interface PublishedParticipant {
  id: PeppolId;
  participant: RegisteredParticipant;
  /** What it receives: a tenant's participant the business documents, this provider's SPID the MLS. */
  documentTypes: readonly string[];
}

/** This service provider's SPID receives Message Level Status only. */
const PROVIDER_DOCUMENT_TYPES: readonly string[] = [MLS_DOCUMENT_TYPE];

/**
 * This instance as a Peppol SMP: the documents it publishes for every live (not simulated)
 * participant of its registry, and for this service provider's own SPID (`0242:…`, where other
 * providers send MLS). Every participant receives the same document types at the same AS4
 * endpoint, this service's; the SPID receives the MLS document type there.
 */
@injectable()
export class SmpPublication {
  /**
   * Signed ServiceMetadata by participant, document type and base URL. Its content depends on
   * nothing else, and signing (RSA plus canonicalisation) is most of the cost of an SMP request.
   */
  private readonly signedCache = new Map<string, string>();
  private static readonly CACHE_SIZE = 2000;

  constructor(
    @inject(ParticipantRegistry) private readonly registry: ParticipantRegistry,
    @inject(SMP_SETTINGS) private readonly settings: SmpSettings,
    @inject(XML_SIGNER) private readonly signer: XmlSigner | null,
    @inject(SERVICE_PROVIDER) private readonly provider: Pick<ServiceProvider, 'participant' | 'country'>,
  ) {}

  /** The published participant an SMP path names (`iso6523-actorid-upis::0208:…`), or null. */
  async published(participantText: string): Promise<PublishedParticipant | null> {
    const parsed = parsePeppolId(participantText);
    if (!parsed.ok) return null;
    const spid = this.provider.participant;
    if (spid && participantKey(formatPeppolId(parsed.value)) === participantKey(spid)) return this.providerEntry(spid);
    const participant = await this.registry.findByPeppolId(formatPeppolId(parsed.value));
    if (!participant || participant.simulated) return null;
    const registered = parsePeppolId(participant.peppol_id);
    return registered.ok ? { id: registered.value, participant, documentTypes: RECEIVED_DOCUMENT_TYPES } : null;
  }

  /** This provider's SPID as a published participant of no tenant. */
  private providerEntry(spid: string): PublishedParticipant | null {
    const parsed = parsePeppolId(spid);
    if (!parsed.ok) return null;
    return {
      id: parsed.value,
      participant: {
        tenant_id: '',
        peppol_id: spid,
        company_name: `Peppol service provider ${spid}`,
        country_code: this.provider.country ?? 'ZZ',
        registered_at: new Date(0).toISOString(),
        simulated: false,
      },
      documentTypes: PROVIDER_DOCUMENT_TYPES,
    };
  }

  baseUrl(requestBase: string): string {
    return this.settings.publicUrl ?? requestBase;
  }

  serviceMetadataUrl(id: PeppolId, documentType: string, requestBase: string): string {
    return `${this.baseUrl(requestBase)}/${encodeURIComponent(participantUri(id))}/services/${encodeURIComponent(documentTypeUri(documentType))}`;
  }

  serviceGroupXml(published: PublishedParticipant, requestBase: string): string {
    const { id } = published;
    return serviceGroupXml(
      { scheme: PARTICIPANT_SCHEME, value: formatPeppolId(id) },
      published.documentTypes.map((documentType) => this.serviceMetadataUrl(id, documentType, requestBase)),
    );
  }

  /** The document type value of `busdox-docid-qns::<value>` when the participant receives it, else null (case-sensitive, as Peppol doc ids are). */
  documentType(published: PublishedParticipant, documentTypeText: string): string | null {
    const match = /^busdox-docid-qns::(.+)$/i.exec(documentTypeText);
    return match && published.documentTypes.includes(match[1]!) ? match[1]! : null;
  }

  endpoint(requestBase: string): SmpEndpoint {
    const base = this.baseUrl(requestBase);
    return {
      transportProfile: AS4_TRANSPORT_PROFILE,
      address: this.settings.as4EndpointUrl ?? `${base}/as4`,
      requireBusinessLevelSignature: false,
      activationDate: null,
      expirationDate: null,
      certificate: this.settings.as4Certificate,
      description: 'Invoicing service Peppol AS4 access point',
      technicalContactUrl: this.settings.technicalContactUrl ?? base,
      technicalInformationUrl: null,
    };
  }

  serviceInformation(id: PeppolId, documentType: string, requestBase: string): ServiceInformation {
    return {
      participant: { scheme: PARTICIPANT_SCHEME, value: formatPeppolId(id) },
      documentType: { scheme: DOCUMENT_ID_SCHEME, value: documentType },
      processes: [
        {
          processId: { scheme: PROCESS_ID_SCHEME, value: processOfDocumentType(documentType) },
          endpoints: [this.endpoint(requestBase)],
        },
      ],
    };
  }

  /** SignedServiceMetadata, signed when this SMP has a signing key (SMP_SIGNING_KEY_FILE). */
  serviceMetadataXml(id: PeppolId, documentType: string, requestBase: string): string {
    const key = `${formatPeppolId(id).toLowerCase()}|${documentType}|${this.baseUrl(requestBase)}`;
    const cached = this.signedCache.get(key);
    if (cached) return cached;
    const xml = signedServiceMetadataXml(this.serviceInformation(id, documentType, requestBase));
    const signed = this.signer ? this.signer.sign(xml) : xml;
    if (this.signedCache.size >= SmpPublication.CACHE_SIZE)
      this.signedCache.delete(this.signedCache.keys().next().value!);
    this.signedCache.set(key, signed);
    return signed;
  }

  businessCard(published: PublishedParticipant): BusinessCard {
    return {
      participant: { scheme: PARTICIPANT_SCHEME, value: formatPeppolId(published.id) },
      entities: [
        {
          names: [published.participant.company_name],
          countryCode: published.participant.country_code,
          registrationDate: published.participant.registered_at.slice(0, 10),
          geographicalInformation: null,
          identifiers: [],
          websites: [],
          additionalInformation: null,
        },
      ],
    };
  }

  businessCardXml(published: PublishedParticipant): string {
    return businessCardXml(this.businessCard(published));
  }
}
