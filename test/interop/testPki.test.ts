import { execFile, spawnSync } from 'node:child_process';
import { createHash, createPrivateKey, createPublicKey, X509Certificate } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import {
  makeTestPki,
  runTestPki,
  seatId,
  TEST_PKI_PASSWORD,
  TEST_PKI_SCRIPT,
  type TestPki,
} from '../support/testPki.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const SEAT_ID = /^P[A-Z]{2}\d{6}$/;

async function certificate(file: string): Promise<X509Certificate> {
  return new X509Certificate(await readFile(file));
}

/** The PEM certificates of a bundle, in file order. */
async function bundle(file: string): Promise<X509Certificate[]> {
  const text = await readFile(file, 'utf8');
  return (text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []).map(
    (pem) => new X509Certificate(pem),
  );
}

/** `child` names `issuer` as its issuer and carries its signature. */
function issuedBy(child: X509Certificate, issuer: X509Certificate): boolean {
  return child.checkIssued(issuer) && child.verify(issuer.publicKey);
}

function subjectField(cert: X509Certificate, field: string): string | undefined {
  return cert.subject
    .split('\n')
    .find((line) => line.startsWith(`${field}=`))
    ?.slice(field.length + 1);
}

/** Node reads extended key usage but not key usage: openssl names the bits. */
function keyUsage(file: string): string[] {
  const out = spawnSync('openssl', ['x509', '-in', file, '-noout', '-ext', 'keyUsage'], { encoding: 'utf8' });
  return out.stdout
    .split('\n')
    .slice(1)
    .join(',')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The certificates of a PKCS#12 file and whether each is marked trusted for Java. */
function pkcs12(file: string, withKey: boolean): { certificates: number; javaTrusted: number; hasKey: boolean } {
  const args = ['pkcs12', '-in', file, '-passin', `pass:${TEST_PKI_PASSWORD}`, '-info', withKey ? '-nodes' : '-nokeys'];
  const out = spawnSync('openssl', args, { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`openssl pkcs12 failed on ${file}: ${out.stderr}`);
  return {
    certificates: out.stdout.match(/-----BEGIN CERTIFICATE-----/g)?.length ?? 0,
    // The bag attribute Java's PKCS12 key store reads as "trusted certificate entry".
    javaTrusted: out.stdout.match(/2\.16\.840\.1\.113894\.746875\.1\.1|Trusted key usage \(Oracle\)/g)?.length ?? 0,
    hasKey: /-----BEGIN PRIVATE KEY-----/.test(out.stdout),
  };
}

async function hashes(dir: string): Promise<Map<string, string>> {
  const result = new Map<string, string>();
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    result.set(
      path.relative(dir, file),
      createHash('sha256')
        .update(await readFile(file))
        .digest('hex'),
    );
  }
  return result;
}

const hasKeytool = spawnSync('keytool', ['-help'], { stdio: 'ignore' }).error === undefined;

describe('scripts/test-pki: a private Peppol-like test PKI', function () {
  this.timeout(120_000);
  let pki: TestPki;
  let root: X509Certificate;
  let apCa: X509Certificate;
  let smpCa: X509Certificate;

  before(async () => {
    pki = await makeTestPki({ instances: 3, days: 30 });
    root = await certificate(pki.rootCertificateFile);
    apCa = await certificate(pki.apCaCertificateFile);
    smpCa = await certificate(pki.smpCaCertificateFile);
  });
  after(() => pki?.dispose());

  it('has a self-signed root with an AP CA and an SMP CA under it', () => {
    expect(root.ca).to.equal(true);
    expect(issuedBy(root, root)).to.equal(true);
    for (const ca of [apCa, smpCa]) {
      expect(ca.ca).to.equal(true);
      expect(issuedBy(ca, root)).to.equal(true);
      expect(issuedBy(ca, ca)).to.equal(false);
    }
    expect(subjectField(apCa, 'CN')).to.equal('Invoicing Test Access Point CA');
    expect(subjectField(smpCa, 'CN')).to.equal('Invoicing Test SMP CA');
  });

  it('issues each instance an AP certificate from the AP CA whose CN is its Peppol seat id', async () => {
    for (const i of [1, 2, 3]) {
      const ap = pki.instance(i);
      const cert = await certificate(ap.certificateFile);
      expect(subjectField(cert, 'CN')).to.equal(seatId(i)).and.to.match(SEAT_ID);
      expect(subjectField(cert, 'OU')).to.equal('PEPPOL TEST AP');
      expect(subjectField(cert, 'O')).to.equal(`Invoicing Test Instance ${i}`);
      expect(subjectField(cert, 'C')).to.equal('BE');
      expect(cert.ca).to.equal(false);
      expect(issuedBy(cert, apCa)).to.equal(true);
      expect(issuedBy(cert, smpCa), 'an AP certificate is not from the SMP CA').to.equal(false);
      expect(keyUsage(ap.certificateFile)).to.have.members(['Digital Signature', 'Key Encipherment', 'Key Agreement']);
      expect(cert.keyUsage, 'extended key usage').to.deep.equal(['1.3.6.1.5.5.7.3.2']);
      expect(cert.publicKey.asymmetricKeyDetails?.modulusLength).to.equal(2048);
      // Without --ocsp-url no OCSP responder is named (then no access point asks one).
      expect(cert.infoAccess).to.equal(undefined);
    }
  });

  it('keeps the CA database (V valid, R revoked) and a delegated OCSP responder of the AP CA, for openssl ocsp', async () => {
    const index = (await readFile(pki.caIndexFile, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => line.split('\t'));
    const status = async (file: string) => {
      const serial = (await certificate(file)).serialNumber;
      return index.find((fields) => fields[3] === serial)?.[0];
    };
    expect(await status(pki.revoked.certificateFile)).to.equal('R');
    expect(index.find((f) => f[0] === 'R')![2]).to.match(/,keyCompromise$/);
    for (const file of [pki.instance(1).certificateFile, pki.instance(3).certificateFile, pki.expired.certificateFile])
      expect(await status(file), file).to.equal('V');
    const responder = await certificate(pki.ocspResponderCertificateFile);
    expect(issuedBy(responder, apCa)).to.equal(true);
    expect(responder.ca).to.equal(false);
    expect(responder.keyUsage, 'extended key usage').to.deep.equal(['1.3.6.1.5.5.7.3.9']);
    expect(responder.checkPrivateKey(createPrivateKey(await readFile(pki.ocspResponderKeyFile)))).to.equal(true);
  });

  it('makes every instance certificate valid from now for the days asked', async () => {
    const cert = await certificate(pki.instance(2).certificateFile);
    const from = Date.parse(cert.validFrom);
    const to = Date.parse(cert.validTo);
    expect(from).to.be.below(Date.now());
    expect(to - Date.now()).to.be.within(29 * DAY_MS, 30 * DAY_MS + 60_000);
    expect(Date.parse(root.validTo)).to.be.above(to);
  });

  it('gives each AP its key and the chain leaf → AP CA → root', async () => {
    const ap = pki.instance(1);
    const cert = await certificate(ap.certificateFile);
    const key = createPrivateKey(await readFile(ap.keyFile));
    expect(cert.checkPrivateKey(key)).to.equal(true);
    expect(
      createPublicKey(key)
        .export({ type: 'spki', format: 'der' })
        .equals(cert.publicKey.export({ type: 'spki', format: 'der' })),
    ).to.equal(true);
    expect(cert.checkPrivateKey(createPrivateKey(await readFile(pki.instance(2).keyFile)))).to.equal(false);

    const chain = await bundle(ap.chainFile);
    expect(chain.map((c) => c.fingerprint256)).to.deep.equal([cert, apCa, root].map((c) => c.fingerprint256));
    expect(issuedBy(chain[0]!, chain[1]!) && issuedBy(chain[1]!, chain[2]!) && issuedBy(chain[2]!, chain[2]!)).to.equal(
      true,
    );
  });

  it('issues each instance an SMP certificate from the SMP CA', async () => {
    const instance = pki.instance(3);
    const smp = await certificate(instance.smpCertificateFile);
    expect(subjectField(smp, 'CN')).to.equal(seatId(3));
    expect(subjectField(smp, 'OU')).to.equal('PEPPOL TEST SMP');
    expect(issuedBy(smp, smpCa)).to.equal(true);
    expect(issuedBy(smp, apCa)).to.equal(false);
    expect(smp.checkPrivateKey(createPrivateKey(await readFile(instance.smpKeyFile)))).to.equal(true);
    expect((await bundle(instance.smpChainFile)).map((c) => c.fingerprint256)).to.deep.equal(
      [smp, smpCa, root].map((c) => c.fingerprint256),
    );
  });

  it('has an AP certificate from the real AP CA that expired yesterday', async () => {
    const cert = await certificate(pki.expired.certificateFile);
    expect(subjectField(cert, 'CN')).to.equal('POP999998').and.to.match(SEAT_ID);
    expect(issuedBy(cert, apCa)).to.equal(true);
    expect(Date.parse(cert.validTo)).to.be.below(Date.now());
    expect(Date.now() - Date.parse(cert.validTo)).to.be.within(DAY_MS - 60_000, 2 * DAY_MS);
    expect(cert.checkPrivateKey(createPrivateKey(await readFile(pki.expired.keyFile)))).to.equal(true);
  });

  it('has a well-formed, current AP certificate from a root nobody here trusts', async () => {
    const cert = await certificate(pki.untrusted.certificateFile);
    expect(subjectField(cert, 'CN')).to.equal('POP999999').and.to.match(SEAT_ID);
    expect(subjectField(cert, 'OU')).to.equal('PEPPOL TEST AP');
    expect(Date.parse(cert.validTo)).to.be.above(Date.now());
    for (const trusted of [apCa, smpCa, root]) expect(issuedBy(cert, trusted)).to.equal(false);
    const [leaf, foreignCa, foreignRoot] = await bundle(pki.untrusted.chainFile);
    expect(leaf!.fingerprint256).to.equal(cert.fingerprint256);
    expect(
      issuedBy(cert, foreignCa!) && issuedBy(foreignCa!, foreignRoot!) && issuedBy(foreignRoot!, foreignRoot!),
    ).to.equal(true);
    expect(foreignRoot!.fingerprint256).to.not.equal(root.fingerprint256);
    // Nothing the real trust files hold is on its chain.
    const trusted = (await bundle(path.join(pki.dir, 'trust', 'ap-trust.pem'))).map((c) => c.fingerprint256);
    expect(trusted).to.deep.equal([apCa.fingerprint256, root.fingerprint256]);
    expect(trusted).to.not.include(foreignCa!.fingerprint256);
  });

  it('has a current AP certificate from the real AP CA that the AP CA revoked in its CRL, PEM and DER', async () => {
    const cert = await certificate(pki.revoked.certificateFile);
    expect(subjectField(cert, 'CN')).to.equal('POP999997').and.to.match(SEAT_ID);
    expect(issuedBy(cert, apCa)).to.equal(true);
    expect(Date.parse(cert.validTo)).to.be.above(Date.now());
    expect(cert.checkPrivateKey(createPrivateKey(await readFile(pki.revoked.keyFile)))).to.equal(true);

    const crl = (file: string, ...args: string[]) => {
      const out = spawnSync('openssl', ['crl', '-in', file, '-noout', ...args], { encoding: 'utf8' });
      return { ...out, output: out.stdout + out.stderr };
    };
    const text = crl(pki.apCaCrlFile, '-text');
    expect(text.status, text.stderr).to.equal(0);
    expect(text.stdout).to.include(
      'Issuer: C = BE, O = Invoicing Service Test PKI, OU = FOR TEST ONLY, CN = Invoicing Test Access Point CA',
    );
    const serials = [...text.stdout.matchAll(/Serial Number: ([0-9A-F]+)/g)].map((m) => m[1]);
    expect(serials).to.deep.equal([cert.serialNumber]);
    expect(text.stdout).to.include('Key Compromise');
    for (const good of [pki.instance(1), pki.instance(2), pki.expired])
      expect(serials).to.not.include((await certificate(good.certificateFile)).serialNumber);
    // Signed by the AP CA, not by the root; the DER copy is the same list.
    expect(crl(pki.apCaCrlFile, '-CAfile', pki.apCaCertificateFile).output).to.match(/verify OK/);
    expect(crl(pki.apCaCrlFile, '-CAfile', pki.rootCertificateFile).output).to.not.match(/verify OK/);
    const der = spawnSync('openssl', ['crl', '-in', pki.apCaCrlFile, '-outform', 'DER']).stdout;
    expect(der.equals(await readFile(pki.apCaCrlDerFile))).to.equal(true);
  });

  it('packs each AP key and chain as a PKCS#12 keystore', () => {
    for (const ap of [pki.instance(1), pki.expired, pki.untrusted, pki.revoked]) {
      const store = pkcs12(ap.keystoreFile, true);
      expect(store.hasKey, ap.keystoreFile).to.equal(true);
      expect(store.certificates, ap.keystoreFile).to.equal(3);
    }
  });

  it(
    hasKeytool
      ? 'has a Java truststore of root, AP CA and SMP CA, copied beside each AP'
      : 'has no Java truststore where no keytool is installed',
    async () => {
      const truststore = path.join(pki.dir, 'trust', 'truststore.p12');
      if (!hasKeytool) {
        expect(existsSync(truststore)).to.equal(false);
        return;
      }
      const store = pkcs12(truststore, false);
      expect(store).to.deep.equal({ certificates: 3, javaTrusted: 3, hasKey: false });
      const original = await readFile(truststore);
      for (const ap of [pki.instance(1), pki.instance(3), pki.expired, pki.untrusted, pki.revoked])
        expect((await readFile(ap.truststoreFile)).equals(original)).to.equal(true);
    },
  );

  it('changes nothing when run again, and adds only the missing instances when asked for more', async () => {
    const before = await hashes(pki.dir);
    await runTestPki(pki.dir, ['--instances', '3', '--days', '30']);
    expect(await hashes(pki.dir)).to.deep.equal(before);

    await runTestPki(pki.dir, ['--instances', '4', '--days', '30']);
    const after = await hashes(pki.dir);
    // The CA database records what it issued.
    const database = (file: string) => file === 'pki.env' || file.startsWith(path.join('ca', 'db'));
    for (const [file, hash] of before) if (!database(file)) expect(after.get(file), file).to.equal(hash);
    const added = [...after.keys()].filter((file) => !before.has(file) && !database(file));
    expect(added.every((file) => file.startsWith(path.join('instances', 'POP000004')))).to.equal(true);
    expect(await readFile(pki.caIndexFile, 'utf8')).to.include('/CN=POP000004\n');
    expect(issuedBy(await certificate(pki.instance(4).certificateFile), apCa)).to.equal(true);
  });

  it('refuses bad arguments with a message and exit code 2', async () => {
    for (const args of [
      ['--instances', 'two'],
      ['--days', '1'],
      ['--country', 'Belgium'],
      ['--ocsp-url', 'ldap://ocsp.test'],
      ['--bogus', 'x'],
    ]) {
      const error = await promisify(execFile)('bash', [TEST_PKI_SCRIPT, '--out', pki.dir, ...args]).then(
        () => null,
        (e: { code: number; stderr: string }) => e,
      );
      expect(error, args.join(' ')).to.not.equal(null);
      expect(error!.code).to.equal(2);
      expect(error!.stderr).to.match(/^test-pki: /);
    }
  });
});
