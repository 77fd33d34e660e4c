import { expect } from 'chai';
import { CertificateCache, certificateOfBase64 } from '../../../src/infrastructure/as4/certificateCache.js';
import { makeTestAs4Pki, type TestAs4Pki } from '../../support/as4TestKeys.js';

describe('Certificates parsed once (BinarySecurityTokens, SMP entries)', function () {
  let pki: TestAs4Pki;
  before(async function () {
    this.timeout(60_000);
    pki = await makeTestAs4Pki(['POP000051', 'POP000052']);
  });
  after(async () => pki?.dispose());

  const base64 = (seat: string) => pki.accessPoints[seat]!.certificate.raw.toString('base64');

  it('gives the same certificate object for the same text, wrapped over lines or not', () => {
    const text = base64('POP000051');
    const first = certificateOfBase64(text);
    expect(first.raw.equals(pki.accessPoints.POP000051!.certificate.raw)).to.equal(true);
    expect(certificateOfBase64(text)).to.equal(first);
    expect(certificateOfBase64(`\n  ${text.replace(/(.{64})/g, '$1\r\n')}\t`)).to.equal(first);
  });

  it('keeps the most recently used up to its capacity, and parses the others again', () => {
    const cache = new CertificateCache(2);
    const [a, b, ca] = [base64('POP000051'), base64('POP000052'), pki.ca.raw.toString('base64')];
    const firstA = cache.certificateOf(a);
    const firstB = cache.certificateOf(b);
    expect(cache.certificateOf(a)).to.equal(firstA); // a is now the most recently used
    cache.certificateOf(ca); // full: b, the least recently used, goes
    expect(cache.certificateOf(a)).to.equal(firstA);
    const againB = cache.certificateOf(b);
    expect(againB).to.not.equal(firstB);
    expect(againB.raw.equals(firstB.raw)).to.equal(true);
  });

  it('refuses text that is not a certificate, and keeps nothing of it', () => {
    const cache = new CertificateCache(1);
    const kept = cache.certificateOf(base64('POP000051'));
    expect(() => cache.certificateOf('bm90IGEgY2VydGlmaWNhdGU=')).to.throw();
    expect(cache.certificateOf(base64('POP000051'))).to.equal(kept);
  });
});
