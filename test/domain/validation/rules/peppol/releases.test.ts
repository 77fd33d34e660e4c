// The Peppol layer per release: each change of BIS 3.0.21 applies under the 3.0.21 rule set and not
// under 3.0.19 (kept for documents validated before 2026-08-24). The documents are the official base
// example of the shared corpus (read at run time), changed in one place per case.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { ruleSetById, type RuleSet } from '../../../../../src/domain/validation/index.js';
import { validateUbl } from '../../../../../src/infrastructure/xml/ublText.js';
import { sharedDir } from '../../conformance/corpus.js';

const V19 = ruleSetById('peppol-bis-3.0.19')!;
const V21 = ruleSetById('peppol-bis-3.0.21')!;

const BASE = fs.readFileSync(
  path.join(sharedDir(), 'conformance/examples/peppol-bis-3.0.19/examples/base-example.xml'),
  'utf8',
);
const CUSTOMIZATION = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';
const PROFILE_01 = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';

/** Rule id → flag of every Peppol rule that fired (the Peppol layer alone). */
function firings(xml: string, ruleSet: RuleSet): Record<string, string> {
  const out: Record<string, string> = {};
  for (const i of validateUbl(xml, { layers: ['peppol'], ruleSet })) out[i.rule_id] = i.flag;
  return out;
}

/** The base example with seller and buyer in one country (the national rules' trigger). */
function domestic(country: string, xml = BASE): string {
  return xml.replace(
    /<cbc:IdentificationCode>(GB|SE)<\/cbc:IdentificationCode>/g,
    `<cbc:IdentificationCode>${country}</cbc:IdentificationCode>`,
  );
}

function withProfile(profile: string, xml = BASE): string {
  return xml.replace(`<cbc:ProfileID>${PROFILE_01}</cbc:ProfileID>`, `<cbc:ProfileID>${profile}</cbc:ProfileID>`);
}

/** The buyer's endpoint with another scheme and value. */
function buyerEndpoint(scheme: string, value: string, xml = BASE): string {
  return xml.replace(
    '<cbc:EndpointID schemeID="0002">FR23342</cbc:EndpointID>',
    `<cbc:EndpointID schemeID="${scheme}">${value}</cbc:EndpointID>`,
  );
}

describe('Peppol rules per release (BIS 3.0.19 and 3.0.21)', () => {
  it('Given the official base example, when validated under either set, then no Peppol rule fires', () => {
    expect(firings(BASE, V19)).to.deep.equal({});
    expect(firings(BASE, V21)).to.deep.equal({});
  });

  describe('PEPPOL-EN16931-R004 (specification identifier)', () => {
    it('Given a version suffix "::2.1", when validated, then only 3.0.21 refuses it', () => {
      const xml = BASE.replace(`>${CUSTOMIZATION}<`, `>${CUSTOMIZATION}::2.1<`);
      expect(firings(xml, V19)).to.not.have.property('PEPPOL-EN16931-R004');
      expect(firings(xml, V21)).to.have.property('PEPPOL-EN16931-R004', 'fatal');
    });

    it('Given no CustomizationID at all, when validated, then both releases report R004', () => {
      const xml = BASE.replace(/<cbc:CustomizationID>[^<]*<\/cbc:CustomizationID>/, '');
      expect(firings(xml, V19)).to.have.property('PEPPOL-EN16931-R004', 'fatal');
      expect(firings(xml, V21)).to.have.property('PEPPOL-EN16931-R004', 'fatal');
    });
  });

  describe('PEPPOL-EN16931-R007 (the listed profiles)', () => {
    for (const profile of [
      'urn:peppol:bis:billing_with_response',
      'urn:peppol:france:billing:regulated',
      'urn:peppol:france:billing:non-regulated',
    ])
      it(`Given the profile ${profile}, when validated, then 3.0.21 accepts it and 3.0.19 does not`, () => {
        expect(firings(withProfile(profile), V19)).to.have.property('PEPPOL-EN16931-R007', 'fatal');
        expect(firings(withProfile(profile), V21)).to.deep.equal({});
      });

    it('Given an unlisted profile of the old shape (billing:07), when validated, then only 3.0.21 refuses it', () => {
      const xml = withProfile('urn:fdc:peppol.eu:2017:poacc:billing:07:1.0');
      expect(firings(xml, V19)).to.not.have.property('PEPPOL-EN16931-R007');
      expect(firings(xml, V21)).to.have.property('PEPPOL-EN16931-R007', 'fatal');
    });
  });

  it('Given profile 02 with an invoice type code outside the Peppol list, when validated, then P0100 fires under 3.0.21 only', () => {
    const xml = withProfile('urn:peppol:bis:billing_with_response').replace(
      '<cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>',
      '<cbc:InvoiceTypeCode>389</cbc:InvoiceTypeCode>',
    );
    expect(firings(xml, V19)).to.not.have.property('PEPPOL-EN16931-P0100');
    expect(firings(xml, V21)).to.have.property('PEPPOL-EN16931-P0100', 'fatal');
  });

  describe('PEPPOL-COMMON identifier rules', () => {
    const cases: [string, string, string, string][] = [
      ['PEPPOL-COMMON-R052', '0096', '12345678', 'fatal'],
      ['PEPPOL-COMMON-R053', '0198', '12345678', 'fatal'],
      ['PEPPOL-COMMON-R054', '0106', '1234', 'warning'],
      ['PEPPOL-COMMON-R055', '0190', '1234', 'warning'],
      ['PEPPOL-COMMON-R056-1', '9944', 'NL123', 'warning'],
      ['PEPPOL-COMMON-R057', '0217', '1234', 'warning'],
    ];
    for (const [id, scheme, value, flag] of cases)
      it(`Given a buyer endpoint of scheme ${scheme} in the wrong shape, when validated, then ${id} (${flag}) fires under 3.0.21 only`, () => {
        const xml = buyerEndpoint(scheme, value);
        expect(firings(xml, V19)).to.not.have.property(id);
        expect(firings(xml, V21)).to.have.property(id, flag);
      });

    it('Given well-formed identifiers of those schemes, when validated under 3.0.21, then none fires', () => {
      for (const [id, scheme, value] of [
        ['PEPPOL-COMMON-R052', '0096', '1234567890'],
        ['PEPPOL-COMMON-R053', '0198', 'DK12345678'],
        ['PEPPOL-COMMON-R054', '0106', '12345678'],
        ['PEPPOL-COMMON-R056-1', '9944', 'NL123456789B01'],
      ] as const)
        expect(firings(buyerEndpoint(scheme, value), V21)).to.not.have.property(id);
    });

    it('Given a Dutch VAT identifier in the wrong shape, when validated, then R056-2 warns under 3.0.21 only', () => {
      const xml = BASE.replace('<cbc:CompanyID>SE4598375937</cbc:CompanyID>', '<cbc:CompanyID>NL12345</cbc:CompanyID>');
      expect(firings(xml, V19)).to.not.have.property('PEPPOL-COMMON-R056-2');
      expect(firings(xml, V21)).to.have.property('PEPPOL-COMMON-R056-2', 'warning');
    });
  });

  describe('Danish rules', () => {
    it('Given a Danish buyer whose legal identifier is not a CVR number (0184), when validated, then DK-R-017 fires under 3.0.21 only', () => {
      const xml = domestic('DK');
      expect(xml).to.contain('<cbc:CompanyID schemeID="0183">39937423947</cbc:CompanyID>');
      expect(firings(xml, V19)).to.not.have.property('DK-R-017');
      expect(firings(xml, V21)).to.have.property('DK-R-017', 'fatal');
      const cvr = xml.replace('schemeID="0183">39937423947', 'schemeID="0184">12345678');
      expect(firings(cvr, V21)).to.not.have.property('DK-R-017');
    });

    it('Given a UNSPSC classification without an accepted version, when validated, then DK-R-003 is a warning under 3.0.19 and fatal under 3.0.21', () => {
      const xml = domestic('DK').replace(
        '</cac:Item>',
        '<cac:CommodityClassification><cbc:ItemClassificationCode listID="TST" listVersionID="18.0">43211503</cbc:ItemClassificationCode></cac:CommodityClassification></cac:Item>',
      );
      expect(firings(xml, V19)).to.have.property('DK-R-003', 'warning');
      expect(firings(xml, V21)).to.have.property('DK-R-003', 'fatal');
    });
  });

  describe('German rules', () => {
    it('Given an external document location that is no absolute URL, when validated, then DE-R-T02 warns under 3.0.21 only', () => {
      const xml = domestic('DE').replace(
        '<cac:PaymentMeans>',
        '<cac:AdditionalDocumentReference><cbc:ID>doc1</cbc:ID><cac:Attachment><cac:ExternalReference><cbc:URI>www.example.com/doc1</cbc:URI></cac:ExternalReference></cac:Attachment></cac:AdditionalDocumentReference><cac:PaymentMeans>',
      );
      expect(firings(xml, V19)).to.not.have.property('DE-R-T02');
      expect(firings(xml, V21)).to.have.property('DE-R-T02', 'warning');
      expect(firings(xml.replace('www.example.com', 'https://www.example.com'), V21)).to.not.have.property('DE-R-T02');
    });

    it('Given an invoice type code written with spaces, when validated, then DE-R-017 warns under 3.0.19 only (3.0.21 normalises)', () => {
      const xml = domestic('DE').replace(
        '<cbc:InvoiceTypeCode>380</cbc:InvoiceTypeCode>',
        '<cbc:InvoiceTypeCode> 380 </cbc:InvoiceTypeCode>',
      );
      expect(firings(xml, V19)).to.have.property('DE-R-017', 'warning');
      expect(firings(xml, V21)).to.not.have.property('DE-R-017');
    });

    it('Given SEPA credit transfer code " 58 " with an account that is no IBAN, when validated, then DE-R-019 warns under 3.0.21 only', () => {
      const xml = domestic('DE').replace(
        '<cbc:PaymentMeansCode name="Credit transfer">30</cbc:PaymentMeansCode>',
        '<cbc:PaymentMeansCode name="Credit transfer"> 58 </cbc:PaymentMeansCode>',
      );
      expect(firings(xml, V19)).to.not.have.property('DE-R-019');
      expect(firings(xml, V21)).to.have.property('DE-R-019', 'warning');
    });
  });

  describe('code lists of each release', () => {
    it('Given amounts in XCG (added in 3.0.21), when validated, then CL007 refuses them under 3.0.19 only', () => {
      const xml = BASE.replace(/currencyID="EUR"/g, 'currencyID="XCG"').replace(
        '<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>',
        '<cbc:DocumentCurrencyCode>XCG</cbc:DocumentCurrencyCode>',
      );
      expect(firings(xml, V19)).to.have.property('PEPPOL-EN16931-CL007', 'fatal');
      expect(firings(xml, V21)).to.not.have.property('PEPPOL-EN16931-CL007');
    });

    it('Given an endpoint of scheme 0037 (removed in 3.0.21), when validated, then CL008 refuses it under 3.0.21 only', () => {
      const xml = buyerEndpoint('0037', '003712345678');
      expect(firings(xml, V19)).to.not.have.property('PEPPOL-EN16931-CL008');
      expect(firings(xml, V21)).to.have.property('PEPPOL-EN16931-CL008', 'fatal');
    });
  });

  describe('Icelandic rules (the same in both releases)', () => {
    const iceland = domestic('IS')
      .replace('<cbc:CompanyID>GB983294</cbc:CompanyID>', '<cbc:CompanyID schemeID="0196">1234567890</cbc:CompanyID>')
      .replace('schemeID="0183">39937423947', 'schemeID="0196">0987654321');
    const finalDue = (id: string, xml = iceland) =>
      xml.replace(
        '<cac:PaymentMeans>',
        `<cac:AdditionalDocumentReference><cbc:ID>${id}</cbc:ID><cbc:DocumentDescription>EINDAGI</cbc:DocumentDescription></cac:AdditionalDocumentReference><cac:PaymentMeans>`,
      );

    for (const set of [V19, V21]) {
      it(`Given Icelandic seller and buyer with their kennitala, when validated under ${set.peppol}, then no rule fires`, () => {
        expect(firings(iceland, set)).to.deep.equal({});
        expect(firings(finalDue('2017-12-05'), set)).to.deep.equal({});
      });

      it(`Given legal identifiers of another scheme, when validated under ${set.peppol}, then IS-R-002 and IS-R-004 fire`, () => {
        expect(firings(domestic('IS'), set)).to.include({ 'IS-R-002': 'fatal', 'IS-R-004': 'fatal' });
      });

      it(`Given a final due date before the due date or not a date, when validated under ${set.peppol}, then IS-R-010 / IS-R-008 fire`, () => {
        expect(firings(finalDue('2017-11-05'), set)).to.deep.equal({ 'IS-R-010': 'fatal' });
        expect(firings(finalDue('05.12.2017'), set)).to.have.property('IS-R-008', 'fatal');
        const noDueDate = finalDue('2017-12-05').replace(/<cbc:DueDate>[^<]*<\/cbc:DueDate>/, '');
        expect(firings(noDueDate, set)).to.have.property('IS-R-009', 'fatal');
      });
    }
  });
  describe('DK and IS rules with two postal countries for one party', () => {
    for (const country of ['DK', 'IS'])
      it(`Given a ${country} seller whose address has its country twice, when validated, then no ${country} rule applies (the official match fails on the two codes)`, () => {
        const xml = domestic(country);
        const twice = xml.replace(
          `<cac:Country>\n                    <cbc:IdentificationCode>${country}</cbc:IdentificationCode>\n                </cac:Country>`,
          (m) => m + m,
        );
        expect(twice, 'the seller address has two countries').to.not.equal(xml);
        const national = (x: string, set: RuleSet) =>
          Object.keys(firings(x, set)).filter((id) => id.startsWith(`${country}-`));
        expect(national(xml, V21)).to.not.be.empty;
        for (const set of [V19, V21]) expect(national(twice, set), set.id).to.deep.equal([]);
      });
  });
});
