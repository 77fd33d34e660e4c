import { expect } from 'chai';
import type { Sbdh } from '../../../src/domain/peppol/as4/sbdh.js';
import { NS } from '../../../src/infrastructure/as4/namespaces.js';
import { readSbdh, writeSbdh } from '../../../src/infrastructure/as4/sbdhXml.js';

const UBL = 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2';
const CBC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';
const SBDH: Sbdh = {
  sender: { scheme: 'iso6523-actorid-upis', value: '0088:5790000435951' },
  receiver: { scheme: 'iso6523-actorid-upis', value: '0208:0451234595' },
  document: {
    standard: UBL,
    typeVersion: '2.1',
    instanceIdentifier: 'a-1',
    type: 'Invoice',
    creationDateAndTime: '2026-11-29T01:00:00Z',
  },
  documentType: { scheme: 'busdox-docid-qns', value: `${UBL}::Invoice##urn:x::2.1` },
  process: { scheme: 'cenbii-procid-ubl', value: 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0' },
  countryC1: 'BE',
  mlsTo: null,
  mlsType: null,
  extraScopes: [],
};
const INVOICE = `<Invoice xmlns="${UBL}" xmlns:cbc="${CBC}"><cbc:ID>1</cbc:ID></Invoice>`;

/** The read of `xml`, which must be accepted. */
const accepted = (xml: string) => {
  const read = readSbdh(Buffer.from(xml));
  if (!read.ok) throw new Error(`${read.error}: ${read.message}`);
  return read;
};
/** `xml` with the SBDH root's start tag replaced. */
const withRoot = (xml: string, startTag: string) => xml.replace(/<sh:StandardBusinessDocument [^>]*>/, startTag);

describe('Peppol SBDH: the writer exactly, and the reader on edge cases', () => {
  it('writes the header exactly: a default scheme is not written, another is, MLS_TO without a scheme gets the participant scheme', () => {
    const xml = writeSbdh(
      {
        ...SBDH,
        process: { scheme: 'other-proc', value: 'p' },
        mlsTo: { scheme: '', value: '0088:1' },
        mlsType: 'ALWAYS_SEND',
        extraScopes: [{ type: 'X', instanceIdentifier: 'y', identifier: null }],
      },
      INVOICE,
    );
    const scopes = xml.slice(xml.indexOf('<sh:BusinessScope>'), xml.indexOf('</sh:BusinessScope>'));
    const scope = (type: string, value: string, identifier?: string) =>
      `      <sh:Scope>\n        <sh:Type>${type}</sh:Type>\n        <sh:InstanceIdentifier>${value}</sh:InstanceIdentifier>\n` +
      (identifier === undefined ? '' : `        <sh:Identifier>${identifier}</sh:Identifier>\n`) +
      '      </sh:Scope>\n';
    expect(scopes).to.equal(
      '<sh:BusinessScope>\n' +
        scope('DOCUMENTID', SBDH.documentType.value) +
        scope('PROCESSID', 'p', 'other-proc') +
        scope('COUNTRY_C1', 'BE') +
        scope('MLS_TO', '0088:1', 'iso6523-actorid-upis') +
        scope('MLS_TYPE', 'ALWAYS_SEND') +
        scope('X', 'y') +
        '    ',
    );
    const withScheme = writeSbdh({ ...SBDH, mlsTo: { scheme: 'other', value: '0088:1' } }, INVOICE);
    expect(withScheme).to.contain(scope('MLS_TO', '0088:1', 'other'));
    // Without MLS: nothing between the country and the next scope; two extra scopes one after the other.
    const plain = writeSbdh(
      {
        ...SBDH,
        documentType: { scheme: 'other-doc', value: 'd' },
        extraScopes: [
          { type: 'X', instanceIdentifier: 'y', identifier: null },
          { type: 'Z', instanceIdentifier: 'w', identifier: 'i' },
        ],
      },
      INVOICE,
    );
    expect(plain.slice(plain.indexOf('<sh:BusinessScope>'), plain.indexOf('</sh:BusinessScope>'))).to.equal(
      '<sh:BusinessScope>\n' +
        scope('DOCUMENTID', 'd', 'other-doc') +
        scope('PROCESSID', SBDH.process.value) +
        scope('COUNTRY_C1', 'BE') +
        scope('X', 'y') +
        scope('Z', 'w', 'i') +
        '    ',
    );
  });

  it('embeds the business document without its BOM, declaration and the white space around them', () => {
    const tail = `${INVOICE}\n</sh:StandardBusinessDocument>\n`;
    for (const given of [
      `\uFEFF<?xml version="1.0" encoding="UTF-8"?>\n${INVOICE}\n\n`,
      ` \n<?xml version="1.0"?>${INVOICE}  `,
      INVOICE,
    ])
      expect(writeSbdh(SBDH, given))
        .to.match(/<\/sh:StandardBusinessDocumentHeader>\n<Invoice /)
        .and.satisfy((xml: string) => xml.endsWith(tail));
    // A processing instruction that is not the declaration stays, and so does a declaration's text in a comment.
    // A zero-width no-break space (U+FEFF) inside the text is no BOM either.
    const styled = `<?xml-stylesheet type="text/xsl" href="i.xsl"?>\n${INVOICE.replace('<cbc:ID>', '<!-- <?xml version="1.0"?> --><cbc:ID>\uFEFF')}`;
    expect(writeSbdh(SBDH, styled)).to.contain(`</sh:StandardBusinessDocumentHeader>\n${styled}\n`);
  });

  it('reads back what it wrote, values trimmed, and elements of another namespace with the same names ignored', () => {
    const xml = writeSbdh(SBDH, INVOICE)
      .replace('<sh:HeaderVersion>1.0</sh:HeaderVersion>', '<x:HeaderVersion xmlns:x="urn:x">2.0</x:HeaderVersion>$&')
      .replace('>0088:5790000435951<', '>\n  0088:5790000435951 \n<')
      .replace('<sh:Standard>', '<sh:Standard> ')
      .replace('<sh:InstanceIdentifier>a-1', '<sh:InstanceIdentifier>\ta-1 ');
    const read = accepted(xml);
    expect(read.sbdh).to.deep.equal(SBDH);
    expect(read.businessDocument).to.equal(`<?xml version="1.0" encoding="UTF-8"?>\n${INVOICE}`);
  });

  it('declares on the business document the namespaces it inherits from the SBDH root, the SBDH own one left out', () => {
    const business = `<Invoice xmlns:cbc="${CBC}"><cbc:ID>1</cbc:ID></Invoice>`;
    const xml = withRoot(
      writeSbdh(SBDH, business),
      `<sh:StandardBusinessDocument xmlns:sh="${NS.sbdh}" xmlns="${UBL}" xmlns:cbc="urn:overridden" xmlns:a="urn:a">`,
    );
    expect(accepted(xml).businessDocument).to.equal(
      `<?xml version="1.0" encoding="UTF-8"?>\n<Invoice xmlns="${UBL}" xmlns:a="urn:a" xmlns:cbc="${CBC}"><cbc:ID>1</cbc:ID></Invoice>`,
    );
    // A business document with its own default namespace keeps it, and inherits the prefixed ones.
    const own = withRoot(
      writeSbdh(SBDH, INVOICE),
      `<sh:StandardBusinessDocument xmlns:sh="${NS.sbdh}" xmlns="urn:root-default" xmlns:a="urn:a">`,
    );
    expect(accepted(own).businessDocument).to.equal(
      `<?xml version="1.0" encoding="UTF-8"?>\n<Invoice xmlns:a="urn:a" xmlns="${UBL}" xmlns:cbc="${CBC}"><cbc:ID>1</cbc:ID></Invoice>`,
    );
  });

  it('refuses a root that is not {SBDH}StandardBusinessDocument, a missing header and a party without Identifier', () => {
    const xml = writeSbdh(SBDH, INVOICE);
    const refusal = (text: string) => readSbdh(Buffer.from(text));
    expect(
      refusal(
        xml
          .replaceAll('sh:StandardBusinessDocument>', 'sh:Other>')
          .replace('<sh:StandardBusinessDocument ', '<sh:Other '),
      ),
    ).to.deep.equal({
      ok: false,
      error: 'INVALID_SBD_XML',
      message: `the payload is not a StandardBusinessDocument but {${NS.sbdh}}Other`,
    });
    expect(refusal(xml.replace(`xmlns:sh="${NS.sbdh}"`, 'xmlns:sh="urn:not-sbdh"'))).to.deep.equal({
      ok: false,
      error: 'INVALID_SBD_XML',
      message: 'the payload is not a StandardBusinessDocument but {urn:not-sbdh}StandardBusinessDocument',
    });
    const headerless = xml.replace(
      /<sh:StandardBusinessDocumentHeader>[\s\S]*<\/sh:StandardBusinessDocumentHeader>/,
      '',
    );
    expect(refusal(headerless)).to.deep.equal({
      ok: false,
      error: 'MISSING_SBDH',
      message: 'the StandardBusinessDocument has no StandardBusinessDocumentHeader',
    });
    const anonymous = xml.replace(/(<sh:Sender>)[\s\S]*?(<\/sh:Sender>)/, '$1$2');
    expect(refusal(anonymous)).to.deep.equal({
      ok: false,
      error: 'INVALID_SENDER_AUTHORITY',
      message: 'Sender/Identifier/@Authority must be iso6523-actorid-upis, got ""',
    });
    expect(refusal(xml.replace('<sh:HeaderVersion>1.0<', '<sh:HeaderVersion>1.1<'))).to.deep.equal({
      ok: false,
      error: 'INVALID_HEADER_VERSION',
      message: 'HeaderVersion must be 1.0, got "1.1"',
    });
    expect(refusal('<sh:StandardBusinessDocument')).to.include({ ok: false, error: 'INVALID_SBD_XML' });
  });
});
