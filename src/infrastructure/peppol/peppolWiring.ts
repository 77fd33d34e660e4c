import fs from 'node:fs';
import type { DependencyContainer } from 'tsyringe';
import type { Logger } from 'pino';
import type { PeppolConfig } from '../peppolConfig.js';
import type { EventStore } from '../../application/ports/eventStore.js';
import type { ReadModelStore } from '../../application/ports/readModelStore.js';
import type { AccountCommands } from '../../application/accounts/accountCommands.js';
import { ParticipantRegistry } from '../../application/peppol/participantRegistry.js';
import { SmpPublication } from '../../application/peppol/smpPublication.js';
import { ParticipantLookup } from '../../application/peppol/participantLookup.js';
import { ParticipantSearch } from '../../application/peppol/participantSearch.js';
import { PeppolRegistrations } from '../../application/peppol/peppolRegistration.js';
import { base64Der, readCertificateFile, readCertificates } from './certificates.js';
import { SmpXmlSignatures, SmpXmlSigner } from './xmlSignatures.js';
import { SmpXmlReader } from './remoteXml.js';
import { FetchHttpGetter } from './httpGetter.js';
import { DnsSmlLocator } from './dnsSmlLocator.js';
import { PeppolDirectoryClient } from './directoryClient.js';
import { SmlSoapPublisher, smlPublishingOff } from './smlSoapPublisher.js';

export const PEPPOL_TOKENS = {
  ParticipantRegistry: Symbol('ParticipantRegistry'),
  SmpPublication: Symbol('SmpPublication'),
  ParticipantLookup: Symbol('ParticipantLookup'),
  ParticipantSearch: Symbol('ParticipantSearch'),
  PeppolRegistrations: Symbol('PeppolRegistrations'),
} as const;

export interface PeppolServices {
  registry: ParticipantRegistry;
  smp: SmpPublication;
  lookup: ParticipantLookup;
  search: ParticipantSearch;
  registrations: PeppolRegistrations;
}

/** Builds the Peppol services from their settings; each network adapter is off unless configured. */
export function wirePeppol(
  container: DependencyContainer,
  config: PeppolConfig,
  deps: { eventStore: EventStore; readModels: ReadModelStore; accounts: AccountCommands; logger: Logger },
): PeppolServices {
  const read = (file: string) => fs.readFileSync(file, 'utf8');
  const signer =
    config.smpSigningKeyFile && config.smpSigningCertificateFile ? new SmpXmlSigner(read(config.smpSigningKeyFile), read(config.smpSigningCertificateFile)) : null;
  if (!signer) deps.logger.warn('SMP_SIGNING_KEY_FILE is not set: ServiceMetadata is published unsigned, which Peppol access points refuse');
  const as4Certificate = config.as4CertificateFile ? base64Der(readCertificateFile(config.as4CertificateFile)) : null;
  if (!as4Certificate) deps.logger.warn('AS4_CERTIFICATE_FILE is not set: ServiceMetadata publishes an empty endpoint certificate');

  const registry = new ParticipantRegistry(deps.readModels);
  const smp = new SmpPublication(
    registry,
    { publicUrl: config.publicUrl, as4EndpointUrl: config.as4EndpointUrl, as4Certificate, technicalContactUrl: config.smpTechnicalContactUrl },
    signer,
  );
  const http = new FetchHttpGetter(config.lookupTimeoutMs);
  const lookup = new ParticipantLookup({
    smp,
    sml: new DnsSmlLocator(config.smlDnsZone, config.smlDnsServer, config.lookupTimeoutMs),
    http,
    signatures: new SmpXmlSignatures(config.trustedCaFiles.flatMap(readCertificates)),
    xml: new SmpXmlReader(),
  });
  const search = new ParticipantSearch(registry, config.directoryUrl ? new PeppolDirectoryClient(config.directoryUrl, http) : null);
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
  const registrations = new PeppolRegistrations(deps.eventStore, deps.accounts, sml);

  container.register(PEPPOL_TOKENS.ParticipantRegistry, { useValue: registry });
  container.register(PEPPOL_TOKENS.SmpPublication, { useValue: smp });
  container.register(PEPPOL_TOKENS.ParticipantLookup, { useValue: lookup });
  container.register(PEPPOL_TOKENS.ParticipantSearch, { useValue: search });
  container.register(PEPPOL_TOKENS.PeppolRegistrations, { useValue: registrations });
  return { registry, smp, lookup, search, registrations };
}

export function peppolServices(container: DependencyContainer): PeppolServices {
  return {
    registry: container.resolve(PEPPOL_TOKENS.ParticipantRegistry),
    smp: container.resolve(PEPPOL_TOKENS.SmpPublication),
    lookup: container.resolve(PEPPOL_TOKENS.ParticipantLookup),
    search: container.resolve(PEPPOL_TOKENS.ParticipantSearch),
    registrations: container.resolve(PEPPOL_TOKENS.PeppolRegistrations),
  };
}
