// Self-billing documents in the Peppol layer. From 3.0.21 (release 2026.5) the official artefacts hold
// a separate self-billing Schematron, PEPPOL-EN16931-UBL-SB.xslt: the billing rules with the
// self-billing identifiers, its own type codes for profile 01, R051 not on the subtotal tax amounts,
// no P0112 and no national rules. 3.0.19 had no such file: there a self-billing document keeps the
// billing rules with the self-billing identifiers. The documents are official examples of the shared
// corpus (read at run time), switched to self-billing and changed in one place per case; the last
// suite checks each case against the official self-billing Schematron through the phive harness.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { ruleSetById, type RuleSet } from '../../../../../src/domain/validation/index.js';
import { validateUbl } from '../../../../../src/infrastructure/xml/ublText.js';
import { sharedDir } from '../../conformance/corpus.js';
import {
  describeWithOfficialRules,
  startOfficialRules,
  type OfficialRules,
} from '../../../../support/officialRules.js';

const V19 = ruleSetById('peppol-bis-3.0.19')!;
const V21 = ruleSetById('peppol-bis-3.0.21')!;

const EXAMPLES = path.join(sharedDir(), 'conformance/examples/peppol-bis-3.0.19/examples');
const read = (name: string) => fs.readFileSync(path.join(EXAMPLES, name), 'utf8');

const BILLING = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';
const SELF_BILLING = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:selfbilling:3.0';
const PROFILE_01 = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';
const SB_PROFILE_01 = 'urn:fdc:peppol.eu:2017:poacc:selfbilling:01:1.0';
const PROFILE_02 = 'urn:peppol:bis:billing_with_response';

const INVOICE = read('base-example.xml');
const CREDIT_NOTE = read('base-creditnote-correction.xml');

/** The billing document as self-billing: identifiers switched, type code 389 / 261 unless given. */
function selfBilling(xml: string, typeCode?: string): string {
  const out = xml
    .replace(`>${BILLING}<`, `>${SELF_BILLING}<`)
    .replace(`>${PROFILE_01}<`, `>${SB_PROFILE_01}<`)
    .replace(/<cbc:InvoiceTypeCode>[^<]*</, `<cbc:InvoiceTypeCode>${typeCode ?? '389'}<`)
    .replace(/<cbc:CreditNoteTypeCode>[^<]*</, `<cbc:CreditNoteTypeCode>${typeCode ?? '261'}<`);
  if (!out.includes(SELF_BILLING) || !out.includes(SB_PROFILE_01)) throw new Error('example changed');
  return out;
}

const withTypeCode = (xml: string, code: string) =>
  xml
    .replace(/<cbc:InvoiceTypeCode>[^<]*</, `<cbc:InvoiceTypeCode>${code}<`)
    .replace(/<cbc:CreditNoteTypeCode>[^<]*</, `<cbc:CreditNoteTypeCode>${code}<`);
const withProfile = (xml: string, profile: string) =>
  xml.replace(/<cbc:ProfileID>[^<]*</, `<cbc:ProfileID>${profile}<`);

/** Seller and buyer (and delivery) in one country: the national rules' trigger. */
const domestic = (xml: string, country: string) =>
  xml.replace(
    /<cbc:IdentificationCode>(GB|SE)<\/cbc:IdentificationCode>/g,
    `<cbc:IdentificationCode>${country}</cbc:IdentificationCode>`,
  );

/** The first subtotal's tax amount in another currency than the document's. */
function subtotalTaxAmountIn(xml: string, currency: string): string {
  const at = xml.indexOf('<cac:TaxSubtotal>');
  const tail = xml.slice(at).replace(/<cbc:TaxAmount currencyID="EUR">/, `<cbc:TaxAmount currencyID="${currency}">`);
  return xml.slice(0, at) + tail;
}

/** Fatal Peppol rule ids that fired (the Peppol layer alone), sorted. */
function fatals(xml: string, ruleSet: RuleSet): string[] {
  const ids = validateUbl(xml, { layers: ['peppol'], ruleSet })
    .filter((i) => i.flag === 'fatal')
    .map((i) => i.rule_id);
  return [...new Set(ids)].sort();
}

const NATIONAL = /^(DE|DK|GR|IS|IT|NL|NO|SE)-/;

/** Every case below: a self-billing document and what the 3.0.21 Peppol layer reports on it. */
const CASES: { name: string; xml: string; v21: string[] }[] = [
  { name: 'self-billing invoice 389', xml: selfBilling(INVOICE), v21: [] },
  { name: 'self-billing invoice 527', xml: selfBilling(INVOICE, '527'), v21: [] },
  { name: 'self-billing invoice 380', xml: selfBilling(INVOICE, '380'), v21: ['PEPPOL-EN16931-P0100'] },
  { name: 'self-billing invoice 326', xml: selfBilling(INVOICE, '326'), v21: ['PEPPOL-EN16931-P0100'] },
  { name: 'self-billing credit note 261', xml: selfBilling(CREDIT_NOTE), v21: [] },
  { name: 'self-billing credit note 381', xml: selfBilling(CREDIT_NOTE, '381'), v21: ['PEPPOL-EN16931-P0101'] },
  { name: 'self-billing, profile 02, invoice 380', xml: withProfile(selfBilling(INVOICE, '380'), PROFILE_02), v21: [] },
  {
    name: 'self-billing, French regulated profile, invoice 380',
    xml: withProfile(selfBilling(INVOICE, '380'), 'urn:peppol:france:billing:regulated'),
    v21: ['PEPPOL-EN16931-P0100'],
  },
  {
    name: 'self-billing, billing profile',
    xml: withProfile(selfBilling(INVOICE), PROFILE_01),
    v21: ['PEPPOL-EN16931-R007'],
  },
  {
    name: 'self-billing, subtotal tax amount in SEK',
    xml: subtotalTaxAmountIn(selfBilling(INVOICE), 'SEK'),
    v21: [],
  },
  ...['SE', 'DK', 'NL', 'DE', 'IS'].map((c) => ({
    name: `self-billing, seller and buyer in ${c}`,
    xml: domestic(selfBilling(INVOICE), c),
    v21: [],
  })),
];

describe('Peppol self-billing rules per release (PEPPOL-EN16931-UBL-SB of 2026.5)', () => {
  it('Given an official example switched to self-billing (389 / 261), when validated under either set, then no Peppol rule fires', () => {
    for (const set of [V19, V21]) {
      expect(fatals(selfBilling(INVOICE), set), set.id).to.deep.equal([]);
      expect(fatals(selfBilling(CREDIT_NOTE), set), set.id).to.deep.equal([]);
    }
  });

  describe('national rules', () => {
    for (const country of ['SE', 'DK', 'NL', 'DE', 'IS'])
      it(`Given seller and buyer in ${country}, when validated, then the billing document gets ${country} rules, the self-billing one only under 3.0.19`, () => {
        const national = (xml: string, set: RuleSet) => fatals(xml, set).filter((id) => NATIONAL.test(id));
        expect(national(domestic(INVOICE, country), V21)).to.not.be.empty;
        expect(national(domestic(selfBilling(INVOICE), country), V19)).to.not.be.empty;
        expect(national(domestic(selfBilling(INVOICE), country), V21)).to.deep.equal([]);
      });
  });

  describe('PEPPOL-EN16931-P0112 (326 and 384 only between German parties)', () => {
    it('Given a non-German invoice with type code 326, when validated, then billing reports P0112 and self-billing 3.0.21 does not', () => {
      expect(fatals(withTypeCode(INVOICE, '326'), V21)).to.include('PEPPOL-EN16931-P0112');
      expect(fatals(selfBilling(INVOICE, '326'), V19)).to.include('PEPPOL-EN16931-P0112');
      expect(fatals(selfBilling(INVOICE, '326'), V21)).to.not.include('PEPPOL-EN16931-P0112');
    });
  });

  describe('PEPPOL-EN16931-P0100 / P0101 (type codes of the profile)', () => {
    it('Given self-billing profile 01, when validated under 3.0.21, then invoices take 389 and 527 only', () => {
      for (const code of ['389', '527']) expect(fatals(selfBilling(INVOICE, code), V21), code).to.deep.equal([]);
      for (const code of ['380', '384', '386', '393'])
        expect(fatals(selfBilling(INVOICE, code), V21), code).to.include('PEPPOL-EN16931-P0100');
      // 389 is no billing type code.
      expect(fatals(withTypeCode(INVOICE, '389'), V21)).to.include('PEPPOL-EN16931-P0100');
    });

    it('Given self-billing profile 01, when validated under 3.0.21, then credit notes take 261 only', () => {
      expect(fatals(selfBilling(CREDIT_NOTE, '261'), V21)).to.deep.equal([]);
      for (const code of ['381', '396', '532'])
        expect(fatals(selfBilling(CREDIT_NOTE, code), V21), code).to.include('PEPPOL-EN16931-P0101');
    });

    it('Given profile 02 (billing with response), when validated under 3.0.21, then only billing binds the type code', () => {
      expect(fatals(withProfile(withTypeCode(INVOICE, '389'), PROFILE_02), V21)).to.include('PEPPOL-EN16931-P0100');
      expect(fatals(withProfile(selfBilling(INVOICE, '380'), PROFILE_02), V21)).to.deep.equal([]);
      expect(fatals(withProfile(selfBilling(CREDIT_NOTE, '381'), PROFILE_02), V21)).to.deep.equal([]);
    });

    it('Given a self-billing invoice 380, when validated under 3.0.19, then no type-code rule applies (as before)', () => {
      expect(fatals(selfBilling(INVOICE, '380'), V19)).to.deep.equal([]);
    });
  });

  describe('PEPPOL-EN16931-R051 (amounts in the document currency)', () => {
    it('Given a subtotal tax amount in another currency, when validated, then billing reports R051 and self-billing 3.0.21 does not', () => {
      expect(fatals(subtotalTaxAmountIn(INVOICE, 'SEK'), V21)).to.include('PEPPOL-EN16931-R051');
      expect(fatals(subtotalTaxAmountIn(selfBilling(INVOICE), 'SEK'), V19)).to.include('PEPPOL-EN16931-R051');
      expect(fatals(subtotalTaxAmountIn(selfBilling(INVOICE), 'SEK'), V21)).to.deep.equal([]);
    });

    it('Given the document-level tax total amount in another currency, when validated under 3.0.21, then self-billing still reports R051', () => {
      const xml = selfBilling(INVOICE).replace(
        '<cbc:TaxAmount currencyID="EUR">331.25</cbc:TaxAmount>',
        '<cbc:TaxAmount currencyID="SEK">331.25</cbc:TaxAmount>',
      );
      expect(fatals(xml, V21)).to.include('PEPPOL-EN16931-R051');
    });
  });

  it('Given each case, when validated under 3.0.21, then the Peppol layer reports what the case names', () => {
    for (const c of CASES) expect(fatals(c.xml, V21), c.name).to.deep.equal(c.v21);
  });
});

describeWithOfficialRules(
  'Peppol self-billing rules and the official self-billing Schematron of 2026.5',
  function () {
    let official: OfficialRules;
    before(async function () {
      this.timeout(120_000);
      official = await startOfficialRules({ release: '2026.5' });
    });
    after(async () => official?.stop());

    it('Given each case, when the official 2026.5 rules judge it, then they use the self-billing Schematron and report the same fatal Peppol rules as we do', async function () {
      this.timeout(120_000);
      const verdicts = await official.check(CASES.map((c) => c.xml));
      CASES.forEach((c, i) => {
        const v = verdicts[i]!;
        expect(v.failure, c.name).to.equal(undefined);
        expect(v.peppolArtefact, c.name).to.equal('peppolSb');
        expect(v.peppol.fatal, c.name).to.deep.equal(c.v21);
        expect(fatals(c.xml, V21), c.name).to.deep.equal(v.peppol.fatal);
      });
    });
  },
  [EXAMPLES],
);
