// XML arrives as bytes in UTF-8 or UTF-16; both are one document to us, and broken bytes are an error with their offset.
import { expect } from 'chai';
import { decodeDocumentInput } from '../../../src/http/codecs/documentCodec.js';
import { writeUbl } from '../../../src/domain/document/ubl/ublWriter.js';
import { XmlEncodingError } from '../../../src/domain/validation/index.js';
import { invoiceWithLines } from '../../../scripts/benchDocuments.js';
import { validateUbl } from '../../../src/infrastructure/xml/ublText.js';
import { decodeXmlBytes } from '../../../src/infrastructure/xml/xmlEncoding.js';

const decoded = decodeDocumentInput({ ...invoiceWithLines(2), vendor_name: 'Ærø Café — 東京 𝄞' });
if (!decoded.ok) throw new Error('document does not decode');
const utf8Text = writeUbl(decoded.value);

const utf16 = (text: string, bigEndian: boolean, bom: boolean): Buffer => {
  const le = Buffer.from((bom ? '\ufeff' : '') + text, 'utf16le');
  return bigEndian ? Buffer.from(le).swap16() : le;
};

const encodings = (): Array<[string, Buffer]> => {
  const declared16 = utf8Text.replace('encoding="UTF-8"', 'encoding="UTF-16"');
  return [
    ['UTF-8', Buffer.from(utf8Text)],
    ['UTF-8 with BOM', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(utf8Text)])],
    ['UTF-16LE with BOM', utf16(declared16, false, true)],
    ['UTF-16BE with BOM', utf16(declared16, true, true)],
    ['UTF-16LE by its declaration', utf16(declared16, false, false)],
    ['UTF-16BE by its declaration', utf16(declared16, true, false)],
  ];
};

describe('XML encodings', function () {
  for (const [name, bytes] of encodings()) {
    it(`reads ${name} as the same text, declared UTF-8, with the same validation result`, function () {
      expect(decodeXmlBytes(bytes)).to.equal(utf8Text);
      expect(validateUbl(bytes)).to.deep.equal(validateUbl(utf8Text));
    });
  }

  it('refuses invalid UTF-8 with the offset of the first bad byte', function () {
    const good = Buffer.from(utf8Text);
    const at = good.indexOf('Globex') + 2;
    for (const bad of [[0xff], [0xc3], [0xe0, 0x80, 0x80], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80]]) {
      const bytes = Buffer.concat([good.subarray(0, at), Buffer.from(bad), good.subarray(at)]);
      expect(() => decodeXmlBytes(bytes)).to.throw(XmlEncodingError, `Invalid UTF-8 byte sequence at byte ${at}`);
      expect(() => validateUbl(bytes))
        .to.throw(XmlEncodingError)
        .with.property('offset', at);
    }
  });

  it('refuses a lone surrogate in UTF-16 with its offset, and an odd byte count', function () {
    const le = utf16(utf8Text, false, true);
    const at = le.indexOf(Buffer.from('Globex', 'utf16le'));
    const lone = Buffer.from(le);
    lone.writeUInt16LE(0xd800, at);
    expect(() => decodeXmlBytes(lone)).to.throw(XmlEncodingError, `Invalid UTF-16LE byte sequence at byte ${at}`);
    const be = utf16(utf8Text, true, true);
    const loneBe = Buffer.from(be);
    loneBe.writeUInt16BE(0xdc00, at);
    expect(() => decodeXmlBytes(loneBe)).to.throw(XmlEncodingError, `Invalid UTF-16BE byte sequence at byte ${at}`);
    expect(() => decodeXmlBytes(le.subarray(0, le.length - 1))).to.throw(XmlEncodingError, `at byte ${le.length - 2}`);
  });

  it('refuses a UTF-16 declaration on bytes that are not UTF-16, and an encoding it does not know', function () {
    expect(() => decodeXmlBytes(Buffer.from(utf8Text.replace('encoding="UTF-8"', 'encoding="UTF-16"')))).to.throw(
      XmlEncodingError,
      /not UTF-16/,
    );
    expect(() => decodeXmlBytes(Buffer.from(utf8Text.replace('encoding="UTF-8"', 'encoding="x-klingon"')))).to.throw(
      XmlEncodingError,
      /Unsupported/,
    );
  });

  it('reads a declared single-byte encoding, declared UTF-8 afterwards', function () {
    const latin1 = Buffer.from(
      utf8Text.replace('encoding="UTF-8"', 'encoding="ISO-8859-1"').replace('Globex', 'Ålobex'),
      'latin1',
    );
    const text = decodeXmlBytes(latin1);
    expect(text).to.match(/^<\?xml version="1.0" encoding="UTF-8"\?>/);
    expect(text).to.include('Ålobex');
  });
});
