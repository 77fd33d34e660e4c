import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { DnsSmlLocator, smpUrlFromRegexp } from '../../../src/infrastructure/peppol/dnsSmlLocator.js';
import { startDnsServer, type TestDnsServer } from '../../support/dnsServer.js';

describe('SML DNS locator (node:dns against a DNS server on a loopback port)', () => {
  let dns: TestDnsServer;
  before(async () => {
    dns = await startDnsServer();
  });
  after(async () => dns?.close());

  it('takes the SMP URL from a U-NAPTR regexp, whatever the delimiter, and only http(s) URLs', () => {
    expect(smpUrlFromRegexp('!^.*$!http://smp.example.test!')).to.equal('http://smp.example.test');
    expect(smpUrlFromRegexp('#^.*$#https://smp.example.test/path/#')).to.equal('https://smp.example.test/path');
    expect(smpUrlFromRegexp('!^.*$!ftp://smp.example.test!')).to.equal(null);
    expect(smpUrlFromRegexp('!^.*$!http://a!extra!')).to.equal(null);
    expect(smpUrlFromRegexp('')).to.equal(null);
  });

  it('uses the U / Meta:SMP record of lowest order, ignoring others', async () => {
    dns.setNaptr('p1.iso6523-actorid-upis.zone.test', [
      {
        order: 50,
        preference: 10,
        flags: 'S',
        services: 'Meta:SMP',
        regexp: '!^.*$!http://wrong-flag.test!',
        replacement: '.',
      },
      {
        order: 200,
        preference: 10,
        flags: 'U',
        services: 'Meta:SMP',
        regexp: '!^.*$!http://second.test!',
        replacement: '.',
      },
      {
        order: 100,
        preference: 10,
        flags: 'U',
        services: 'Meta:SMP',
        regexp: '!^.*$!http://first.test!',
        replacement: '.',
      },
      {
        order: 10,
        preference: 10,
        flags: 'U',
        services: 'Meta:Other',
        regexp: '!^.*$!http://other-service.test!',
        replacement: '.',
      },
    ]);
    const answer = await new DnsSmlLocator('zone.test', dns.address, 2000).locate('p1.iso6523-actorid-upis.zone.test');
    expect(answer.kind === 'found' && answer.smpUrl).to.equal('http://first.test');
  });

  it('answers not found for an unknown name and for a name without usable records', async () => {
    const locator = new DnsSmlLocator('zone.test', dns.address, 2000);
    expect((await locator.locate('unknown.iso6523-actorid-upis.zone.test')).kind).to.equal('not_found');
    dns.setNaptr('p2.iso6523-actorid-upis.zone.test', [
      { order: 1, preference: 1, flags: 'U', services: 'Meta:SMP', regexp: '!^.*$!mailto:x@y!', replacement: '.' },
    ]);
    const unusable = await locator.locate('p2.iso6523-actorid-upis.zone.test');
    expect(unusable.kind === 'not_found' && unusable.reason).to.match(/no U-NAPTR record for service Meta:SMP/);
  });

  it('throws (rather than answering not found) when the DNS server cannot be asked', async () => {
    // A UDP port nobody listens on.
    const socket = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    const port = (socket.address() as AddressInfo).port;
    await new Promise<void>((resolve) => socket.close(() => resolve()));
    const locator = new DnsSmlLocator('zone.test', `127.0.0.1:${port}`, 300);
    let error: unknown;
    try {
      await locator.locate('any.iso6523-actorid-upis.zone.test');
    } catch (e) {
      error = e;
    }
    expect(error).to.be.instanceOf(Error);
    expect((error as Error).message).to.match(/DNS query for any\.iso6523-actorid-upis\.zone\.test failed/);
  });

  it('gives the address of an IP literal host as it is', async () => {
    expect(await new DnsSmlLocator('zone.test', dns.address, 2000).addresses('127.0.0.1')).to.deep.equal(['127.0.0.1']);
  });
});
