import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { ExclusiveCanonicalization } from 'xml-crypto';
import { envelopeXml } from '../../../src/infrastructure/as4/ebmsWriter.js';
import { canonicalize } from '../../../src/infrastructure/as4/exclusiveC14n.js';
import {
  signEnvelope,
  verifySignature,
  type AttachmentContent,
} from '../../../src/infrastructure/as4/wsSecuritySignature.js';
import { parseOwnXmlDom, parseUntrustedXmlDom, UntrustedXmlError } from '../../../src/infrastructure/as4/xmlDom.js';
import { makeTestAs4Pki, type TestAs4Pki } from '../../support/as4TestKeys.js';

const SIGNAL =
  '<eb:SignalMessage><eb:MessageInfo><eb:Timestamp>2026-01-01T00:00:00Z</eb:Timestamp><eb:MessageId>m@x</eb:MessageId></eb:MessageInfo></eb:SignalMessage>';

describe('Exclusive C14N and WS-Security signatures', () => {
  describe('canonical order', () => {
    const first = (xml: string) => parseOwnXmlDom(xml).documentElement!.firstChild as Element;

    it('renders namespace declarations by code point (S12 before eb), where xml-crypto as shipped puts eb first', () => {
      const element = first(
        '<S12:Envelope xmlns:S12="urn:s"><eb:M xmlns:eb="urn:e" xmlns:wsu="urn:w" S12:mustUnderstand="true" wsu:Id="x"/></S12:Envelope>',
      );
      expect(canonicalize(element, ['S12'])).to.equal(
        '<eb:M xmlns:S12="urn:s" xmlns:eb="urn:e" xmlns:wsu="urn:w" S12:mustUnderstand="true" wsu:Id="x"></eb:M>',
      );
      expect(canonicalize(element, ['S12'], ExclusiveCanonicalization)).to.equal(
        '<eb:M xmlns:eb="urn:e" xmlns:S12="urn:s" xmlns:wsu="urn:w" S12:mustUnderstand="true" wsu:Id="x"></eb:M>',
      );
    });

    it('orders attributes by namespace URI, then local name, not by the two run together', () => {
      const element = first('<r><e xmlns:q="urn:ab" xmlns:p="urn:a" q:c="2" p:bc="1"/></r>');
      expect(canonicalize(element, [])).to.equal('<e xmlns:p="urn:a" xmlns:q="urn:ab" p:bc="1" q:c="2"></e>');
      expect(canonicalize(element, [], ExclusiveCanonicalization)).to.equal(
        '<e xmlns:p="urn:a" xmlns:q="urn:ab" q:c="2" p:bc="1"></e>',
      );
    });

    it('renders a PrefixList prefix on the apex from the ancestors, and leaves out unused ones', () => {
      const element = first('<a:R xmlns:a="urn:a" xmlns:b="urn:b" xmlns:c="urn:c"><x/></a:R>');
      expect(canonicalize(element.parentNode!.firstChild as Element, [])).to.equal('<x></x>');
      expect(canonicalize(element, ['b'])).to.equal('<x xmlns:b="urn:b"></x>');
    });

    it("renders the PrefixList it is given, not a CanonicalizationMethod child's, and leaves the document as it was", () => {
      const ds = 'http://www.w3.org/2000/09/xmldsig#';
      const xml =
        `<S12:E xmlns:S12="urn:s" xmlns:b="urn:b"><ds:SignedInfo xmlns:ds="${ds}" xmlns:b="urn:own"><ds:CanonicalizationMethod>` +
        '<ec:InclusiveNamespaces xmlns:ec="http://www.w3.org/2001/10/xml-exc-c14n#" PrefixList="S12"/></ds:CanonicalizationMethod></ds:SignedInfo></S12:E>';
      const signedInfo = first(xml);
      const before = signedInfo.attributes.length;
      expect(canonicalize(signedInfo, [])).to.match(/^<ds:SignedInfo xmlns:ds="[^"]+"><ds:CanonicalizationMethod>/);
      expect(canonicalize(signedInfo, ['S12'])).to.match(
        /^<ds:SignedInfo xmlns:S12="urn:s" xmlns:ds="[^"]+"><ds:CanonicalizationMethod>/,
      );
      // A listed prefix the element binds itself keeps its own binding (urn:own, not the ancestor's urn:b).
      expect(canonicalize(signedInfo, ['b', 'S12'])).to.match(
        /^<ds:SignedInfo xmlns:S12="urn:s" xmlns:b="urn:own" xmlns:ds="[^"]+">/,
      );
      expect(signedInfo.attributes.length).to.equal(before);
      expect(canonicalize(signedInfo, [])).to.match(/^<ds:SignedInfo xmlns:ds="[^"]+"><ds:CanonicalizationMethod>/);
    });

    it('takes the nearest ancestor declaration of a listed prefix', () => {
      const element = first('<r xmlns:p="urn:far"><q xmlns:p="urn:near"><x/></q></r>').firstChild as Element;
      expect(canonicalize(element, ['p'])).to.equal('<x xmlns:p="urn:near"></x>');
    });
  });

  describe('signing and verifying an envelope', () => {
    let pki: TestAs4Pki;
    before(async function () {
      this.timeout(60_000);
      pki = await makeTestAs4Pki(['POP000011']);
    });
    after(async () => pki?.dispose());

    const sign = (attachments: AttachmentContent[]) => {
      const ids = { messaging: `msg-${randomUUID()}`, body: `id-${randomUUID()}` };
      return signEnvelope({
        envelope: envelopeXml(SIGNAL, ids),
        ids: [ids.messaging, ids.body],
        attachments,
        key: pki.accessPoints.POP000011!,
        newId: randomUUID,
      });
    };
    const check = (xml: string, attachments: AttachmentContent[]) =>
      verifySignature(parseUntrustedXmlDom(xml), new Map(attachments.map((a) => [a.contentId, a])));

    it('covers the attachment: changed bytes fail on its cid: reference', () => {
      const attachment = { contentId: 'p@x', mimeType: 'application/gzip', bytes: Buffer.from([1, 2, 3, 4]) };
      const signed = sign([attachment]);
      expect(check(signed.xml, [attachment])).to.include({ valid: true, reason: null });
      const changed = check(signed.xml, [{ ...attachment, bytes: Buffer.from([1, 2, 3, 5]) }]);
      expect(changed).to.include({
        valid: false,
        signedInfoValid: true,
        reason: 'the digest of cid:p@x does not match',
      });
    });

    it('digests an XML attachment in canonical form and a text one with CRLF line ends, as the SwA profile says', () => {
      const xml = { contentId: 'x@x', mimeType: 'application/xml', bytes: Buffer.from('<a  b="1"\n c=\'2\'><d/></a>') };
      const txt = { contentId: 't@x', mimeType: 'text/plain', bytes: Buffer.from('line 1\nline 2\n') };
      const signed = sign([xml, txt]);
      const reformatted = { ...xml, bytes: Buffer.from('<?xml version="1.0"?><a c="2" b="1"><d></d></a>') };
      const crlf = { ...txt, bytes: Buffer.from('line 1\r\nline 2\r\n') };
      expect(check(signed.xml, [reformatted, crlf]).valid).to.equal(true);
      expect(check(signed.xml, [{ ...xml, bytes: Buffer.from('<a b="1" c="3"><d/></a>') }, txt]).reason).to.equal(
        'the digest of cid:x@x does not match',
      );
    });

    it('accepts only the Peppol algorithms', () => {
      const signed = sign([]).xml;
      const sha1 = signed.replace(
        'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
        'http://www.w3.org/2000/09/xmldsig#rsa-sha1',
      );
      expect(check(sha1, []).reason).to.equal(
        'signature method http://www.w3.org/2000/09/xmldsig#rsa-sha1 (Peppol requires RSA-SHA256)',
      );
      const digest = signed.replace(
        '<ds:DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/>',
        '<ds:DigestMethod Algorithm="http://www.w3.org/2000/09/xmldsig#sha1"/>',
      );
      expect(check(digest, []).reason).to.equal(
        'digest method http://www.w3.org/2000/09/xmldsig#sha1 (Peppol requires SHA-256)',
      );
      const inclusive = signed.replace(
        /(<ds:CanonicalizationMethod Algorithm=")[^"]+/,
        '$1http://www.w3.org/TR/2001/REC-xml-c14n-20010315',
      );
      expect(check(inclusive, []).reason).to.equal('SignedInfo is not canonicalized with exclusive C14N');
      expect(check(signed.replace(/<ds:Signature [\s\S]*<\/ds:Signature>/, ''), []).reason).to.equal(
        'the Security header has no signature',
      );
    });

    it('refuses a processing instruction inside the envelope (xml-crypto would canonicalize it as text)', () => {
      const signed = sign([]).xml;
      expect(() => parseUntrustedXmlDom(signed.replace('<S12:Body', '<?evil x?><S12:Body'))).to.throw(
        UntrustedXmlError,
        /processing instructions/,
      );
    });
  });
});
