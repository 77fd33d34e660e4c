import fs from 'node:fs';
import { X509Certificate } from 'node:crypto';
import {
  ACCESS_POINT_IDENTITY,
  loadAccessPointIdentity,
  type AccessPointIdentity,
} from '../infrastructure/as4/accessPointIdentity.js';
import { As4MessageCodecAdapter } from '../infrastructure/as4/as4MessageCodec.js';
import { DEFAULT_INBOUND_LIMITS } from '../infrastructure/as4/as4Inbound.js';
import { failpoint } from '../infrastructure/failpoints.js';
import { TaskPool } from '../infrastructure/workers/taskPool.js';
import { DEFAULT_TASK_SIZES } from '../infrastructure/workers/pooledDocumentWork.js';
import { readSbdh } from '../infrastructure/as4/sbdhXml.js';
import { AS4_MESSAGE_CODEC, AS4_RECEPTION_OPTIONS } from '../application/ports/as4Reception.js';
import { As4Inbox } from '../application/inbox/as4Inbox.js';
import type { Logger } from 'pino';
import type { StartupFact } from './startupReport.js';
import { instanceCachingFactory, type DependencyContainer } from './container.js';
import type { PeppolConfig } from '../infrastructure/peppolConfig.js';
import {
  HTTP_GETTER,
  PEPPOL_DIRECTORY,
  REMOTE_XML_READER,
  SML_LOCATOR,
  SML_PUBLISHER,
  XML_SIGNATURES,
  XML_SIGNER,
} from '../application/ports/peppolNetwork.js';
import { SmpXmlReader } from '../infrastructure/peppol/remoteXml.js';
import { ParticipantRegistry } from '../application/peppol/participantRegistry.js';
import { SMP_SETTINGS, SmpPublication, type SmpSettings } from '../application/peppol/smpPublication.js';
import { ParticipantLookup } from '../application/peppol/participantLookup.js';
import { ParticipantSearch } from '../application/peppol/participantSearch.js';
import { PeppolRegistrations } from '../application/peppol/peppolRegistration.js';
import { base64Der, readCertificateFile, readCertificates } from '../infrastructure/peppol/certificates.js';
import { ACCESS_POINT_TRUST, AccessPointTrust } from '../infrastructure/peppol/accessPointTrust.js';
import { RevocationLists } from '../infrastructure/peppol/revocationLists.js';
import { OcspChecker } from '../infrastructure/peppol/ocspChecker.js';
import { SmpXmlSignatures, SmpXmlSigner } from '../infrastructure/peppol/xmlSignatures.js';
import { FetchHttpGetter } from '../infrastructure/peppol/httpGetter.js';
import { DnsSmlLocator } from '../infrastructure/peppol/dnsSmlLocator.js';
import { PeppolDirectoryClient } from '../infrastructure/peppol/directoryClient.js';
import { SmlSoapPublisher, smlPublishingOff } from '../infrastructure/peppol/smlSoapPublisher.js';
import { AS4_CLIENT } from '../application/ports/as4Sending.js';
import { HttpAs4Client } from '../infrastructure/as4/as4Client.js';
import { As4EndpointResolver } from '../application/delivery/as4EndpointResolver.js';
import { As4Delivery } from '../application/delivery/as4Delivery.js';
import { SERVICE_PROVIDER, type ServiceProvider } from '../application/ports/serviceProvider.js';
import { spidParticipantOfSeat } from '../domain/peppol/mls/serviceProviderId.js';

/**
 * Peppol registration, SMP, lookup and SML: the network adapters are built from their settings
 * (each is off, or null, unless configured; key and certificate files are read once, here), and
 * the application's Peppol services are constructed by the container around them.
 */
export function registerPeppol(container: DependencyContainer, config: PeppolConfig, logger: Logger): StartupFact[] {
  const read = (file: string) => fs.readFileSync(file, 'utf8');
  const signer =
    config.smpSigningKeyFile && config.smpSigningCertificateFile
      ? new SmpXmlSigner(read(config.smpSigningKeyFile), read(config.smpSigningCertificateFile))
      : null;
  const identity = loadAccessPointIdentity(config);
  const as4Certificate = identity
    ? base64Der(identity.key.certificate)
    : config.as4CertificateFile
      ? base64Der(readCertificateFile(config.as4CertificateFile))
      : config.as4CertificatePem
        ? base64Der(new X509Certificate(config.as4CertificatePem))
        : null;
  const smp: SmpSettings = {
    publicUrl: config.publicUrl,
    as4EndpointUrl: config.as4EndpointUrl,
    as4Certificate,
    technicalContactUrl: config.smpTechnicalContactUrl,
  };
  const http = new FetchHttpGetter(config.lookupTimeoutMs);
  const sml =
    config.smlUrl && config.smlSmpId
      ? new SmlSoapPublisher({
          url: config.smlUrl,
          smpId: config.smlSmpId,
          clientCertificatePem: config.smlClientCertificateFile ? read(config.smlClientCertificateFile) : null,
          clientKeyPem: config.smlClientKeyFile ? read(config.smlClientKeyFile) : null,
          timeoutMs: Math.max(config.lookupTimeoutMs, 30000),
        })
      : smlPublishingOff;

  container.register(SMP_SETTINGS, { useValue: smp });
  container.register(SERVICE_PROVIDER, { useValue: serviceProvider(config, identity) });
  container.register(ACCESS_POINT_IDENTITY, { useFactory: () => identity });
  const trust = accessPointTrust(config, identity, logger);
  container.register(ACCESS_POINT_TRUST, { useValue: trust });
  registerAs4Reception(container, config, identity, trust, logger);
  const as4Client = identity ? new HttpAs4Client(identity, { timeoutMs: config.as4SendTimeoutMs, trust }) : null;
  container.register(AS4_CLIENT, { useFactory: () => as4Client });
  // Factories for what may be null: tsyringe takes a null `useValue` for no provider at all.
  container.register(XML_SIGNER, { useFactory: () => signer });
  container.register(HTTP_GETTER, { useValue: http });
  container.register(SML_LOCATOR, {
    useValue: new DnsSmlLocator(
      config.smlDnsZone,
      config.smlDnsServer,
      config.lookupTimeoutMs,
      config.smlCnameFallback,
    ),
  });
  container.register(XML_SIGNATURES, {
    useValue: new SmpXmlSignatures(config.trustedCaFiles.flatMap(readCertificates)),
  });
  container.register(REMOTE_XML_READER, { useValue: new SmpXmlReader() });
  const directory = config.directoryUrl ? new PeppolDirectoryClient(config.directoryUrl, http) : null;
  container.register(PEPPOL_DIRECTORY, { useFactory: () => directory });
  container.register(SML_PUBLISHER, { useValue: sml });

  container.registerSingleton(ParticipantRegistry);
  container.registerSingleton(SmpPublication);
  container.registerSingleton(ParticipantLookup);
  container.registerSingleton(ParticipantSearch);
  container.registerSingleton(PeppolRegistrations);
  container.registerSingleton(As4EndpointResolver);
  container.registerSingleton(As4Delivery);
  return peppolFacts(config, identity, signer !== null, as4Certificate !== null);
}

/** What the start-up block says of AS4 and SMP signing: off, as a first start has them, is expected, and says why. */
function peppolFacts(
  config: PeppolConfig,
  identity: AccessPointIdentity | null,
  signed: boolean,
  as4CertificatePublished: boolean,
): StartupFact[] {
  const as4: StartupFact = identity
    ? {
        part: 'AS4',
        on: true,
        detail: `seat ${identity.seatId}, endpoint ${config.as4EndpointUrl ?? '(AS4_ENDPOINT_URL not set)'}, ${identity.apCas.length} AP CA(s) trusted, certificate valid until ${new Date(identity.key.certificate.validTo).toISOString().slice(0, 10)}`,
      }
    : {
        part: 'AS4',
        on: false,
        detail: `AS4_KEY_FILE is not set: this access point neither sends nor receives over AS4; ServiceMetadata publishes ${as4CertificatePublished ? 'the certificate of AS4_CERTIFICATE_FILE' : 'an empty endpoint certificate (AS4_CERTIFICATE_FILE is not set)'}`,
      };
  const smp: StartupFact = signed
    ? { part: 'SMP signing', on: true, detail: 'ServiceMetadata is signed (SMP_SIGNING_KEY_FILE)' }
    : {
        part: 'SMP signing',
        on: false,
        detail:
          'SMP_SIGNING_KEY_FILE is not set: ServiceMetadata is published unsigned, which Peppol access points refuse',
      };
  return [as4, smp];
}

/**
 * The provider's SPID and country: as set, or from the AS4 certificate (its seat id's six digits;
 * its subject C, which Peppol AP certificates carry). Without an AS4 identity it has neither.
 */
function serviceProvider(config: PeppolConfig, identity: AccessPointIdentity | null): ServiceProvider {
  const subjectCountry = identity
    ? (/^C=([A-Za-z]{2})$/m.exec(identity.key.certificate.subject)?.[1]?.toUpperCase() ?? null)
    : null;
  return {
    participant: identity ? (config.serviceProviderId ?? spidParticipantOfSeat(identity.seatId)) : null,
    country: config.serviceProviderCountry ?? subjectCountry,
    mlsType: config.mlsType,
    mlsSend: config.mlsSend,
    reporting: { receiver: config.reportingReceiver, submit: config.reportingSubmit },
  };
}

/** Below this a received payload's SBDH is read on the event loop (well under a millisecond). */
const INLINE_SBDH_BYTES = DEFAULT_TASK_SIZES.inlineBytes;

/** Corner 3, `POST /as4`: the codec on this AP's key and trusted AP CAs (none: AS4 is off), and the inbox. */
function registerAs4Reception(
  container: DependencyContainer,
  config: PeppolConfig,
  identity: AccessPointIdentity | null,
  trust: AccessPointTrust,
  logger: Logger,
): void {
  if (identity && identity.apCas.length === 0)
    logger.warn('PEPPOL_AP_CA_FILES is not set: every AS4 message is refused (no access point is trusted)');
  const mime = {
    ...DEFAULT_INBOUND_LIMITS.mime,
    maxPartBytes: config.as4MaxMessageBytes,
    maxTotalBytes: config.as4MaxMessageBytes,
  };
  // A factory: the task pool is registered after the Peppol adapters.
  container.register(AS4_MESSAGE_CODEC, {
    useFactory: instanceCachingFactory((c) => {
      if (!identity) return null;
      const pool = c.resolve(TaskPool);
      return new As4MessageCodecAdapter(identity, {
        limits: { mime, maxPayloadBytes: Math.max(config.as4MaxMessageBytes, DEFAULT_INBOUND_LIMITS.maxPayloadBytes) },
        checkSigner: (certificate) => trust.check(certificate, new Date()),
        // Large payloads are parsed in the worker processes, each sending AP its own fair turn.
        readSbdh: async (payload, senderAp) =>
          payload.length <= INLINE_SBDH_BYTES
            ? readSbdh(payload)
            : pool.run({ tenantId: `as4:${senderAp}` }, 'readSbdhPayload', [payload], {
                large: payload.length > DEFAULT_TASK_SIZES.largeBytes,
              }),
      });
    }),
  });
  container.register(AS4_RECEPTION_OPTIONS, { useValue: { afterStore: () => failpoint('as4:after-store') } });
  container.registerSingleton(As4Inbox);
}

/**
 * Other access points' certificates are judged on the AP CAs, the CRLs of AS4_CRL_FILES (read and
 * verified here once: a CRL that is not one, or that no AP CA signed, stops the start) and OCSP.
 */
function accessPointTrust(
  config: PeppolConfig,
  identity: AccessPointIdentity | null,
  logger: Logger,
): AccessPointTrust {
  const apCas = identity ? identity.apCas : config.apCaFiles.flatMap(readCertificates);
  const warn = (message: string) => logger.warn(message);
  const crls = config.crlFiles.length === 0 ? null : RevocationLists.load(config.crlFiles, apCas, warn);
  if (crls) {
    crls.checkFreshness(new Date());
    // Roots issue CAs, not access points: only the CAs under them need a CRL here.
    for (const ca of crls.uncovered(apCas.filter((ca) => !ca.checkIssued(ca))))
      logger.warn(
        `AS4_CRL_FILES has no CRL of ${ca.subject.replace(/\n/g, ', ')}: its certificates are not checked for revocation` +
          (config.ocsp ? ' unless they name an OCSP responder' : ''),
      );
  }
  const ocsp = config.ocsp
    ? new OcspChecker({
        timeoutMs: config.ocspTimeoutMs,
        maxCacheMs: config.ocspCacheMaxSeconds * 1000,
        nonce: config.ocspNonce,
      })
    : null;
  return new AccessPointTrust(apCas, { crls, ocsp, failurePolicy: config.ocspFailurePolicy, warn });
}
