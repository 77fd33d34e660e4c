import { performance } from 'node:perf_hooks';
import { formatPeppolId, type PeppolId } from '../../domain/document/invoice/peppolId.js';
import { PARTICIPANT_SCHEME, participantKey, participantUri } from '../../domain/peppol/participantId.js';
import { smlDnsName } from './smlDnsName.js';
import { readBusinessCard, readServiceGroup } from '../../domain/peppol/smpReader.js';
import { fetchServiceMetadata } from './serviceMetadataFetch.js';
import type { BusinessCard, ServiceInformation } from '../../domain/peppol/smpDocuments.js';
import {
  HTTP_GETTER,
  REMOTE_XML_READER,
  SML_LOCATOR,
  XML_SIGNATURES,
  type CertificateReport,
  type HttpGetter,
  type RemoteXmlReader,
  type SmlLocator,
  type XmlSignatures,
} from '../ports/peppolNetwork.js';
import { SmpPublication, type PublishedParticipant } from './smpPublication.js';
import { inject, injectable } from '../injection.js';
import type { LookupEndpoint, LookupResult, LookupServiceEndpoint } from './lookupResult.js';

/** An SMP lists a handful of document types; more references than this are not followed. */
const MAX_REFERENCES = 25;

export interface LookupDependencies {
  smp: SmpPublication;
  sml: SmlLocator;
  http: HttpGetter;
  signatures: XmlSignatures;
  /** SMP answers are parsed at the edge: the readers take the tree. */
  xml: RemoteXmlReader;
  /** Participants of this instance's registry are answered from it, without DNS or HTTP (default). */
  resolveLocally?: boolean;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));
const elapsed = (since: number) => Math.round((performance.now() - since) * 10) / 10;

/**
 * Resolves a participant the way a Peppol access point does: SML DNS (U-NAPTR) → the SMP's
 * ServiceGroup → each ServiceMetadata (signature and certificates checked) → the business card;
 * and reports every step. Participants registered (live) on this instance are answered locally.
 */
@injectable()
export class ParticipantLookup {
  private readonly deps: LookupDependencies;

  constructor(
    @inject(SmpPublication) smp: SmpPublication,
    @inject(SML_LOCATOR) sml: SmlLocator,
    @inject(HTTP_GETTER) http: HttpGetter,
    @inject(XML_SIGNATURES) signatures: XmlSignatures,
    @inject(REMOTE_XML_READER) xml: RemoteXmlReader,
    options: Pick<LookupDependencies, 'resolveLocally'> = {},
  ) {
    this.deps = { smp, sml, http, signatures, xml, ...options };
  }

  /** `version` is reported in queryMetadata (the API version of this service). */
  async lookup(id: PeppolId, requestBase: string, version: string): Promise<LookupResult> {
    const started = performance.now();
    const result: LookupResult = {
      status: 'error',
      errors: [],
      executionTimeMs: 0,
      queryMetadata: {
        identifierScheme: PARTICIPANT_SCHEME,
        identifierValue: formatPeppolId(id),
        smlDomain: this.deps.sml.zone,
        timestamp: new Date().toISOString(),
        version,
        source: 'sml',
      },
      dnsInfo: { status: 'pending', smlHostname: smlDnsName(id, this.deps.sml.zone), dnsRecords: [], error: null },
      serviceMetadata: { status: 'pending', endpoints: [], queryTimeMs: 0, error: null },
      businessCard: { status: 'pending', entities: [], queryTimeMs: 0, error: null },
      certificates: [],
    };
    const local = this.deps.resolveLocally === false ? null : await this.deps.smp.published(formatPeppolId(id));
    if (local) this.answerLocally(result, local, requestBase);
    else await this.resolveRemotely(result, id);
    result.status =
      result.dnsInfo.status === 'success' && result.serviceMetadata.status === 'success' ? 'success' : 'error';
    result.executionTimeMs = elapsed(started);
    return result;
  }

  /** What our own SMP publishes for the participant, without a round trip through DNS and HTTP. */
  private answerLocally(result: LookupResult, local: PublishedParticipant, requestBase: string): void {
    const started = performance.now();
    result.queryMetadata.source = 'local';
    result.dnsInfo.status = 'success';
    const smp = this.deps.smp;
    for (const documentType of local.documentTypes) {
      const information = smp.serviceInformation(local.id, documentType, requestBase);
      result.serviceMetadata.endpoints.push(
        this.endpointEntry(smp.serviceMetadataUrl(local.id, documentType, requestBase), information, null, result),
      );
    }
    result.serviceMetadata.status = 'success';
    result.serviceMetadata.queryTimeMs = elapsed(started);
    result.businessCard = {
      ...this.cardEntities(smp.businessCard(local)),
      status: 'success',
      queryTimeMs: 0,
      error: null,
    };
  }

  private async resolveRemotely(result: LookupResult, id: PeppolId): Promise<void> {
    const { sml, http } = this.deps;
    let smpUrl: string;
    try {
      const answer = await sml.locate(result.dnsInfo.smlHostname);
      if (answer.kind === 'not_found') {
        result.dnsInfo.status = 'error';
        result.dnsInfo.error = answer.reason;
        result.errors.push(
          `Participant ${formatPeppolId(id)} is not registered in the Peppol network (SML ${sml.zone})`,
        );
        return;
      }
      smpUrl = answer.smpUrl;
      result.dnsInfo.status = 'success';
      result.dnsInfo.dnsRecords = (await sml.addresses(new URL(smpUrl).hostname)).map((ip) => ({ ip }));
    } catch (error) {
      result.dnsInfo.status = 'error';
      result.dnsInfo.error = message(error);
      result.errors.push(`SML lookup failed: ${message(error)}`);
      return;
    }

    const metadataStarted = performance.now();
    const uri = encodeURIComponent(participantUri(id));
    try {
      const group = await http.get(`${smpUrl}/${uri}`);
      if (group.status === 404) throw new Error(`the SMP at ${smpUrl} does not know ${formatPeppolId(id)}`);
      if (group.status !== 200)
        throw new Error(`the SMP at ${smpUrl} answered HTTP ${group.status} for the ServiceGroup`);
      const serviceGroup = readServiceGroup(this.deps.xml.read(group.body));
      if (participantKey(serviceGroup.participant.value) !== participantKey(formatPeppolId(id))) {
        throw new Error(`the SMP's ServiceGroup is for ${serviceGroup.participant.value}, not ${formatPeppolId(id)}`);
      }
      for (const href of serviceGroup.references.slice(0, MAX_REFERENCES)) {
        result.serviceMetadata.endpoints.push(await this.fetchServiceMetadata(href, id, result));
      }
      const usable = result.serviceMetadata.endpoints.filter((endpoint) => endpoint.status === 'success');
      result.serviceMetadata.status = usable.length > 0 ? 'success' : 'error';
      if (usable.length === 0) {
        result.serviceMetadata.error =
          result.serviceMetadata.endpoints.length === 0
            ? 'the ServiceGroup lists no service metadata'
            : 'no usable service metadata (see each endpoint)';
        result.errors.push(`No usable service metadata for ${formatPeppolId(id)}`);
      }
    } catch (error) {
      result.serviceMetadata.status = 'error';
      result.serviceMetadata.error = message(error);
      result.errors.push(`Service metadata: ${message(error)}`);
    }
    result.serviceMetadata.queryTimeMs = elapsed(metadataStarted);

    const cardStarted = performance.now();
    try {
      const card = await http.get(`${smpUrl}/businesscard/${uri}`);
      if (card.status !== 200)
        throw new Error(
          card.status === 404 ? 'the SMP publishes no business card for this participant' : `HTTP ${card.status}`,
        );
      result.businessCard = {
        ...this.cardEntities(readBusinessCard(this.deps.xml.read(card.body))),
        status: 'success',
        queryTimeMs: 0,
        error: null,
      };
    } catch (error) {
      result.businessCard = { status: 'error', entities: [], queryTimeMs: 0, error: message(error) };
    }
    result.businessCard.queryTimeMs = elapsed(cardStarted);
  }

  /** One ServiceMetadata: fetched, signature checked, read from its signed part; one redirect is followed (SMP 1.x). */
  private async fetchServiceMetadata(href: string, id: PeppolId, result: LookupResult): Promise<LookupServiceEndpoint> {
    const fetched = await fetchServiceMetadata(this.deps, href, formatPeppolId(id), (certificate) =>
      this.addCertificate(result, certificate),
    );
    if (fetched.kind === 'failed')
      return { url: fetched.url, status: 'error', error: fetched.error, documentTypes: [], processes: [] };
    if (fetched.problem) result.errors.push(`${fetched.url}: ${fetched.problem}`);
    return this.endpointEntry(fetched.url, fetched.information, fetched.problem, result);
  }

  private endpointEntry(
    url: string,
    information: ServiceInformation,
    error: string | null,
    result: LookupResult,
  ): LookupServiceEndpoint {
    return {
      url,
      status: error ? 'error' : 'success',
      error,
      documentTypes: [information.documentType],
      processes: information.processes.map((process) => ({
        processId: process.processId,
        endpoints: process.endpoints.map((endpoint): LookupEndpoint => {
          const certificate = endpoint.certificate
            ? this.deps.signatures.describeCertificate(endpoint.certificate, 'endpoint')
            : null;
          if (certificate) this.addCertificate(result, certificate);
          return {
            address: endpoint.address,
            transportProfile: endpoint.transportProfile,
            certificate,
            serviceActivationDate: endpoint.activationDate,
            serviceExpirationDate: endpoint.expirationDate,
            serviceDescription: endpoint.description,
            technicalContactUrl: endpoint.technicalContactUrl,
            technicalInformationUrl: endpoint.technicalInformationUrl,
          };
        }),
      })),
    };
  }

  /** Each certificate once, however many document types it serves. */
  private addCertificate(result: LookupResult, certificate: CertificateReport): void {
    const fingerprint = certificate.details?.fingerprint_sha256;
    const purpose = certificate.details?.purpose;
    const seen = result.certificates.some(
      (c) =>
        fingerprint !== undefined && c.details?.fingerprint_sha256 === fingerprint && c.details?.purpose === purpose,
    );
    if (!seen) result.certificates.push(certificate);
  }

  private cardEntities(card: BusinessCard): Pick<LookupResult['businessCard'], 'entities'> {
    return {
      entities: card.entities.map((entity) => ({
        name: entity.names[0] ?? null,
        countryCode: entity.countryCode,
        registrationDate: entity.registrationDate,
        additionalInformation: entity.additionalInformation ? [entity.additionalInformation] : null,
      })),
    };
  }
}
