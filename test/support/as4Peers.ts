import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { bearer, createOrganization, eventually, startTestService, type TestService } from './service.js';
import { createPeppolTenant, registerPeppol } from './peppol.js';
import type { TestDnsServer } from './dnsServer.js';
import type { TestAccessPoint, TestPki } from './testPki.js';
import { loadPeppolConfig, type PeppolConfig } from '../../src/infrastructure/peppolConfig.js';
import { smlDnsName } from '../../src/application/peppol/smlDnsName.js';
import { parsePeppolId } from '../../src/domain/document/invoice/peppolId.js';

/** The SML zone of the sending suites' DNS server. */
export const TEST_ZONE = 'sml.peppol.test';

export const urlOf = (server: http.Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

/** A participant id's SML DNS name in the test zone. */
export function smlNameOf(participant: string, zone = TEST_ZONE): string {
  const parsed = parsePeppolId(participant);
  if (!parsed.ok) throw new Error(parsed.message);
  return smlDnsName(parsed.value, zone);
}

/**
 * The receiving side's SMP for sending tests: another instance of this service, signing with `ap`'s
 * SMP key and publishing `endpointUrl` with `ap`'s certificate for each participant, which the DNS
 * server then points to it. The AS4 endpoint itself is the test's (phase4, a server answering 503 …).
 */
export async function startReceiverSmp(options: {
  ap: TestAccessPoint & { smpKeyFile: string; smpCertificateFile: string };
  endpointUrl: string;
  participants: string[];
  dns: TestDnsServer;
}): Promise<{ smp: TestService; smpUrl: string }> {
  const smp = await startTestService({
    peppol: {
      ...loadPeppolConfig({}),
      smpSigningKeyFile: options.ap.smpKeyFile,
      smpSigningCertificateFile: options.ap.smpCertificateFile,
      as4CertificateFile: options.ap.certificateFile,
      as4EndpointUrl: options.endpointUrl,
    },
  });
  const smpUrl = urlOf(await smp.service.listen(0, '127.0.0.1'));
  const org = await createOrganization(smp);
  for (const participant of options.participants) {
    const tenant = await createPeppolTenant(smp, org.adminKey, { peppol_ids: [participant] });
    await registerPeppol(smp, org.adminKey, tenant.id, { peppol_id: participant, company_name: 'Receiver NV' });
    options.dns.pointToSmp(smlNameOf(participant), smpUrl);
  }
  await smp.service.projections.catchUp();
  return { smp, smpUrl };
}

/** An AS4 endpoint that answers every POST with HTTP 503 (an AP under maintenance), counting them. */
export async function startBusyEndpoint(): Promise<{ url: string; posts: () => number; close: () => Promise<void> }> {
  let posts = 0;
  const server = http.createServer((req, res) => {
    posts++;
    req.resume();
    req.on('end', () => res.writeHead(503).end('maintenance'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `${urlOf(server)}/as4`,
    posts: () => posts,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Creates a document with the tenant key `key` and asks to send it to the participant `receiver`: its id. */
export async function createAndSend(
  service: TestService,
  key: string,
  body: Record<string, unknown>,
  receiver: string,
): Promise<string> {
  const created = await service.http.post('/api/documents/').set(bearer(key)).send(body);
  expect(created.status, JSON.stringify(created.body)).to.equal(200);
  const [scheme, value] = receiver.split(':');
  const sent = await service.http
    .post(`/api/documents/${created.body.id}/send`)
    .query({ receiver_peppol_scheme: scheme, receiver_peppol_id: value })
    .set(bearer(key));
  expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
  return created.body.id as string;
}

/** The transmission report of a document once an attempt is recorded, and the first attempt of its first delivery. */
export function firstAttempt(service: TestService, key: string, documentId: string) {
  return eventually(async () => {
    const r = (await service.http.get(`/api/documents/${documentId}/transmission-report`).set(bearer(key))).body;
    return r.attempts_total > 0 ? { report: r, attempt: r.deliveries[0].attempts[0] } : undefined;
  }, 'the first attempt');
}

/** The sending instance's Peppol settings: instance 1's AP key, the test PKI's CAs, the test DNS. */
export function senderPeppolConfig(pki: TestPki, dns: TestDnsServer, overrides: Partial<PeppolConfig>): PeppolConfig {
  const own = pki.instance(1);
  return {
    ...loadPeppolConfig({}),
    smlDnsZone: TEST_ZONE,
    smlDnsServer: dns.address,
    trustedCaFiles: [pki.smpCaCertificateFile],
    apCaFiles: [pki.apCaCertificateFile],
    as4KeyFile: own.keyFile,
    as4CertificateFile: own.certificateFile,
    ...overrides,
  };
}
