import { participantKey } from '../../domain/peppol/participantId.js';
import { readServiceMetadata } from '../../domain/peppol/smpReader.js';
import type { ServiceInformation } from '../../domain/peppol/smpDocuments.js';
import type { CertificateReport, HttpGetter, RemoteXmlReader, XmlSignatures } from '../ports/peppolNetwork.js';

export interface ServiceMetadataDependencies {
  http: HttpGetter;
  signatures: XmlSignatures;
  xml: RemoteXmlReader;
}

export type FetchedServiceMetadata =
  | {
      kind: 'information';
      /** Where it was read (the redirect's target when the SMP redirected). */
      url: string;
      information: ServiceInformation;
      /** Why Peppol access points must not use it (unsigned, or signed by a certificate not acceptable); null when usable. */
      problem: string | null;
    }
  | {
      kind: 'failed';
      url: string;
      error: string;
      /** The HTTP status when the SMP answered, null when it could not be reached or read. */
      status: number | null;
      /** The SMP could not be reached (network, timeout): another try may succeed. */
      unreachable: boolean;
    };

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * One ServiceMetadata of `participant`: fetched, signature checked, read from its signed part;
 * one redirect is followed (SMP 1.x). Every signer's certificate is passed to `onCertificate`.
 */
export async function fetchServiceMetadata(
  deps: ServiceMetadataDependencies,
  href: string,
  participant: string,
  onCertificate: (certificate: CertificateReport) => void = () => undefined,
  redirected = false,
): Promise<FetchedServiceMetadata> {
  const failed = (error: string, status: number | null = null, unreachable = false): FetchedServiceMetadata => ({
    kind: 'failed',
    url: href,
    error,
    status,
    unreachable,
  });
  let body: string;
  try {
    const response = await deps.http.get(href);
    if (response.status !== 200) return failed(`HTTP ${response.status}`, response.status);
    body = response.body;
  } catch (error) {
    return failed(message(error), null, true);
  }
  try {
    const signature = deps.signatures.verify(body);
    if (signature.certificate) onCertificate(signature.certificate);
    if (signature.signed && !signature.valid) return failed(`invalid signature: ${signature.error}`);
    const content = readServiceMetadata(deps.xml.read(signature.signedXml ?? body));
    if (content.kind === 'redirect') {
      if (redirected) return failed('a redirect to a redirect is not followed');
      return fetchServiceMetadata(deps, content.href, participant, onCertificate, true);
    }
    if (participantKey(content.information.participant.value) !== participantKey(participant)) {
      return failed(`the ServiceMetadata is for ${content.information.participant.value}`);
    }
    // Peppol access points refuse unsigned metadata and signers whose certificate is not
    // acceptable; the content is still returned, marked as not usable.
    const problem = !signature.signed
      ? 'the ServiceMetadata is not signed'
      : signature.certificate?.status === 'error'
        ? `the SMP signing certificate is not acceptable: ${signature.certificate.error}`
        : null;
    return { kind: 'information', url: href, information: content.information, problem };
  } catch (error) {
    return failed(message(error));
  }
}
