import { formatPeppolId, parsePeppolId } from '../../domain/document/invoice/peppolId.js';
import { participantUri } from '../../domain/peppol/participantId.js';
import { AS4_TRANSPORT_PROFILE, documentTypeUri, type SmpEndpoint } from '../../domain/peppol/smpDocuments.js';
import type { PeppolDocumentKind } from '../../domain/peppol/peppolDocumentTypes.js';
import {
  HTTP_GETTER,
  REMOTE_XML_READER,
  SML_LOCATOR,
  XML_SIGNATURES,
  type HttpGetter,
  type RemoteXmlReader,
  type SmlLocator,
  type XmlSignatures,
} from '../ports/peppolNetwork.js';
import { fetchServiceMetadata } from '../peppol/serviceMetadataFetch.js';
import { smlCnameName, smlDnsName } from '../peppol/smlDnsName.js';
import { inject, injectable } from '../injection.js';

/** Where a receiver takes a document type over AS4, as its SMP publishes it. */
export interface As4Endpoint {
  url: string;
  /** Base64 DER of the receiving access point's certificate. */
  certificate: string;
  transportProfile: string;
  /** The SMP the SML pointed to, and the ServiceMetadata the endpoint was read from. */
  smpUrl: string;
  serviceMetadataUrl: string;
}

export type EndpointResolution =
  | { kind: 'found'; endpoint: As4Endpoint }
  /** retryable: DNS or the SMP could not be reached; permanent: the network says the receiver does not take this. */
  | { kind: 'failed'; retryable: boolean; reason: string };

/** A burst of sends to one receiver resolves it once; a changed SMP entry is seen within this time. */
export const RESOLUTION_CACHE_MS = 60_000;
const MAX_CACHED = 10_000;

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));
const permanent = (reason: string): EndpointResolution => ({ kind: 'failed', retryable: false, reason });
const retryable = (reason: string): EndpointResolution => ({ kind: 'failed', retryable: true, reason });

/** Whether an endpoint is in service at `now` (ServiceActivationDate/ServiceExpirationDate, when given). */
function inService(endpoint: SmpEndpoint, now: Date): boolean {
  const from = endpoint.activationDate ? Date.parse(endpoint.activationDate) : NaN;
  const until = endpoint.expirationDate ? Date.parse(endpoint.expirationDate) : NaN;
  return !(from > now.getTime()) && !(until <= now.getTime());
}

/**
 * Finds where to send a document over AS4, as a Peppol access point does: the SML (DNS U-NAPTR,
 * the CNAME form as configured fallback) names the receiver's SMP; its signed ServiceMetadata for
 * the document type (signature and certificate checked) names, for the process, the endpoint of
 * transport profile peppol-transport-as4-v2_0 in service now: URL and certificate. Endpoints found
 * are kept for a minute (failures are not), and concurrent lookups of the same receiver and document
 * type share one.
 */
@injectable()
export class As4EndpointResolver {
  private readonly cache = new Map<string, { until: number; resolution: Promise<EndpointResolution> }>();

  constructor(
    @inject(SML_LOCATOR) private readonly sml: SmlLocator,
    @inject(HTTP_GETTER) private readonly http: HttpGetter,
    @inject(XML_SIGNATURES) private readonly signatures: XmlSignatures,
    @inject(REMOTE_XML_READER) private readonly xml: RemoteXmlReader,
  ) {}

  resolve(participant: string, kind: PeppolDocumentKind, now = new Date()): Promise<EndpointResolution> {
    const key = `${participant.toLowerCase()}|${kind.documentType.value}|${kind.process.value}`;
    const cached = this.cache.get(key);
    if (cached && cached.until > now.getTime()) return cached.resolution;
    if (this.cache.size >= MAX_CACHED) this.cache.clear();
    const resolution = this.lookup(participant, kind, now);
    this.cache.set(key, { until: now.getTime() + RESOLUTION_CACHE_MS, resolution });
    // Only endpoints are kept: after an outage, or once the receiver registers, the next send looks again.
    void resolution.then((r) => {
      if (r.kind === 'failed' && this.cache.get(key)?.resolution === resolution) this.cache.delete(key);
    });
    return resolution;
  }

  private async lookup(participant: string, kind: PeppolDocumentKind, now: Date): Promise<EndpointResolution> {
    const parsed = parsePeppolId(participant);
    if (!parsed.ok) return permanent(`${participant} is not a Peppol participant identifier: ${parsed.message}`);
    const id = parsed.value;
    const name = formatPeppolId(id);
    let smpUrl: string;
    try {
      const answer = await this.sml.locate(smlDnsName(id, this.sml.zone), smlCnameName(id, this.sml.zone));
      if (answer.kind === 'not_found')
        return permanent(
          `receiver ${name} is not registered in the Peppol network (SML ${this.sml.zone}: ${answer.reason})`,
        );
      smpUrl = answer.smpUrl;
    } catch (error) {
      return retryable(`SML lookup of ${name} failed: ${message(error)}`);
    }

    const href = `${smpUrl}/${encodeURIComponent(participantUri(id))}/services/${encodeURIComponent(documentTypeUri(kind.documentType.value))}`;
    const fetched = await fetchServiceMetadata(
      { http: this.http, signatures: this.signatures, xml: this.xml },
      href,
      name,
    );
    if (fetched.kind === 'failed') {
      if (fetched.status === 404)
        return permanent(
          `receiver ${name} is not registered for document type ${kind.documentType.value} (SMP ${smpUrl})`,
        );
      if (fetched.unreachable || (fetched.status !== null && (fetched.status >= 500 || fetched.status === 429)))
        return retryable(`the SMP of ${name} at ${smpUrl} is not available: ${fetched.error}`);
      return permanent(`the SMP of ${name} at ${smpUrl} gave no usable ServiceMetadata: ${fetched.error}`);
    }
    if (fetched.problem) return permanent(`the ServiceMetadata of ${name} is not acceptable: ${fetched.problem}`);
    const { information } = fetched;
    if (information.documentType.value !== kind.documentType.value)
      return permanent(
        `the SMP answered for document type ${information.documentType.value}, not ${kind.documentType.value}`,
      );
    const process = information.processes.find(
      (p) => p.processId.value === kind.process.value && p.processId.scheme === kind.process.scheme,
    );
    if (!process)
      return permanent(
        `receiver ${name} takes document type ${kind.documentType.value} but not in process ${kind.process.value}`,
      );
    const endpoint = process.endpoints.find((e) => e.transportProfile === AS4_TRANSPORT_PROFILE && inService(e, now));
    if (!endpoint) {
      const as4 = process.endpoints.some((e) => e.transportProfile === AS4_TRANSPORT_PROFILE);
      return permanent(
        as4
          ? `receiver ${name}'s AS4 endpoint for ${kind.documentType.value} is not in service (activation/expiration dates)`
          : `receiver ${name} publishes no ${AS4_TRANSPORT_PROFILE} endpoint for ${kind.documentType.value}`,
      );
    }
    if (!endpoint.certificate) return permanent(`receiver ${name}'s AS4 endpoint publishes no certificate`);
    return {
      kind: 'found',
      endpoint: {
        url: endpoint.address,
        certificate: endpoint.certificate,
        transportProfile: endpoint.transportProfile,
        smpUrl,
        serviceMetadataUrl: fetched.url,
      },
    };
  }
}
