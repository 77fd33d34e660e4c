import { expect } from 'chai';
import { DEFAULT_XML_LIMITS } from '../../../src/domain/validation/xml/limits.js';
import {
  allElements,
  attributeOf,
  childElements,
  decodeUtf8Xml,
  firstChild,
  parseOwnXmlDom,
  parseUntrustedXmlDom,
  qualifiedName,
  textOf,
  UntrustedXmlError,
} from '../../../src/infrastructure/as4/xmlDom.js';
import { thrownBy } from '../../support/rejection.js';

const refused = (run: () => unknown): UntrustedXmlError => thrownBy(UntrustedXmlError, run);

describe('XML of AS4 messages: decoding and the DOM the signature code walks', () => {
  describe('decoding', () => {
    it('takes strict UTF-8, without its byte order mark', () => {
      expect(decodeUtf8Xml(Buffer.from('\uFEFF<a>é</a>', 'utf8'))).to.equal('<a>é</a>');
      expect(refused(() => decodeUtf8Xml(Buffer.from([0x3c, 0x61, 0x3e, 0xe9, 0x3c]))).message).to.equal(
        'the XML is not valid UTF-8',
      );
    });

    it('takes a declaration of UTF-8 in any spelling, and refuses any other encoding', () => {
      for (const declaration of [
        '<?xml version="1.0"?>',
        '<?xml version="1.0" encoding="UTF-8"?>',
        "<?xml version='1.0' encoding='utf-8' standalone='yes'?>",
        '<?xml version="1.0" encoding="utf8"?>',
        '<?xml version="1.0" encoding = "UTF8" ?>',
      ])
        expect(decodeUtf8Xml(Buffer.from(`${declaration}<a/>`))).to.equal(`${declaration}<a/>`);
      for (const encoding of ['ISO-8859-1', 'UTF-16', 'x-utf-8', 'utf-8-bom', 'utf-88', 'windows-1252'])
        expect(
          refused(() => decodeUtf8Xml(Buffer.from(`<?xml version="1.0" encoding="${encoding}"?><a/>`))).message,
          encoding,
        ).to.equal(`the XML declares encoding ${encoding}; only UTF-8 is accepted`);
      expect(
        refused(() => decodeUtf8Xml(Buffer.from(`<?xml version="1.0"\n  encoding = 'latin1'?><a/>`))).message,
      ).to.equal('the XML declares encoding latin1; only UTF-8 is accepted');
      // White space before the declaration does not hide it (libxml2 would refuse the text anyway, less clearly).
      expect(
        refused(() => decodeUtf8Xml(Buffer.from(`\n <?xml version="1.0" encoding="latin1"?><a/>`))).message,
      ).to.equal('the XML declares encoding latin1; only UTF-8 is accepted');
      // Only the declaration counts: a later instruction with an encoding pseudo-attribute is no declaration.
      const stylesheet = '<?xml version="1.0"?><?xml-stylesheet encoding="latin1"?><a/>';
      expect(decodeUtf8Xml(Buffer.from(stylesheet))).to.equal(stylesheet);
    });
  });

  describe('parsing untrusted XML', () => {
    it('refuses what libxml2 refuses: malformed, a DOCTYPE, over the limits', () => {
      expect(refused(() => parseUntrustedXmlDom('<a><b></a>')).message).to.match(/^malformed XML: .+/);
      expect(refused(() => parseUntrustedXmlDom('<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>')).message).to.match(
        /DOCTYPE/,
      );
      expect(
        refused(() => parseUntrustedXmlDom(`<a>${'x'.repeat(200)}</a>`, { ...DEFAULT_XML_LIMITS, maxBytes: 100 }))
          .message,
      ).to.match(/100/);
    });

    it('refuses a processing instruction anywhere inside the document, and takes one before it', () => {
      for (const xml of ['<a><?pi x?></a>', '<a><b><c><?pi x?></c></b></a>', '<a><b/><c>t<?pi?></c></a>'])
        expect(refused(() => parseUntrustedXmlDom(xml)).message, xml).to.equal(
          'processing instructions inside the document are not accepted',
        );
      expect(parseUntrustedXmlDom('<?pi x?><a><!-- c --><b/>text</a>').documentElement!.localName).to.equal('a');
    });
  });

  describe('parsing our own XML', () => {
    it('refuses what xmldom cannot make a document of', () => {
      expect(refused(() => parseOwnXmlDom('')).message).to.match(/^malformed XML: .*invalid doc source/);
      expect(refused(() => parseOwnXmlDom('<!-- nothing -->')).message).to.equal('malformed XML: no root element');
      expect(refused(() => parseOwnXmlDom('<a/><b/>')).message).to.match(/^malformed XML: .*element parse error/);
    });
  });

  describe('reading the DOM', () => {
    // Parsed in each test: what a test reaches is what the mutation run credits it with.
    let root: Element;
    beforeEach(() => {
      root = parseOwnXmlDom(
        '<r xmlns="urn:r" xmlns:p="urn:p"><p:a id="1"> x </p:a><!-- c --><b p:id="2"/>t<p:b><p:c/></p:b><b/></r>',
      ).documentElement!;
    });

    it('lists element children by namespace and name, and finds the first', () => {
      const names = (elements: Element[]) => elements.map(qualifiedName);
      expect(names(childElements(root))).to.deep.equal(['{urn:p}a', '{urn:r}b', '{urn:p}b', '{urn:r}b']);
      expect(names(childElements(root, 'urn:p'))).to.deep.equal(['{urn:p}a', '{urn:p}b']);
      expect(names(childElements(root, 'urn:r', 'b'))).to.deep.equal(['{urn:r}b', '{urn:r}b']);
      expect(names(childElements(root, undefined, 'b'))).to.deep.equal(['{urn:r}b', '{urn:p}b', '{urn:r}b']);
      expect(firstChild(root, 'urn:p', 'b')!.firstChild).to.equal(
        firstChild(firstChild(root, 'urn:p', 'b')!, 'urn:p', 'c'),
      );
      expect(firstChild(root, 'urn:x', 'b')).to.equal(null);
      expect(names(allElements(root))).to.deep.equal([
        '{urn:r}r',
        '{urn:p}a',
        '{urn:r}b',
        '{urn:p}b',
        '{urn:r}b',
        '{urn:p}c',
      ]);
      expect(qualifiedName(parseOwnXmlDom('<plain/>').documentElement!)).to.equal('{}plain');
    });

    it('reads text trimmed and attributes with or without a namespace, null when absent', () => {
      const a = firstChild(root, 'urn:p', 'a')!;
      const b = firstChild(root, 'urn:r', 'b')!;
      expect(textOf(a)).to.equal('x');
      expect(textOf(null)).to.equal(null);
      expect(attributeOf(a, 'id')).to.equal('1');
      expect(attributeOf(a, 'missing')).to.equal(null);
      expect(attributeOf(b, 'id')).to.equal(null);
      expect(attributeOf(b, 'id', 'urn:p')).to.equal('2');
      expect(attributeOf(a, 'id', 'urn:p')).to.equal(null);
    });
  });
});
