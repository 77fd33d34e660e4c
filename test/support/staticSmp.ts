import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { X509Certificate } from 'node:crypto';
import type { TestAccessPoint } from './testPki.js';
import type { TestDnsServer } from './dnsServer.js';
import { smlNameOf, urlOf } from './as4Peers.js';
import { SmpXmlSigner } from '../../src/infrastructure/peppol/xmlSignatures.js';
import { base64Der } from '../../src/infrastructure/peppol/certificates.js';
import {
  AS4_TRANSPORT_PROFILE,
  DOCUMENT_ID_SCHEME,
  PROCESS_ID_SCHEME,
  signedServiceMetadataXml,
} from '../../src/domain/peppol/smpDocuments.js';
import { PARTICIPANT_SCHEME } from '../../src/domain/peppol/participantId.js';
import type { PeppolDocumentKind } from '../../src/domain/peppol/peppolDocumentTypes.js';

/** One participant's entry: it takes these document kinds at this AS4 endpoint (with `ap`'s certificate). */
export interface StaticSmpEntry {
  participant: string;
  kinds: PeppolDocumentKind[];
  endpointUrl: string;
  ap: TestAccessPoint;
}

/**
 * An SMP on loopback that publishes fixed entries (signed ServiceMetadata, with the SMP key of
 * `signer`), for receivers that are not tenants of an instance of ours: a phase4 receiver taking the
 * MLS of its SPID, or the Peppol reports as OpenPeppol would. The DNS server points each
 * participant's SML name to it.
 */
export async function startStaticSmp(options: {
  signer: TestAccessPoint & { smpKeyFile: string; smpCertificateFile: string };
  entries: StaticSmpEntry[];
  dns: TestDnsServer;
}): Promise<{ url: string; stop(): Promise<void> }> {
  const signer = new SmpXmlSigner(
    readFileSync(options.signer.smpKeyFile, 'utf8'),
    readFileSync(options.signer.smpCertificateFile, 'utf8'),
  );
  const documents = new Map<string, string>();
  for (const entry of options.entries) {
    const certificate = base64Der(new X509Certificate(readFileSync(entry.ap.certificateFile)));
    for (const kind of entry.kinds) {
      const xml = signedServiceMetadataXml({
        participant: { scheme: PARTICIPANT_SCHEME, value: entry.participant },
        documentType: { scheme: DOCUMENT_ID_SCHEME, value: kind.documentType.value },
        processes: [
          {
            processId: { scheme: PROCESS_ID_SCHEME, value: kind.process.value },
            endpoints: [
              {
                transportProfile: AS4_TRANSPORT_PROFILE,
                address: entry.endpointUrl,
                requireBusinessLevelSignature: false,
                activationDate: null,
                expirationDate: null,
                certificate,
                description: 'test receiver',
                technicalContactUrl: 'http://127.0.0.1/',
                technicalInformationUrl: null,
              },
            ],
          },
        ],
      });
      const path = `/${encodeURIComponent(`${PARTICIPANT_SCHEME}::${entry.participant}`)}/services/${encodeURIComponent(`${DOCUMENT_ID_SCHEME}::${kind.documentType.value}`)}`;
      documents.set(path.toLowerCase(), signer.sign(xml));
    }
  }
  const server: Server = createServer((req, res) => {
    const found = documents.get((req.url ?? '').toLowerCase());
    if (!found) res.writeHead(404).end('not found');
    else res.writeHead(200, { 'Content-Type': 'text/xml; charset=utf-8' }).end(found);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = urlOf(server);
  for (const entry of options.entries) options.dns.pointToSmp(smlNameOf(entry.participant), url);
  return {
    url,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
