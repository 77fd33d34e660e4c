import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';
import * as dnsPacket from 'dns-packet';

export interface NaptrRecord {
  order: number;
  preference: number;
  flags: string;
  services: string;
  regexp: string;
  replacement: string;
}

/**
 * A real DNS server on a loopback UDP port that answers NAPTR queries for the names it is given
 * (authoritative NXDOMAIN for every other name), as the SML's DNS does for registered participants.
 */
export interface TestDnsServer {
  /** `127.0.0.1:<port>`, the form SML_DNS_SERVER takes. */
  address: string;
  /** Every name asked, lower case, in order. */
  queries: string[];
  setNaptr(name: string, records: NaptrRecord[]): void;
  /** A CNAME record (the SML's older form: the participant's name is an alias of its SMP's host). */
  setCname(name: string, target: string): void;
  /** The U-NAPTR record the Peppol SML publishes: flag U, service Meta:SMP, the SMP URL as replacement. */
  pointToSmp(name: string, smpUrl: string): void;
  /** The name is no longer known (NXDOMAIN). */
  forget(name: string): void;
  close(): Promise<void>;
}

const NXDOMAIN = 3;

export async function startDnsServer(): Promise<TestDnsServer> {
  const socket = dgram.createSocket('udp4');
  const zone = new Map<string, NaptrRecord[]>();
  const cnames = new Map<string, string>();
  const queries: string[] = [];
  socket.on('message', (message, remote) => {
    let query: dnsPacket.DecodedPacket;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return;
    }
    const question = query.questions?.[0];
    if (!question) return;
    const name = question.name.toLowerCase();
    queries.push(name);
    const records = zone.get(name);
    const cname = cnames.get(name);
    const answers: dnsPacket.Answer[] =
      records && question.type === 'NAPTR'
        ? records.map((data) => ({ type: 'NAPTR' as const, name: question.name, class: 'IN' as const, ttl: 60, data }))
        : cname && question.type === 'CNAME'
          ? [{ type: 'CNAME' as const, name: question.name, class: 'IN' as const, ttl: 60, data: cname }]
          : [];
    const response = dnsPacket.encode({
      type: 'response',
      id: query.id,
      // A known name without records of the asked type is NOERROR with no answers (NODATA).
      flags: dnsPacket.AUTHORITATIVE_ANSWER | (records || cname ? 0 : NXDOMAIN),
      questions: [question],
      answers,
    });
    socket.send(response, remote.port, remote.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    queries,
    setNaptr: (name, records) => zone.set(name.toLowerCase(), records),
    setCname: (name, target) => cnames.set(name.toLowerCase(), target),
    pointToSmp(name, smpUrl) {
      zone.set(name.toLowerCase(), [
        { order: 100, preference: 10, flags: 'U', services: 'Meta:SMP', regexp: `!^.*$!${smpUrl}!`, replacement: '.' },
      ]);
    },
    forget: (name) => zone.delete(name.toLowerCase()),
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
