import dgram from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { DnsSmlLocator, smpUrlFromRegexp } from '../../../src/infrastructure/peppol/dnsSmlLocator.js';
import { startDnsServer, type TestDnsServer } from '../../support/dnsServer.js';
import { createHash } from 'node:crypto';
import { smlCnameName, smlDnsName } from '../../../src/application/peppol/smlDnsName.js';
import { parsePeppolId } from '../../../src/domain/document/invoice/peppolId.js';

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

  it('falls back to the CNAME form (B-<md5>) when configured and there is no U-NAPTR record: http://<alias target>', async () => {
    const id = parsePeppolId('0208:0403013026');
    if (!id.ok) throw new Error(id.message);
    const naptrName = smlDnsName(id.value, 'zone.test');
    const cnameName = smlCnameName(id.value, 'zone.test');
    // The Peppol SML's CNAME form: B- and the hex MD5 of the lower-cased "<icd>:<identifier>".
    expect(cnameName).to.equal(
      `B-${createHash('md5').update('0208:0403013026').digest('hex')}.iso6523-actorid-upis.zone.test`,
    );
    dns.setCname(cnameName, 'smp.cname.test');
    const withFallback = new DnsSmlLocator('zone.test', dns.address, 2000, true);
    expect(await withFallback.locate(naptrName, cnameName)).to.deep.equal({
      kind: 'found',
      smpUrl: 'http://smp.cname.test',
      records: [],
    });
    const without = await new DnsSmlLocator('zone.test', dns.address, 2000).locate(naptrName, cnameName);
    expect(without.kind).to.equal('not_found');
    const unknown = await withFallback.locate(
      'nothing.iso6523-actorid-upis.zone.test',
      'B-0.iso6523-actorid-upis.zone.test',
    );
    expect(unknown).to.include({ kind: 'not_found' });
    expect((unknown as { reason: string }).reason)
      .to.contain('no NAPTR record')
      .and.contain('no CNAME record');
  });
});
