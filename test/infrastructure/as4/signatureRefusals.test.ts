import { execFile } from 'node:child_process';
import { createHash, randomUUID, X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { envelopeXml } from '../../../src/infrastructure/as4/ebmsWriter.js';
import { ALGORITHM, NS } from '../../../src/infrastructure/as4/namespaces.js';
import {
  signedIds,
  signEnvelope,
  verifySignature,
  type AttachmentContent,
  type SignatureVerification,
} from '../../../src/infrastructure/as4/wsSecuritySignature.js';
import { SecurityHeaderError } from '../../../src/infrastructure/as4/wsSecurityTokens.js';
import { parseUntrustedXmlDom } from '../../../src/infrastructure/as4/xmlDom.js';
import { makeTestAs4Pki, type TestAs4Pki } from '../../support/as4TestKeys.js';
import { editReference, resign } from '../../support/as4Tamper.js';

const SIGNAL =
  '<eb:SignalMessage><eb:MessageInfo><eb:Timestamp>2026-01-01T00:00:00Z</eb:Timestamp><eb:MessageId>m@x</eb:MessageId></eb:MessageInfo></eb:SignalMessage>';
const SAME_DOCUMENT = 'a same-document reference must have exactly one transform, exclusive C14N';
const ATTACHMENT = 'an attachment reference must have exactly one transform, Attachment-Content-Signature-Transform';
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';
const COMPLETE = 'http://docs.oasis-open.org/wss/oasis-wss-SwAProfile-1.1#Attachment-Complete-Signature-Transform';

/**
 * Each refusal of the signature verifier on a message signed with a real key (our signer, the
 * phase4 conventions): what was changed is signed again where the change is inside SignedInfo, so
 * the check under test is the only one that can refuse it, and every refusal is an answer with its
 * reason, never an exception.
 */
describe('WS-Security signature verification refuses, with its reason', function () {
  let pki: TestAs4Pki;
  const attachment: AttachmentContent = { contentId: 'p@x', mimeType: 'application/gzip', bytes: Buffer.from('gz') };
  let ids: { messaging: string; body: string };
  let signed: string;

  before(async function () {
    this.timeout(60_000);
    pki = await makeTestAs4Pki(['POP000021']);
  });
  // Signed for each test, not once in `before`: the mutation run (npm run mutation) credits the
  // code a hook runs to one test only, and each test here must see a signer with its mutant.
  beforeEach(() => {
    ids = { messaging: `msg-${randomUUID()}`, body: `id-${randomUUID()}` };
    signed = signEnvelope({
      envelope: envelopeXml(SIGNAL, ids),
      ids: [ids.messaging, ids.body],
      attachments: [attachment],
      key: pki.accessPoints.POP000021!,
      newId: randomUUID,
    }).xml;
  });
  after(async () => pki?.dispose());

  const key = () => pki.accessPoints.POP000021!;
  const verify = (xml: string, attachments: AttachmentContent[] = [attachment]): SignatureVerification =>
    verifySignature(parseUntrustedXmlDom(xml), new Map(attachments.map((a) => [a.contentId, a])));
  /** Reference n (0 #messaging, 1 #body, 2 cid:p@x) changed, and SignedInfo signed again. */
  const withReference = (n: number, edit: (reference: string) => string) =>
    resign(signed, key(), (signedInfo) => editReference(signedInfo, n, edit));
  const refusedFor = (result: SignatureVerification, reason: string) => {
    expect(result.reason).to.equal(reason);
    expect(result.valid).to.equal(false);
  };

  it('accepts a SignedInfo canonicalized without a PrefixList, and one whose PrefixList is padded with white space', () => {
    const bare = resign(signed, key(), (s) => s.replace(/<ec:InclusiveNamespaces [^>]*\/>/, ''));
    expect(bare).not.to.equal(signed);
    expect(verify(bare)).to.include({ valid: true, reason: null });
    const padded = resign(signed, key(), (s) =>
      s.replace(/PrefixList="([^"]*)"/, (_, list: string) => `PrefixList="  ${list.split(' ').join('   ')}  "`),
    );
    expect(padded).to.contain('PrefixList="  ');
    expect(verify(padded)).to.include({ valid: true, reason: null });
  });

  it('accepts the message as signed, and again when signed again unchanged (the tests below change one thing)', () => {
    const result = verify(signed);
    expect(result).to.include({ valid: true, signedInfoValid: true, reason: null });
    expect(result.certificate!.raw.equals(key().certificate.raw)).to.equal(true);
    expect(result.references.map((r) => [r.reference.uri, r.status, r.detail])).to.deep.equal([
      [`#${ids.messaging}`, 'ok', null],
      [`#${ids.body}`, 'ok', null],
      ['cid:p@x', 'ok', null],
    ]);
    expect(verify(resign(signed, key(), (s) => s))).to.include({ valid: true, reason: null });
    expect([...signedIds(result)]).to.deep.equal([ids.messaging, ids.body]);
  });

  describe('a same-document reference whose transforms are not exactly exclusive C14N', () => {
    const cases: [string, (reference: string) => string][] = [
      ['no transform', (r) => r.replace(/<ds:Transforms>[\s\S]*<\/ds:Transforms>/, '<ds:Transforms></ds:Transforms>')],
      ['no Transforms element', (r) => r.replace(/<ds:Transforms>[\s\S]*<\/ds:Transforms>/, '')],
      ['a second transform', (r) => r.replace(/(<ds:Transform [\s\S]*<\/ds:Transform>)/, '$1$1')],
      ['another transform', (r) => r.replace(`Algorithm="${ALGORITHM.excC14n}"`, `Algorithm="${ENVELOPED}"`)],
    ];
    for (const [what, edit] of cases)
      it(`${what}: unsupported, though SignedInfo's signature is good`, () => {
        const result = verify(withReference(0, edit));
        refusedFor(result, SAME_DOCUMENT);
        expect(result.signedInfoValid).to.equal(true);
        expect(result.references.map((r) => r.status)).to.deep.equal(['unsupported', 'ok', 'ok']);
        expect([...signedIds(result)]).to.deep.equal([ids.body]);
      });
  });

  describe('an attachment reference whose transforms are not exactly the Attachment-Content-Signature-Transform', () => {
    const cases: [string, (reference: string) => string][] = [
      ['no transform', (r) => r.replace(/<ds:Transforms>[\s\S]*<\/ds:Transforms>/, '<ds:Transforms></ds:Transforms>')],
      ['a second transform', (r) => r.replace(/(<ds:Transform [^>]*\/>)/, '$1$1')],
      ['another transform', (r) => r.replace(ALGORITHM.attachmentContentSignature, COMPLETE)],
    ];
    for (const [what, edit] of cases)
      it(`${what}: unsupported`, () => {
        const result = verify(withReference(2, edit));
        refusedFor(result, ATTACHMENT);
        expect(result.signedInfoValid).to.equal(true);
        expect(result.references.map((r) => r.status)).to.deep.equal(['ok', 'ok', 'unsupported']);
      });
  });

  it('a digest method other than SHA-256: unsupported', () => {
    const result = verify(
      withReference(0, (r) => r.replace(ALGORITHM.sha256, 'http://www.w3.org/2000/09/xmldsig#sha1')),
    );
    refusedFor(result, 'digest method http://www.w3.org/2000/09/xmldsig#sha1 (Peppol requires SHA-256)');
    expect(result.references.map((r) => r.status)).to.deep.equal(['unsupported', 'ok', 'ok']);
  });

  it('a reference that is neither #id nor cid:', () => {
    const result = verify(withReference(2, (r) => r.replace('URI="cid:p@x"', 'URI="http://example.com/p"')));
    refusedFor(result, 'reference http://example.com/p is neither #id nor cid:');
    expect(result.references[2]!.status).to.equal('unsupported');
  });

  it('a digest of the wrong length, or none: a mismatch, not an exception', () => {
    for (const value of ['AAAA', '', 'not base64 at all!']) {
      const result = verify(withReference(1, (r) => r.replace(/<ds:DigestValue>[^<]*</, `<ds:DigestValue>${value}<`)));
      refusedFor(result, `the digest of #${ids.body} does not match`);
      expect(result.references[1]!.status).to.equal('digest-mismatch');
    }
  });

  it('reads a DigestValue and a SignatureValue wrapped over several lines, as base64 often is', () => {
    const wrapped = withReference(0, (r) =>
      r.replace(/<ds:DigestValue>([^<]{20})([^<]*)</, '<ds:DigestValue>\n$1\n  $2\n<'),
    ).replace(/<ds:SignatureValue>([^<]{64})([^<]*)</, '<ds:SignatureValue>$1\r\n$2\n<');
    expect(verify(wrapped)).to.include({ valid: true, signedInfoValid: true, reason: null });
  });

  describe('a reference that names nothing it can check', () => {
    it('an id no element has: unresolvable', () => {
      const result = verify(withReference(0, (r) => r.replace(`URI="#${ids.messaging}"`, 'URI="#nowhere"')));
      refusedFor(result, 'no element has the id nowhere');
      expect(result.references[0]!.status).to.equal('unresolvable');
    });

    it('an id two elements have (signature wrapping): unresolvable', () => {
      const result = verify(
        signed.replace('</S12:Header>', `<x xmlns:wsu="${NS.wsu}" wsu:Id="${ids.messaging}"/></S12:Header>`),
      );
      refusedFor(result, `2 elements have the id ${ids.messaging}`);
      expect(result.references[0]!.status).to.equal('unresolvable');
    });

    it('an attachment that is not there (or was encrypted for another key): unresolvable', () => {
      const result = verify(signed, []);
      refusedFor(result, 'attachment cid:p@x is not available (absent, or encrypted for another key)');
      expect(result.references.map((r) => r.status)).to.deep.equal(['ok', 'ok', 'unresolvable']);
      expect(result.signedInfoValid).to.equal(true);
    });
  });

  describe('a signature that is not all there', () => {
    it('no SignedInfo, no SignatureValue, or an empty one', () => {
      for (const xml of [
        signed.replace(/<ds:SignedInfo>[\s\S]*<\/ds:SignedInfo>/, ''),
        signed.replace(/<ds:SignatureValue>[^<]*<\/ds:SignatureValue>/, ''),
        signed.replace(/<ds:SignatureValue>[^<]*<\/ds:SignatureValue>/, '<ds:SignatureValue> </ds:SignatureValue>'),
      ])
        expect(verify(xml)).to.deep.equal({
          valid: false,
          signedInfoValid: null,
          references: [],
          certificate: null,
          reason: 'the signature has no SignedInfo or SignatureValue',
        });
    });

    it('no CanonicalizationMethod or SignatureMethod', () => {
      refusedFor(
        verify(resign(signed, key(), (s) => s.replace(/<ds:SignatureMethod [^>]*\/>/, ''))),
        'signature method missing (Peppol requires RSA-SHA256)',
      );
      refusedFor(
        verify(signed.replace(/<ds:CanonicalizationMethod [\s\S]*<\/ds:CanonicalizationMethod>/, '')),
        'SignedInfo is not canonicalized with exclusive C14N',
      );
    });

    it('no reference: refused, the certificate named', () => {
      const result = verify(resign(signed, key(), (s) => s.replace(/<ds:Reference [\s\S]*<\/ds:Reference>/, '')));
      refusedFor(result, 'SignedInfo has no references');
      expect(result.certificate!.raw.equals(key().certificate.raw)).to.equal(true);
      expect(result.references).to.deep.equal([]);
    });

    it('two signatures, none, no Security header or two, not a SOAP envelope', () => {
      const signature = /<ds:Signature [\s\S]*<\/ds:Signature>/.exec(signed)![0];
      const cases: [string, string][] = [
        [signed.replace(signature, signature + signature), 'the Security header has more than one signature'],
        [signed.replace(signature, ''), 'the Security header has no signature'],
        [signed.replace(/<wsse:Security [\s\S]*<\/wsse:Security>/, ''), 'the message has no wsse:Security header'],
        [
          signed.replace(/(<wsse:Security [\s\S]*<\/wsse:Security>)/, '$1$1'),
          'the message has more than one wsse:Security header',
        ],
        ['<Envelope xmlns="urn:x"/>', 'the root element is not a SOAP Envelope: {urn:x}Envelope'],
      ];
      for (const [xml, reason] of cases)
        expect(verify(xml)).to.deep.equal({
          valid: false,
          signedInfoValid: null,
          references: [],
          certificate: null,
          reason,
        });
    });
  });

  describe('a KeyInfo that does not name a certificate of this message', () => {
    const token = () => /<wsse:BinarySecurityToken [^>]*>[^<]*<\/wsse:BinarySecurityToken>/.exec(signed)![0];
    const tokenId = () => /wsu:Id="(X509-[^"]+)"/.exec(token())![1]!;
    const cases: [string, () => string, () => string][] = [
      [
        'no KeyInfo',
        () => signed.replace(/<ds:KeyInfo [\s\S]*<\/ds:KeyInfo>/, ''),
        () => 'the key is not named by a direct reference to a BinarySecurityToken',
      ],
      [
        'a reference that is not #id',
        () => signed.replace(`<wsse:Reference URI="#${tokenId()}"`, `<wsse:Reference URI="${tokenId()}"`),
        () => 'the key is not named by a direct reference to a BinarySecurityToken',
      ],
      [
        'a token that is not there',
        () => signed.replace(`<wsse:Reference URI="#${tokenId()}"`, '<wsse:Reference URI="#gone"'),
        () => 'no element has the id gone',
      ],
      [
        'another element',
        () => signed.replace(`<wsse:Reference URI="#${tokenId()}"`, `<wsse:Reference URI="#${ids.body}"`),
        () => `#${ids.body} is not a BinarySecurityToken`,
      ],
      [
        'a token of another type',
        () => signed.replace(token(), token().replace(/ValueType="[^"]*"/, 'ValueType="urn:x:PKCS7"')),
        () => `BinarySecurityToken #${tokenId()} is not an X.509 v3 certificate (urn:x:PKCS7)`,
      ],
      [
        'a token without a type',
        () => signed.replace(token(), token().replace(/ValueType="[^"]*"/, '')),
        () => `BinarySecurityToken #${tokenId()} is not an X.509 v3 certificate (no ValueType)`,
      ],
      [
        'a token in another encoding',
        () => signed.replace(token(), token().replace(/EncodingType="[^"]*"/, 'EncodingType="urn:x:Hex"')),
        () => `BinarySecurityToken #${tokenId()} is not base64 (urn:x:Hex)`,
      ],
    ];
    for (const [what, xml, reason] of cases)
      it(what, () => {
        expect(verify(xml())).to.deep.equal({
          valid: false,
          signedInfoValid: null,
          references: [],
          certificate: null,
          reason: reason(),
        });
      });

    it('a token that is not a certificate', () => {
      const result = verify(signed.replace(token(), token().replace(/>[^<]*</, '>bm90IGEgY2VydGlmaWNhdGU=<')));
      expect(result.reason).to.match(
        new RegExp(`^BinarySecurityToken #${tokenId()} is not a readable certificate: .+`),
      );
      expect(result).to.include({ valid: false, signedInfoValid: null, certificate: null });
    });

    it('a token without EncodingType is read as base64 (its default)', () => {
      expect(verify(signed.replace(token(), token().replace(/EncodingType="[^"]*"/, '')))).to.include({
        valid: true,
        reason: null,
      });
    });
  });

  describe('the SignatureValue', () => {
    const token = () => /<wsse:BinarySecurityToken [^>]*>[^<]*<\/wsse:BinarySecurityToken>/.exec(signed)![0];

    it("another key's signature: SignedInfo does not verify, the references do", () => {
      const other = signed.replace(token(), token().replace(/>[^<]*</, `>${pki.ca.raw.toString('base64')}<`));
      const result = verify(other);
      refusedFor(result, 'the SignatureValue does not match SignedInfo for the signing certificate');
      expect(result.signedInfoValid).to.equal(false);
      expect(result.references.every((r) => r.status === 'ok')).to.equal(true);
      expect(result.certificate!.raw.equals(pki.ca.raw)).to.equal(true);
    });

    it('a certificate whose key RSA-SHA256 cannot use (Ed25519): a failed signature, not an exception', async function () {
      this.timeout(30_000);
      const dir = await mkdtemp(path.join(os.tmpdir(), 'ed25519-'));
      try {
        await promisify(execFile)('openssl', [
          'req',
          '-x509',
          '-newkey',
          'ed25519',
          '-nodes',
          '-subj',
          '/CN=POP000099',
          '-days',
          '1',
          '-keyout',
          path.join(dir, 'key.pem'),
          '-out',
          path.join(dir, 'cert.pem'),
        ]);
        const ed25519 = new X509Certificate(await readFile(path.join(dir, 'cert.pem')));
        const result = verify(
          signed.replace(token(), token().replace(/>[^<]*</, `>${ed25519.raw.toString('base64')}<`)),
        );
        refusedFor(result, 'the SignatureValue does not match SignedInfo for the signing certificate');
        expect(result.signedInfoValid).to.equal(false);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  });

  describe('an attachment declared as XML', () => {
    const sign = (attachments: AttachmentContent[]) =>
      signEnvelope({
        envelope: envelopeXml(SIGNAL, ids),
        ids: [ids.messaging, ids.body],
        attachments,
        key: key(),
        newId: randomUUID,
      }).xml;

    /** The DigestValue the signer wrote for an attachment, and what SwA 1.1 says it must be (computed here, not by the signer's code). */
    const digestIn = (xml: string, contentId: string) =>
      new RegExp(`<ds:Reference URI="cid:${contentId}">[\\s\\S]*?<ds:DigestValue>([^<]+)<`).exec(xml)![1];
    const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('base64');

    it('is digested in canonical form for each XML media type, as its bytes otherwise', () => {
      const xml = Buffer.from('<a  b="1"\n c=\'2\'><d/></a>');
      const canonical = Buffer.from('<a b="1" c="2"><d></d></a>');
      for (const mimeType of [
        'application/xml',
        'text/xml; charset=UTF-8',
        'TEXT/XML',
        'application/soap+xml',
        'image/svg+xml',
        'application/vnd.peppol+xml;charset=utf-8',
      ]) {
        const xmlSigned = sign([{ contentId: 'x@x', mimeType, bytes: xml }]);
        expect(digestIn(xmlSigned, 'x@x'), mimeType).to.equal(sha256(canonical));
        expect(verify(xmlSigned, [{ contentId: 'x@x', mimeType, bytes: canonical }]).valid, mimeType).to.equal(true);
      }
      for (const mimeType of [
        'application/octet-stream',
        'application/gzip',
        'application/xmlish',
        'x-text/xml',
        'x-image/svg+xml',
      ]) {
        const bytesSigned = sign([{ contentId: 'x@x', mimeType, bytes: xml }]);
        expect(digestIn(bytesSigned, 'x@x'), mimeType).to.equal(sha256(xml));
        expect(verify(bytesSigned, [{ contentId: 'x@x', mimeType, bytes: canonical }]).valid, mimeType).to.equal(false);
        expect(verify(bytesSigned, [{ contentId: 'x@x', mimeType, bytes: xml }]).valid, mimeType).to.equal(true);
      }
    });

    it('is digested with CRLF line ends when it is other text, byte for byte otherwise', () => {
      // Latin-1 é (0xE9) and mixed line ends.
      const text = Buffer.from([0x61, 0xe9, 0x0a, 0x62, 0x0d, 0x0a, 0x63, 0x0a]);
      const crlf = Buffer.from([0x61, 0xe9, 0x0d, 0x0a, 0x62, 0x0d, 0x0a, 0x63, 0x0d, 0x0a]);
      for (const mimeType of ['text/plain', 'Text/CSV']) {
        const textSigned = sign([{ contentId: 't@x', mimeType, bytes: text }]);
        expect(digestIn(textSigned, 't@x'), mimeType).to.equal(sha256(crlf));
        expect(verify(textSigned, [{ contentId: 't@x', mimeType, bytes: crlf }]).valid, mimeType).to.equal(true);
        expect(verify(textSigned, [{ contentId: 't@x', mimeType, bytes: Buffer.from('a\nb\nc') }]).valid).to.equal(
          false,
        );
      }
    });

    it('that is not XML: unsupported, with the parser’s reason', () => {
      const mimeType = 'application/xml';
      const signedXml = sign([{ contentId: 'x@x', mimeType, bytes: Buffer.from('<a/>') }]);
      const result = verify(signedXml, [{ contentId: 'x@x', mimeType, bytes: Buffer.from('<a>') }]);
      expect(result.reason).to.match(/^attachment cid:x@x declared as XML cannot be canonicalized: .+/);
      expect(result.references[2]!.status).to.equal('unsupported');
    });
  });

  describe('signing', () => {
    it('refuses an envelope without a Security header to sign into', () => {
      expect(() =>
        signEnvelope({
          envelope: '<S12:Envelope xmlns:S12="http://www.w3.org/2003/05/soap-envelope"/>',
          ids: [],
          attachments: [],
          key: key(),
          newId: randomUUID,
        }),
      ).to.throw(SecurityHeaderError, 'the envelope has no wsse:Security header to sign into');
    });

    it('signs as phase4 does: exclusive C14N with PrefixList S12 for SignedInfo and each #id, the token by direct reference', () => {
      const signature = /<ds:Signature [\s\S]*<\/ds:Signature>/.exec(signed)![0];
      const prefixList = `<ec:InclusiveNamespaces xmlns:ec="${ALGORITHM.excC14n}" PrefixList="S12"/>`;
      expect(signature).to.contain(
        `<ds:CanonicalizationMethod Algorithm="${ALGORITHM.excC14n}">${prefixList}</ds:CanonicalizationMethod><ds:SignatureMethod Algorithm="${ALGORITHM.rsaSha256}"/>`,
      );
      for (const id of [ids.messaging, ids.body])
        expect(signature).to.contain(
          `<ds:Reference URI="#${id}"><ds:Transforms><ds:Transform Algorithm="${ALGORITHM.excC14n}">${prefixList}</ds:Transform></ds:Transforms><ds:DigestMethod Algorithm="${ALGORITHM.sha256}"/>`,
        );
      expect(signature).to.contain(
        `<ds:Reference URI="cid:p@x"><ds:Transforms><ds:Transform Algorithm="${ALGORITHM.attachmentContentSignature}"/></ds:Transforms><ds:DigestMethod Algorithm="${ALGORITHM.sha256}"/>`,
      );
      const tokenId = /<wsse:BinarySecurityToken [^>]*wsu:Id="([^"]+)"/.exec(signed)![1];
      expect(signature).to.match(
        new RegExp(`<ds:KeyInfo Id="KI-[^"]+"><wsse:SecurityTokenReference><wsse:Reference URI="#${tokenId}" `),
      );
      expect(signature).to.match(/^<ds:Signature xmlns:ds="http:\/\/www\.w3\.org\/2000\/09\/xmldsig#" Id="SIG-[^"]+">/);
      // The header holds the token, then the signature that names it, and nothing else.
      expect(signed).to.match(
        /S12:mustUnderstand="true"><wsse:BinarySecurityToken [^>]*wsu:Id="X509-[^"]+">[^<]+<\/wsse:BinarySecurityToken><ds:Signature /,
      );
      expect(signed).to.contain('</ds:Signature></wsse:Security>');
      // The references follow each other, and the SignatureValue follows them.
      expect(signature).to.match(/<\/ds:DigestValue><\/ds:Reference><ds:Reference URI="#/);
      expect(signature).to.match(/<\/ds:DigestValue><\/ds:Reference><ds:Reference URI="cid:/);
      expect(signature).to.match(
        /<\/ds:Reference><\/ds:SignedInfo><ds:SignatureValue>[A-Za-z0-9+/=]{344}<\/ds:SignatureValue><ds:KeyInfo /,
      );
    });
  });
});
