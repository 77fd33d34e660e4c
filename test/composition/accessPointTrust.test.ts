import { X509Certificate } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from 'chai';
import pino from 'pino';
import { container } from '../../src/composition/container.js';
import { registerPeppol } from '../../src/composition/peppol.js';
import { loadConfig } from '../../src/infrastructure/config.js';
import type { PeppolConfig } from '../../src/infrastructure/peppolConfig.js';
import { ACCESS_POINT_TRUST, AccessPointTrust } from '../../src/infrastructure/peppol/accessPointTrust.js';
import { makeTestPki, type TestPki } from '../support/testPki.js';

/** registerPeppol on its own container, its warnings collected. */
function register(pki: TestPki, peppol: Partial<PeppolConfig>): { trust: AccessPointTrust; warnings: string[] } {
  const warnings: string[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => warnings.push(JSON.parse(line).msg) });
  const child = container.createChildContainer();
  registerPeppol(
    child,
    {
      ...loadConfig({}).peppol,
      as4KeyFile: pki.instance(1).keyFile,
      as4CertificateFile: pki.instance(1).certificateFile,
      apCaFiles: [pki.apCaCertificateFile],
      // Signed SMP answers, so that the only warnings are the CRLs'.
      smpSigningKeyFile: pki.instance(1).smpKeyFile,
      smpSigningCertificateFile: pki.instance(1).smpCertificateFile,
      ...peppol,
    },
    logger,
  );
  return { trust: child.resolve<AccessPointTrust>(ACCESS_POINT_TRUST), warnings };
}

describe('composition: AS4_CRL_FILES', function () {
  this.timeout(120_000);
  let pki: TestPki;
  before(async () => {
    pki = await makeTestPki({ instances: 1 });
  });
  after(() => pki?.dispose());

  it('judges other access points on the configured CRLs, and no longer warns that they are not checked', async () => {
    const revoked = new X509Certificate(await readFile(pki.revoked.certificateFile));
    const { trust, warnings } = register(pki, {
      crlFiles: [pki.apCaCrlDerFile],
      // The AP CA and its root, as ap-trust.pem holds them: the root needs no CRL of its own.
      apCaFiles: [path.join(pki.dir, 'trust', 'ap-trust.pem')],
    });
    expect((await trust.check(revoked, new Date()))?.reason).to.match(
      /^revoked on .* \(CRL of Invoicing Test Access Point CA/,
    );
    expect(warnings).to.deep.equal([]);
  });

  it('warns about an AP CA without a CRL', () => {
    const rogueCa = path.join(pki.untrusted.dir, 'ap-ca.cert.pem');
    const { warnings } = register(pki, { crlFiles: [pki.apCaCrlFile], apCaFiles: [pki.apCaCertificateFile, rogueCa] });
    expect(warnings).to.deep.equal([
      'AS4_CRL_FILES has no CRL of C=BE, O=Rogue Test PKI, OU=FOR TEST ONLY, CN=Untrusted Test Access Point CA: its certificates are not checked for revocation unless they name an OCSP responder',
    ]);
  });

  it('refuses to start on a CRL no configured AP CA signed, or a file that is no CRL', () => {
    expect(() => register(pki, { crlFiles: [pki.apCaCrlFile], apCaFiles: [pki.smpCaCertificateFile] })).to.throw(
      `CRL file ${pki.apCaCrlFile} is not signed by any configured Peppol AP CA (PEPPOL_AP_CA_FILES): its issuer is none of them`,
    );
    expect(() => register(pki, { crlFiles: [pki.apCaCertificateFile] })).to.throw(
      /^CRL file .*ap-ca\.cert\.pem: a PEM file without an "X509 CRL" block$/,
    );
  });

  it('without AS4_CRL_FILES checks issuer and validity only', async () => {
    const revoked = new X509Certificate(await readFile(pki.revoked.certificateFile));
    expect(await register(pki, {}).trust.check(revoked, new Date())).to.equal(null);
  });
});
