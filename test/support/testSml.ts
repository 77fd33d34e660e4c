import http from 'node:http';
import type { AddressInfo } from 'node:net';
import libxmljs, { type XMLElement } from 'libxmljs';
import { startDnsServer, type TestDnsServer } from './dnsServer.js';
import { smlDnsName } from '../../src/application/peppol/smlDnsName.js';
import { parsePeppolId } from '../../src/domain/document/invoice/peppolId.js';

/** The zone of the test SML (any name works; the service takes it from SML_DNS_ZONE). */
export const TEST_SML_ZONE = 'participant.sml.test.invalid';

const NS = {
  S: 'http://schemas.xmlsoap.org/soap/envelope/',
  lrs: 'http://busdox.org/serviceMetadata/locator/1.0/',
  ids: 'http://busdox.org/transport/identifiers/1.0/',
};

/**
 * A Peppol SML for a network of local instances: the ManageBusinessIdentifierService (SOAP) that
 * each instance's SMP publishes its registrations to, and the DNS server that then answers the
 * participants' U-NAPTR records with that SMP's URL, as the real SML does. Each SMP is known by
 * its id (SML_SMP_ID) and public URL, given up front (the real SML has them from the SMP's own
 * registration).
 */
export interface TestSml {
  dns: TestDnsServer;
  zone: string;
  /** SML_URL for the instances. */
  url: string;
  /** Makes an SMP known: its participants will resolve to `smpUrl`. */
  addSmp(smpId: string, smpUrl: string): void;
  /** Participants currently registered (id → SMP id). */
  participants: Map<string, string>;
  /** Environment for an instance publishing to this SML as `smpId`. */
  env(smpId: string): Record<string, string>;
  close(): Promise<void>;
}

const fault = (detail: string, message: string) =>
  `<S:Envelope xmlns:S="${NS.S}"><S:Body><S:Fault><faultcode>S:Server</faultcode><faultstring>${message}</faultstring>` +
  `<detail><ns2:${detail} xmlns:ns2="${NS.lrs}"><FaultMessage>${message}</FaultMessage></ns2:${detail}></detail></S:Fault></S:Body></S:Envelope>`;

export async function startTestSml(): Promise<TestSml> {
  const dns = await startDnsServer();
  const smps = new Map<string, string>();
  const participants = new Map<string, string>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const answer = (status: number, body: string) =>
        res.writeHead(status, { 'Content-Type': 'text/xml; charset=utf-8' }).end(body);
      try {
        const doc = libxmljs.parseXml(Buffer.concat(chunks).toString('utf8'), { nonet: true });
        const operation = doc.get('/S:Envelope/S:Body/*', NS) as XMLElement;
        const smpId = (operation.get('lrs:ServiceMetadataPublisherID', NS) as XMLElement).text();
        const participant = (operation.get('ids:ParticipantIdentifier', NS) as XMLElement).text().toLowerCase();
        const smpUrl = smps.get(smpId);
        if (!smpUrl) return answer(500, fault('UnauthorizedFault', `unknown SMP ${smpId}`));
        const parsed = parsePeppolId(participant);
        if (!parsed.ok) return answer(500, fault('BadRequestFault', parsed.message));
        const name = smlDnsName(parsed.value, TEST_SML_ZONE);
        const owner = participants.get(participant);
        if (operation.name() === 'CreateParticipantIdentifier') {
          if (owner && owner !== smpId)
            return answer(500, fault('BadRequestFault', `${participant} is registered by SMP ${owner}`));
          participants.set(participant, smpId);
          dns.pointToSmp(name, smpUrl);
        } else if (operation.name() === 'DeleteParticipantIdentifier') {
          if (owner !== smpId) return answer(500, fault('NotFoundFault', `${participant} is not registered`));
          participants.delete(participant);
          dns.forget(name);
        } else return answer(500, fault('BadRequestFault', `unsupported operation ${operation.name()}`));
        answer(200, `<S:Envelope xmlns:S="${NS.S}"><S:Body/></S:Envelope>`);
      } catch (error) {
        answer(500, fault('BadRequestFault', (error as Error).message));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/manageparticipantidentifier`;
  return {
    dns,
    zone: TEST_SML_ZONE,
    url,
    participants,
    addSmp: (smpId, smpUrl) => smps.set(smpId, smpUrl),
    env: (smpId) => ({ SML_URL: url, SML_SMP_ID: smpId, SML_DNS_ZONE: TEST_SML_ZONE, SML_DNS_SERVER: dns.address }),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await dns.close();
    },
  };
}
