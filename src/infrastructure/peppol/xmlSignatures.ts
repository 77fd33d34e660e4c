import { X509Certificate } from 'node:crypto';
import { SignedXml } from 'xml-crypto';
import type { XMLElement } from 'libxmljs';
import type {
  CertificateReport,
  SignatureReport,
  XmlSignatures,
  XmlSigner,
} from '../../application/ports/peppolNetwork.js';
import { parseRemoteXml } from './remoteXml.js';
import { DSIG_NS } from '../../domain/peppol/smpDocuments.js';
import { checkCertificate } from './certificates.js';

const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';
const EXCLUSIVE_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';

/**
 * Verifies enveloped XMLDSig signatures of SMP responses with xml-crypto. The key is the
 * certificate in KeyInfo (that is how SMPs sign); whether to trust it is the certificate check's
 * question. Only a signature over the whole document (one Reference URI="") counts, so that a
 * signed fragment cannot vouch for unsigned content beside it.
 */
export class SmpXmlSignatures implements XmlSignatures {
  constructor(
    private readonly anchors: readonly X509Certificate[] = [],
    private readonly now: () => Date = () => new Date(),
  ) {}

  describeCertificate(base64: string, purpose: string): CertificateReport {
    try {
      return checkCertificate(new X509Certificate(Buffer.from(base64, 'base64')), purpose, this.anchors, this.now());
    } catch (error) {
      return { status: 'error', details: { purpose }, error: `unreadable certificate: ${(error as Error).message}` };
    }
  }

  verify(xml: string): SignatureReport {
    const unsigned = (error: string | null): SignatureReport => ({
      signed: error !== null,
      valid: false,
      error,
      certificate: null,
      signedXml: null,
    });
    const doc = parseRemoteXml(xml);
    const signatures = doc.root()!.find('ds:Signature', { ds: DSIG_NS }) as XMLElement[];
    if (signatures.length === 0) return unsigned(null);
    if (signatures.length > 1) return unsigned('more than one signature');
    const signature = signatures[0]!;
    const certificateText = (
      signature.get('ds:KeyInfo/ds:X509Data/ds:X509Certificate', { ds: DSIG_NS }) as XMLElement | null
    )
      ?.text()
      .replace(/\s+/g, '');
    if (!certificateText) return unsigned('the signature carries no X509Certificate');
    let certificate: X509Certificate;
    try {
      certificate = new X509Certificate(Buffer.from(certificateText, 'base64'));
    } catch (error) {
      return unsigned(`unreadable signer certificate: ${(error as Error).message}`);
    }
    const report = checkCertificate(certificate, 'smp-signature', this.anchors, this.now());
    const verifier = new SignedXml({ publicCert: certificate.toString() });
    let valid: boolean;
    try {
      verifier.loadSignature(signature.toString(false));
      valid = verifier.checkSignature(xml) === true;
    } catch (error) {
      return {
        signed: true,
        valid: false,
        error: `signature check failed: ${(error as Error).message}`,
        certificate: report,
        signedXml: null,
      };
    }
    if (!valid)
      return {
        signed: true,
        valid: false,
        error: 'signature does not match the document',
        certificate: report,
        signedXml: null,
      };
    const references = verifier.getReferences();
    if (references.length !== 1 || (references[0]!.uri ?? '') !== '') {
      return {
        signed: true,
        valid: false,
        error: 'the signature does not cover the whole document',
        certificate: report,
        signedXml: null,
      };
    }
    return {
      signed: true,
      valid: true,
      error: null,
      certificate: report,
      signedXml: verifier.getSignedReferences()[0] ?? null,
    };
  }
}

/** Signs this SMP's ServiceMetadata: RSA-SHA256, exclusive C14N, one enveloped reference to the whole document. */
export class SmpXmlSigner implements XmlSigner {
  constructor(
    private readonly privateKeyPem: string,
    private readonly certificatePem: string,
  ) {}

  sign(xml: string): string {
    const signer = new SignedXml({
      privateKey: this.privateKeyPem,
      publicCert: this.certificatePem,
      signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
      canonicalizationAlgorithm: EXCLUSIVE_C14N,
    });
    signer.addReference({
      xpath: '/*',
      uri: '',
      isEmptyUri: true,
      transforms: [ENVELOPED, EXCLUSIVE_C14N],
      digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    });
    signer.computeSignature(xml, { location: { reference: '/*', action: 'append' } });
    return signer.getSignedXml();
  }
}
