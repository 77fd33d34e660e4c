import { expect } from 'chai';
import { loadPeppolConfig } from '../../../src/infrastructure/peppolConfig.js';

describe('Peppol settings', () => {
  it('defaults to the Peppol production SML zone, system DNS, every network adapter off, and OCSP on', () => {
    expect(loadPeppolConfig({})).to.deep.equal({
      publicUrl: null,
      as4EndpointUrl: null,
      as4CertificateFile: null,
      as4CertificatePem: null,
      as4KeyFile: null,
      as4KeyPem: null,
      apCaFiles: [],
      crlFiles: [],
      ocsp: true,
      ocspFailurePolicy: 'crl',
      ocspTimeoutMs: 5000,
      ocspCacheMaxSeconds: 3600,
      ocspNonce: false,
      as4AllowPlainHttpLoopback: false,
      as4MaxMessageBytes: 64 * 1024 * 1024,
      as4SendTimeoutMs: 60_000,
      smlCnameFallback: false,
      smpSigningKeyFile: null,
      smpSigningCertificateFile: null,
      smpTechnicalContactUrl: null,
      smlDnsZone: 'participant.sml.prod.tech.peppol.org',
      smlDnsServer: null,
      lookupTimeoutMs: 5000,
      trustedCaFiles: [],
      directoryUrl: null,
      smlUrl: null,
      smlSmpId: null,
      smlClientCertificateFile: null,
      smlClientKeyFile: null,
      serviceProviderId: null,
      serviceProviderCountry: null,
      mlsType: 'ALWAYS_SEND',
      mlsSend: true,
      reportingReceiver: '9925:be0848934496',
      reportingSubmit: true,
    });
  });

  it('reads the service provider settings (SPID, country, MLS, reporting) and refuses malformed ones', () => {
    expect(
      loadPeppolConfig({
        PEPPOL_SPID: '0242:000123',
        PEPPOL_SP_COUNTRY: 'nl',
        MLS_TYPE: 'FAILURE_ONLY',
        MLS_SEND: 'false',
        PEPPOL_REPORTING_RECEIVER: '9915:helger',
        PEPPOL_REPORTING_SUBMIT: 'false',
      }),
    ).to.include({
      serviceProviderId: '0242:000123',
      serviceProviderCountry: 'NL',
      mlsType: 'FAILURE_ONLY',
      mlsSend: false,
      reportingReceiver: '9915:helger',
      reportingSubmit: false,
    });
    expect(() => loadPeppolConfig({ PEPPOL_SPID: 'POP000123' })).to.throw(/PEPPOL_SPID must be an SPIS participant id/);
    expect(() => loadPeppolConfig({ PEPPOL_SP_COUNTRY: 'BEL' })).to.throw(/PEPPOL_SP_COUNTRY/);
    expect(() => loadPeppolConfig({ MLS_TYPE: 'NEVER' })).to.throw(/MLS_TYPE must be one of ALWAYS_SEND, FAILURE_ONLY/);
  });

  it('reads the variables, dropping a trailing slash of URLs and splitting the CA list', () => {
    const config = loadPeppolConfig({
      PUBLIC_URL: 'https://einvoice.example.test/',
      SML_DNS_ZONE: 'participant.sml.test.tech.peppol.org',
      SML_DNS_SERVER: '127.0.0.1:5353',
      PEPPOL_TRUSTED_CA_FILES: 'a.pem, b.cer',
      PEPPOL_DIRECTORY_URL: 'https://directory.peppol.eu',
      SML_URL: 'https://sml.example.test/manageparticipantidentifier',
      SML_SMP_ID: 'MY-SMP',
    });
    expect(config).to.include({
      publicUrl: 'https://einvoice.example.test',
      smlDnsZone: 'participant.sml.test.tech.peppol.org',
      smlDnsServer: '127.0.0.1:5353',
      directoryUrl: 'https://directory.peppol.eu',
      smlSmpId: 'MY-SMP',
    });
    expect(config.trustedCaFiles).to.deep.equal(['a.pem', 'b.cer']);
  });

  it('reads the OCSP settings, and refuses a policy it does not know', () => {
    expect(
      loadPeppolConfig({
        AS4_OCSP: 'false',
        AS4_OCSP_FAILURE_POLICY: 'Refuse',
        AS4_OCSP_TIMEOUT_MS: '2000',
        AS4_OCSP_CACHE_MAX_SECONDS: '600',
        AS4_OCSP_NONCE: 'true',
      }),
    ).to.include({
      ocsp: false,
      ocspFailurePolicy: 'refuse',
      ocspTimeoutMs: 2000,
      ocspCacheMaxSeconds: 600,
      ocspNonce: true,
    });
    expect(() => loadPeppolConfig({ AS4_OCSP_FAILURE_POLICY: 'soft' })).to.throw(
      'AS4_OCSP_FAILURE_POLICY must be one of crl, accept, refuse, got "soft"',
    );
    expect(() => loadPeppolConfig({ AS4_OCSP: 'yes' })).to.throw('AS4_OCSP must be true or false, got "yes"');
  });

  it('refuses settings that cannot work, at start', () => {
    expect(() => loadPeppolConfig({ PUBLIC_URL: 'einvoice.example.test' })).to.throw(
      /PUBLIC_URL must be an http\(s\) URL/,
    );
    expect(() => loadPeppolConfig({ PEPPOL_LOOKUP_TIMEOUT_MS: '0' })).to.throw(/positive integer/);
    expect(() => loadPeppolConfig({ SMP_SIGNING_KEY_FILE: 'key.pem' })).to.throw(/set together/);
    expect(() => loadPeppolConfig({ SML_URL: 'https://sml.example.test' })).to.throw(/SML_SMP_ID/);
    expect(() => loadPeppolConfig({ AS4_KEY_FILE: 'ap.key.pem' })).to.throw(/needs AS4_CERTIFICATE_FILE/);
    expect(() => loadPeppolConfig({ AS4_ALLOW_PLAIN_HTTP_LOOPBACK: 'yes' })).to.throw(/true or false/);
  });

  it('reads the access point settings: key and certificate as files or PEM, AP CAs, CRLs, the loopback switch', () => {
    const config = loadPeppolConfig({
      AS4_KEY_PEM: '-----BEGIN PRIVATE KEY-----',
      AS4_CERTIFICATE_FILE: 'ap.cert.pem',
      PEPPOL_AP_CA_FILES: 'ap-ca.pem,ap-ca-2.pem',
      AS4_CRL_FILES: 'ap-ca.crl',
      AS4_ALLOW_PLAIN_HTTP_LOOPBACK: 'TRUE',
      AS4_MAX_MESSAGE_BYTES: '1048576',
    });
    expect(config).to.include({
      as4KeyPem: '-----BEGIN PRIVATE KEY-----',
      as4CertificateFile: 'ap.cert.pem',
      as4AllowPlainHttpLoopback: true,
      as4MaxMessageBytes: 1048576,
    });
    expect(config.apCaFiles).to.deep.equal(['ap-ca.pem', 'ap-ca-2.pem']);
    expect(config.crlFiles).to.deep.equal(['ap-ca.crl']);
  });
});
