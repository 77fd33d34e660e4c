// Hostile XML: every limit is enforced before libxml2 parses, with the limit's name, and the cost
// of what passes grows linearly.
import { expect } from 'chai';
import { checkDocument } from '../../../src/domain/document/rules/documentCheck.js';
import { decodeDocumentInput } from '../../../src/http/codecs/documentCodec.js';
import { UblReadError } from '../../../src/domain/document/ubl/ublReader.js';
import { writeUbl } from '../../../src/domain/document/ubl/ublWriter.js';
import {
  DEFAULT_XML_LIMITS,
  XmlInputError,
  XmlLimitExceeded,
  type XmlLimits,
} from '../../../src/domain/validation/index.js';
import { invoiceWithLines } from '../../../scripts/benchDocuments.js';
import { validateUbl, readUblText } from '../../../src/infrastructure/xml/ublText.js';

const decoded = decodeDocumentInput(invoiceWithLines(1));
if (!decoded.ok) throw new Error('benchmark document does not decode');
const lawful = writeUbl(decoded.value);

/** The lawful invoice with `inner` inside an extension, where anything may stand. */
const withExtension = (inner: string) =>
  lawful.replace(
    '>\n  <cbc:CustomizationID',
    `>\n  <ext:UBLExtensions xmlns:ext="urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2"><ext:UBLExtension><ext:ExtensionContent><y>${inner}</y></ext:ExtensionContent></ext:UBLExtension></ext:UBLExtensions>\n  <cbc:CustomizationID`,
  );

const refusal = (run: () => unknown): XmlLimitExceeded => {
  try {
    run();
  } catch (error) {
    expect(error).to.be.instanceOf(XmlLimitExceeded);
    expect(error).to.be.instanceOf(XmlInputError);
    return error as XmlLimitExceeded;
  }
  throw new Error('not refused');
};

describe('XML limits', function () {
  const small: XmlLimits = {
    maxBytes: 100_000,
    maxElements: 200,
    maxDepth: 20,
    maxAttributesPerElement: 8,
    maxTextLength: 1000,
  };
  const cases: Array<[keyof XmlLimits, string, RegExp]> = [
    ['maxBytes', withExtension('x'.repeat(100_000)), /larger than 100000 bytes .*limit maxBytes = 100000/],
    [
      'maxElements',
      withExtension('<x/>'.repeat(200)),
      /more than 200 elements \(limit maxElements = 200, setting XML_MAX_ELEMENTS\)/,
    ],
    [
      'maxDepth',
      withExtension('<x>'.repeat(20) + '</x>'.repeat(20)),
      /more than 20 levels of nesting \(limit maxDepth = 20, setting XML_MAX_DEPTH\)/,
    ],
    [
      'maxAttributesPerElement',
      withExtension(`<x ${Array.from({ length: 9 }, (_, i) => `a${i}="1"`).join(' ')}/>`),
      /more than 8 attributes \(limit maxAttributesPerElement = 8, setting XML_MAX_ATTRIBUTES\)/,
    ],
    [
      'maxTextLength',
      withExtension('x'.repeat(1001)),
      /longer than 1000 characters \(1001\) \(limit maxTextLength = 1000, setting XML_MAX_TEXT_LENGTH\)/,
    ],
    ['maxTextLength', withExtension(`<x a="${'x'.repeat(1001)}"/>`), /limit maxTextLength = 1000/],
    ['maxTextLength', withExtension(`<![CDATA[${'x'.repeat(1001)}]]>`), /limit maxTextLength = 1000/],
  ];
  for (const [limit, xml, message] of cases) {
    it(`refuses XML beyond ${limit}, naming the limit, its maximum and what the input reached`, function () {
      const error = refusal(() => validateUbl(xml, { limits: small }));
      expect(error.limit).to.equal(limit);
      expect(error.max).to.equal(small[limit]);
      expect(error.value).to.be.greaterThan(small[limit]);
      expect(error.message).to.match(message);
    });
  }

  it('accepts the lawful invoice under the small limits, also with markup characters in quoted values', function () {
    expect(validateUbl(lawful, { limits: small })).to.deep.equal([]);
    expect(validateUbl(withExtension('<x a="/> x>" b=\'>\'/>'), { limits: small })).to.be.an('array');
  });

  it('refuses with the defaults: 1,000,000 empty elements, 100,000 attributes, 100,000 levels of nesting', function () {
    expect(refusal(() => validateUbl(withExtension('<x/>'.repeat(1_000_000)))).limit).to.equal('maxElements');
    const attributes = Array.from({ length: 100_000 }, (_, i) => `a${i}="1"`).join(' ');
    expect(refusal(() => validateUbl(withExtension(`<x ${attributes}/>`))).limit).to.equal('maxAttributesPerElement');
    expect(refusal(() => validateUbl(withExtension('<x>'.repeat(100_000) + '</x>'.repeat(100_000)))).limit).to.equal(
      'maxDepth',
    );
  });

  it('has the reader refuse what the validator refuses, as a read error', function () {
    expect(() => readUblText(withExtension('<x/>'.repeat(1_000_000)))).to.throw(
      UblReadError,
      /limit maxElements = 1000000/,
    );
  });

  it('leaves malformed XML to libxml2, which says what and where', function () {
    for (const xml of ['<Invoice', '<Invoice a=b/>', '<Invoice a="1/>', '<!-- x', '<?xml version="1.0"']) {
      expect(() => validateUbl(xml), xml).to.throw(XmlInputError, /malformed XML/);
    }
  });

  it('refuses characters XML 1.0 cannot carry as malformed XML', function () {
    for (const bad of ['&#0;', '&#xD800;', '\u0000']) {
      expect(() => validateUbl(withExtension(bad)), JSON.stringify(bad)).to.throw(XmlInputError, /malformed XML/);
    }
  });

  it('keeps the defaults within what libxml2 itself accepts', function () {
    // libxml2 refuses deeper nesting than 256 and text nodes above 10,000,000 bytes (without XML_PARSE_HUGE).
    expect(DEFAULT_XML_LIMITS.maxDepth).to.be.at.most(256);
    expect(DEFAULT_XML_LIMITS.maxTextLength).to.be.at.most(10_000_000);
  });
});

describe('XML processing cost', function () {
  this.timeout(120_000);

  const bestOf3 = (xml: string): number => {
    let best = Infinity;
    for (let i = 0; i < 3; i++) {
      const started = process.hrtime.bigint();
      validateUbl(xml);
      readUblText(xml);
      best = Math.min(best, Number(process.hrtime.bigint() - started) / 1e6);
    }
    return best;
  };

  // The one timed assertion of the suite. It compares two sizes measured in the same process a moment
  // apart, so machine speed cancels out, and it takes the best of 3 runs, so a pause (GC, another
  // process on the shared cores) must hit all three to count. Linear growth gives a ratio near 10,
  // quadratic near 100 (the sibling scan this guards against measured 8 s at 40,000 elements); the
  // threshold of 30 sits far from both.
  const shapes: Record<string, (n: number) => string> = {
    'empty elements under one parent': (n) => withExtension('<x/>'.repeat(n)),
    'elements with 64 attributes': (n) =>
      withExtension(`<x ${Array.from({ length: 63 }, (_, i) => `a${i}="1"`).join(' ')}/>`.repeat(n)),
    'invoice lines': (n) => {
      const lines = decodeDocumentInput(invoiceWithLines(n));
      if (!lines.ok) throw new Error('does not decode');
      return writeUbl(lines.value);
    },
  };
  const sizes: Record<string, number> = {
    'empty elements under one parent': 1000,
    'elements with 64 attributes': 20,
    'invoice lines': 20,
  };
  for (const [shape, make] of Object.entries(shapes)) {
    it(`grows linearly with ${shape} (1x, 10x, 100x)`, function () {
      const n = sizes[shape]!;
      bestOf3(make(n)); // warm-up
      const ten = bestOf3(make(10 * n));
      const hundred = bestOf3(make(100 * n));
      expect(hundred / ten, `10x: ${ten.toFixed(1)} ms, 100x: ${hundred.toFixed(1)} ms`).to.be.below(30);
    });
  }

  it('grows linearly from a JSON document to checked UBL: totals, UBL writing, every rule (20, 200, 2,000 lines)', function () {
    const bestOf3Json = (lines: number): number => {
      const document = decodeDocumentInput(invoiceWithLines(lines));
      if (!document.ok) throw new Error('does not decode');
      let best = Infinity;
      for (let i = 0; i < 3; i++) {
        const started = process.hrtime.bigint();
        checkDocument(document.value);
        best = Math.min(best, Number(process.hrtime.bigint() - started) / 1e6);
      }
      return best;
    };
    bestOf3Json(20); // warm-up
    const ten = bestOf3Json(200);
    const hundred = bestOf3Json(2_000);
    expect(hundred / ten, `200 lines: ${ten.toFixed(1)} ms, 2,000 lines: ${hundred.toFixed(1)} ms`).to.be.below(30);
  });
});
