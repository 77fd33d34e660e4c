import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import {
  parseCertificateList,
  RevocationLists,
  serialOf,
  type CrlSource,
} from '../../../src/infrastructure/peppol/revocationLists.js';
import { DerCursor, readDer, TAG } from '../../../src/infrastructure/peppol/derReader.js';
import { AccessPointTrust } from '../../../src/infrastructure/peppol/accessPointTrust.js';
import { makeTestPki, type TestPki } from '../../support/testPki.js';

const certificateOf = async (file: string) => new X509Certificate(await readFile(file));

/** A CRL made by `openssl ca -gencrl` with this CA, listing the given certificates (own CA database). */
async function opensslCrl(
  work: string,
  ca: { cert: string; key: string },
  revoke: string[],
  options: { md?: string; der?: boolean } = {},
): Promise<Buffer> {
  const db = await mkdtemp(path.join(work, 'db-'));
  await writeFile(path.join(db, 'index.txt'), '');
  const config = path.join(db, 'openssl.cnf');
  await writeFile(config, `[ ca ]\ndefault_ca = c\n[ c ]\ndatabase = ${db}/index.txt\ndefault_md = sha256\n`);
  const ca_args = ['-config', config, '-batch', '-cert', ca.cert, '-keyfile', ca.key];
  for (const file of revoke) execFileSync('openssl', ['ca', ...ca_args, '-revoke', file], { stdio: 'ignore' });
  const out = path.join(db, 'crl.pem');
  execFileSync('openssl', ['ca', ...ca_args, '-gencrl', '-crldays', '2', '-md', options.md ?? 'sha256', '-out', out], {
    stdio: 'ignore',
  });
  return readFile(out);
}

const pemToDer = (pem: Buffer) =>
  Buffer.from(
    pem
      .toString('latin1')
      .replace(/-----[A-Z0-9 ]+-----/g, '')
      .replace(/\s+/g, ''),
    'base64',
  );

describe('RevocationLists: X.509 CRLs of the AP CAs, read and verified', function () {
  this.timeout(120_000);
  let pki: TestPki;
  let apCa: X509Certificate;
  let revoked: X509Certificate;
  let good: X509Certificate;
  let expired: X509Certificate;
  let rogueCa: { cert: string; key: string };

  before(async () => {
    pki = await makeTestPki({ instances: 1 });
    apCa = await certificateOf(pki.apCaCertificateFile);
    revoked = await certificateOf(pki.revoked.certificateFile);
    good = await certificateOf(pki.instance(1).certificateFile);
    expired = await certificateOf(pki.expired.certificateFile);
    rogueCa = {
      cert: path.join(pki.untrusted.dir, 'ap-ca.cert.pem'),
      key: path.join(pki.untrusted.dir, 'ap-ca.key.pem'),
    };
  });
  after(() => pki?.dispose());

  const load = (bytes: Buffer, cas: X509Certificate[] = [apCa], onStale?: (m: string) => void) =>
    RevocationLists.of([{ name: 'test.crl', bytes }], cas, onStale);

  it('reads the AP CA CRL openssl made, PEM and DER: it lists the revoked certificate, not the good ones', async () => {
    for (const file of [pki.apCaCrlFile, pki.apCaCrlDerFile]) {
      const lists = RevocationLists.load([file], [apCa]);
      expect(lists.count).to.equal(1);
      expect(lists.problem(revoked, new Date())).to.match(
        /^revoked on \d{4}-\d\d-\d\dT[\d:.]+Z \(CRL of Invoicing Test Access Point CA, reason keyCompromise\)$/,
      );
      for (const certificate of [good, expired]) expect(lists.problem(certificate, new Date())).to.equal(null);
    }
    const crl = parseCertificateList(await readFile(pki.apCaCrlDerFile));
    expect([...crl.revoked.keys()]).to.deep.equal([serialOf(revoked)]);
    expect(crl.algorithm.name).to.equal('sha256WithRSAEncryption');
    expect(crl.nextUpdate!.getTime() - crl.thisUpdate.getTime()).to.equal(30 * 24 * 3600 * 1000);
    expect(Math.abs(crl.thisUpdate.getTime() - Date.now())).to.be.below(10 * 60 * 1000);
  });

  it('normalizes serials as node:crypto prints them, leading zeros aside', () => {
    for (const certificate of [apCa, revoked, good, expired])
      expect(serialOf(certificate)).to.equal(certificate.serialNumber.replace(/^0+/, ''));
  });

  it('refuses a CRL with one byte changed, in what is signed or in the signature', async () => {
    const der = await readFile(pki.apCaCrlDerFile);
    const serialAt = der.indexOf(Buffer.from(serialOf(revoked).slice(-8), 'hex'));
    expect(serialAt).to.be.above(0);
    for (const at of [serialAt, der.length - 5]) {
      const tampered = Buffer.from(der);
      tampered[at]! ^= 0x01;
      expect(() => load(tampered)).to.throw(
        /^CRL file test\.crl is not signed by any configured Peppol AP CA \(PEPPOL_AP_CA_FILES\): its signature does not verify/,
      );
    }
    expect(() => load(der)).to.not.throw();
  });

  it('refuses a CRL signed by a CA that is not configured, and takes it once that CA is', async () => {
    const rogue = await opensslCrl(pki.dir, rogueCa, [pki.revoked.certificateFile]);
    expect(() => load(rogue)).to.throw(/not signed by any configured Peppol AP CA .*: its issuer is none of them/);
    const withRogue = load(rogue, [apCa, await certificateOf(rogueCa.cert)]);
    // It lists POP999997's serial, but POP999997 is not the rogue CA's: that CRL does not revoke it.
    expect(withRogue.problem(revoked, new Date())).to.equal(null);
  });

  it('reads an empty CRL (no revokedCertificates at all)', async () => {
    const pem = await opensslCrl(
      pki.dir,
      { cert: pki.apCaCertificateFile, key: path.join(pki.dir, 'ca', 'ap-ca.key.pem') },
      [],
    );
    const crl = parseCertificateList(pemToDer(pem));
    expect(crl.revoked.size).to.equal(0);
    const lists = load(pem);
    expect(lists.count).to.equal(1);
    expect(lists.problem(revoked, new Date())).to.equal(null);
  });

  it('verifies ECDSA and SHA-384/512 signatures', async () => {
    const dir = await mkdtemp(path.join(pki.dir, 'ec-'));
    const ec = { cert: path.join(dir, 'ca.pem'), key: path.join(dir, 'ca.key') };
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-subj', '/CN=EC Test CA',
      '-keyout', ec.key, '-out', ec.cert, '-days', '2',
      '-addext', 'keyUsage=critical,keyCertSign,cRLSign',
    ], { stdio: 'ignore' }); // prettier-ignore
    const ecCa = await certificateOf(ec.cert);
    const ecCrl = await opensslCrl(pki.dir, ec, [pki.instance(1).certificateFile], { md: 'sha384' });
    expect(parseCertificateList(pemToDer(ecCrl)).algorithm.name).to.equal('ecdsa-with-SHA384');
    expect(load(ecCrl, [ecCa]).count).to.equal(1);
    expect(() => load(ecCrl, [apCa])).to.throw(/not signed by any configured/);
    const apKey = { cert: pki.apCaCertificateFile, key: path.join(pki.dir, 'ca', 'ap-ca.key.pem') };
    const rsa512 = await opensslCrl(pki.dir, apKey, [pki.instance(1).certificateFile], { md: 'sha512' });
    expect(parseCertificateList(pemToDer(rsa512)).algorithm.name).to.equal('sha512WithRSAEncryption');
    expect(load(rsa512).problem(good, new Date())).to.match(
      /^revoked on .* \(CRL of Invoicing Test Access Point CA\)$/,
    );
  });

  it('still uses a CRL past its nextUpdate, and warns once', async () => {
    const warnings: string[] = [];
    const lists = load(await readFile(pki.apCaCrlFile), [apCa], (m) => warnings.push(m));
    lists.checkFreshness(new Date());
    expect(warnings).to.deep.equal([]);
    const later = new Date(Date.now() + 31 * 24 * 3600 * 1000);
    expect(lists.problem(revoked, later)).to.match(/^revoked on /);
    expect(lists.problem(good, later)).to.equal(null);
    lists.checkFreshness(later);
    expect(warnings).to.have.length(1);
    expect(warnings[0]).to.match(
      /^the CRL test\.crl of Invoicing Test Access Point CA was due for renewal on .*Z: it is still used/,
    );
  });

  it('refuses what is not a CRL, with the file named', async () => {
    const der = await readFile(pki.apCaCrlDerFile);
    const cases: Array<[string, Buffer, RegExp]> = [
      ['empty', Buffer.alloc(0), /test\.crl is not a valid DER X\.509 CRL: CertificateList missing/],
      ['a certificate', await readFile(pki.apCaCertificateFile), /without an "X509 CRL" block/],
      ['a DER certificate', apCa.raw, /not a valid DER X\.509 CRL/],
      ['truncated', der.subarray(0, der.length - 1), /claims \d+ bytes, \d+ remain/],
      ['trailing bytes', Buffer.concat([der, Buffer.from([0])]), /unexpected bytes after CertificateList/],
      ['garbage', Buffer.from('hello, this is no CRL'), /expected tag 0x30/],
      // 30 84 7f ff ff ff: a length of 2 GB in a tiny file.
      ['absurd length', Buffer.from('30847fffffff00', 'hex'), /claims 2147483647 bytes, 1 remain/],
      ['indefinite length', Buffer.from('30800000', 'hex'), /indefinite length/],
      ['five length bytes', Buffer.from('3085010000000000', 'hex'), /length of 5 bytes/],
    ];
    for (const [what, bytes, message] of cases) expect(() => load(bytes), what).to.throw(message);
    expect(() => RevocationLists.load([path.join(pki.dir, 'missing.crl')], [apCa])).to.throw(/ENOENT/);
  });

  it('reads DER strictly: minimal lengths only', () => {
    expect(() => readDer(Buffer.from('30810100', 'hex'), TAG.sequence, 'x')).to.throw(/non-minimal length/);
    expect(() => readDer(Buffer.from('3082000100', 'hex'), TAG.sequence, 'x')).to.throw(/non-minimal length/);
    const long = Buffer.concat([Buffer.from('04818000', 'hex').subarray(0, 3), Buffer.alloc(128, 7)]);
    expect(readDer(long, TAG.octetString, 'x').content.length).to.equal(128);
    const cursor = new DerCursor(Buffer.from('020101', 'hex'));
    expect(cursor.optional(TAG.sequence)).to.equal(null);
    expect(cursor.next(TAG.integer).content).to.deep.equal(Buffer.from([1]));
    expect(cursor.done).to.equal(true);
  });

  it('loads several files, each CRL of a PEM bundle', async () => {
    const bundle = Buffer.concat([await readFile(pki.apCaCrlFile), await readFile(pki.apCaCrlFile)]);
    const sources: CrlSource[] = [
      { name: 'bundle.pem', bytes: bundle },
      { name: 'der.crl', bytes: await readFile(pki.apCaCrlDerFile) },
    ];
    expect(RevocationLists.of(sources, [apCa]).count).to.equal(3);
  });
});

describe('AccessPointTrust: issuer, validity, revocation', function () {
  this.timeout(120_000);
  let pki: TestPki;
  before(async () => {
    pki = await makeTestPki({ instances: 1 });
  });
  after(() => pki?.dispose());

  it('accepts a current AP certificate, refuses the revoked one only when the CRL is configured', async () => {
    const apCa = await certificateOf(pki.apCaCertificateFile);
    const withCrl = new AccessPointTrust([apCa], {
      crls: RevocationLists.load([pki.apCaCrlFile], [apCa]),
      ocsp: null,
      failurePolicy: 'crl',
      warn: () => {},
    });
    const withoutCrl = new AccessPointTrust([apCa]);
    const problem = async (trust: AccessPointTrust, certificate: X509Certificate, at: Date) => {
      const found = await trust.check(certificate, at);
      // Nothing here is temporary: only an OCSP status that cannot be had is.
      if (found) expect(found.temporary).to.equal(false);
      return found?.reason ?? null;
    };
    const now = new Date();
    const revoked = await certificateOf(pki.revoked.certificateFile);
    expect(await problem(withCrl, await certificateOf(pki.instance(1).certificateFile), now)).to.equal(null);
    expect(await problem(withCrl, revoked, now)).to.match(/^revoked on .* \(CRL of Invoicing Test Access Point CA/);
    expect(await problem(withoutCrl, revoked, now)).to.equal(null);
    expect(await problem(withCrl, await certificateOf(pki.untrusted.certificateFile), now)).to.equal(
      'not issued by a trusted Peppol CA',
    );
    // After its validity the revoked certificate is refused for both reasons.
    expect(await problem(withCrl, revoked, new Date(Date.now() + 60 * 24 * 3600 * 1000))).to.match(
      /^expired on .*; revoked on /,
    );
    expect(await problem(new AccessPointTrust([]), revoked, now)).to.equal(
      'no Peppol AP CA is configured (PEPPOL_AP_CA_FILES)',
    );
  });
});
