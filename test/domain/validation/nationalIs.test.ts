// Icelandic national rules (IS-R-001…010). No official unit tests exist for them: each case below is
// a small Icelandic document made from the shared Peppol base examples, with the IS-R ids we expect;
// the second suite checks that the official XSLT of each release reports the same IS-R ids.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { RULE_SETS } from '../../../src/domain/validation/index.js';
import { validateUbl } from '../../../src/infrastructure/xml/ublText.js';
import { describeWithOfficialRules, startOfficialRules, type OfficialRelease } from '../../support/officialRules.js';
import { sharedDir } from './conformance/corpus.js';

const EXAMPLES = path.join(sharedDir(), 'conformance', 'examples', 'peppol-bis-3.0.19', 'examples');
const INVOICE = path.join(EXAMPLES, 'base-example.xml');
const CREDIT_NOTE = path.join(EXAMPLES, 'base-creditnote-correction.xml');

/** What one test document says; every case starts from a complete Icelandic invoice (ICELANDIC). */
interface Doc {
  base: 'invoice' | 'credit note';
  sellerCountry: string;
  /** schemeID of the seller's legal registration number (BT-30); null: none. */
  sellerLegalScheme: string | null;
  sellerStreet: boolean;
  sellerPostCode: boolean;
  buyerCountry: string;
  buyerLegalScheme: string | null;
  buyerStreet: boolean;
  buyerPostCode: boolean;
  paymentMeansCode: string;
  /** The payee's account (BT-84); null: no PayeeFinancialAccount. */
  account: string | null;
  typeCode: string;
  /** BT-9 of an invoice; null: none. */
  dueDate: string | null;
  /** The final due date (eindagi) as a supporting document: its ID and description. */
  eindagi?: { id: string; description?: string };
}

const ICELANDIC: Doc = {
  base: 'invoice',
  sellerCountry: 'IS',
  sellerLegalScheme: '0196',
  sellerStreet: true,
  sellerPostCode: true,
  buyerCountry: 'IS',
  buyerLegalScheme: '0196',
  buyerStreet: true,
  buyerPostCode: true,
  paymentMeansCode: '42',
  account: '013526012345',
  typeCode: '380',
  dueDate: '2017-12-01',
};

/** Replace `from` by `to` once inside the first element `section` (the replacement must apply). */
function within(xml: string, section: string, from: string | RegExp, to: string): string {
  const start = xml.indexOf(`<${section}>`);
  const end = xml.indexOf(`</${section}>`, start);
  if (start < 0 || end < 0) throw new Error(`no ${section} in the example`);
  const part = xml.slice(start, end);
  if (typeof from === 'string' ? !part.includes(from) : !from.test(part))
    throw new Error(`${String(from)} not found in ${section}`);
  return xml.slice(0, start) + part.replace(from, to) + xml.slice(end);
}

const legalId = (scheme: string | null, value: string) =>
  scheme === null
    ? `<cbc:CompanyID>${value}</cbc:CompanyID>`
    : `<cbc:CompanyID schemeID="${scheme}">${value}</cbc:CompanyID>`;

/** The shared base example changed as `doc` says. */
function documentOf(change: Partial<Doc>): string {
  const doc = { ...ICELANDIC, ...change };
  let xml = fs.readFileSync(doc.base === 'credit note' ? CREDIT_NOTE : INVOICE, 'utf8');
  const party = (
    section: string,
    country: string,
    exampleCountry: string,
    exampleLegalId: RegExp,
    scheme: string | null,
    street: boolean,
    postCode: boolean,
  ) => {
    xml = within(xml, section, `<cbc:IdentificationCode>${exampleCountry}<`, `<cbc:IdentificationCode>${country}<`);
    xml = within(xml, section, exampleLegalId, legalId(scheme, '5902697199'));
    if (!street) xml = within(xml, section, /<cbc:StreetName>[^<]*<\/cbc:StreetName>/, '');
    if (!postCode) xml = within(xml, section, /<cbc:PostalZone>[^<]*<\/cbc:PostalZone>/, '');
  };
  party(
    'cac:AccountingSupplierParty',
    doc.sellerCountry,
    'GB',
    /<cbc:CompanyID>GB983294<\/cbc:CompanyID>/,
    doc.sellerLegalScheme,
    doc.sellerStreet,
    doc.sellerPostCode,
  );
  party(
    'cac:AccountingCustomerParty',
    doc.buyerCountry,
    'SE',
    /<cbc:CompanyID schemeID="0183">39937423947<\/cbc:CompanyID>/,
    doc.buyerLegalScheme,
    doc.buyerStreet,
    doc.buyerPostCode,
  );
  xml = within(
    xml,
    'cac:PaymentMeans',
    /<cbc:PaymentMeansCode[^>]*>30</,
    `<cbc:PaymentMeansCode>${doc.paymentMeansCode}<`,
  );
  xml =
    doc.account === null
      ? within(xml, 'cac:PaymentMeans', /<cac:PayeeFinancialAccount>[\s\S]*<\/cac:PayeeFinancialAccount>/, '')
      : within(xml, 'cac:PaymentMeans', '<cbc:ID>IBAN32423940</cbc:ID>', `<cbc:ID>${doc.account}</cbc:ID>`);
  if (doc.base === 'invoice') {
    xml = xml.replace('<cbc:InvoiceTypeCode>380<', `<cbc:InvoiceTypeCode>${doc.typeCode}<`);
    xml = xml.replace(
      '<cbc:DueDate>2017-12-01</cbc:DueDate>',
      doc.dueDate === null ? '' : `<cbc:DueDate>${doc.dueDate}</cbc:DueDate>`,
    );
  }
  if (doc.eindagi)
    xml = xml.replace(
      '<cac:AccountingSupplierParty>',
      `<cac:AdditionalDocumentReference><cbc:ID>${doc.eindagi.id}</cbc:ID><cbc:DocumentDescription>${doc.eindagi.description ?? 'EINDAGI'}</cbc:DocumentDescription></cac:AdditionalDocumentReference><cac:AccountingSupplierParty>`,
    );
  return xml;
}

interface Case {
  given: string;
  when: string;
  doc: Partial<Doc>;
  fatal: string[];
  warning?: string[];
}

const CASES: Case[] = [
  { given: 'a complete Icelandic invoice', when: 'it is validated', doc: {}, fatal: [] },
  {
    given: 'a complete Icelandic invoice',
    when: 'its final due date is after the due date',
    doc: { eindagi: { id: '2017-12-15' } },
    fatal: [],
  },
  {
    given: 'a complete Icelandic invoice',
    when: 'its final due date is the due date',
    doc: { eindagi: { id: '2017-12-01' } },
    fatal: [],
  },
  {
    given: 'a British seller',
    when: 'the invoice has none of the Icelandic details, a short claim account and a malformed final due date',
    doc: {
      sellerCountry: 'GB',
      sellerLegalScheme: null,
      buyerCountry: 'SE',
      buyerLegalScheme: '0183',
      paymentMeansCode: '9',
      account: '1',
      typeCode: '384',
      eindagi: { id: '1.12.2017' },
    },
    fatal: [],
  },
  {
    given: "a seller country written 'is' (lower case)",
    when: 'the Icelandic details are missing',
    doc: { sellerCountry: 'is', sellerLegalScheme: null, sellerStreet: false },
    fatal: [],
  },
  {
    given: "a seller country written ' IS' (with a space)",
    when: 'the Icelandic details are missing',
    doc: { sellerCountry: ' IS', sellerLegalScheme: null, sellerStreet: false },
    fatal: [],
  },
  {
    given: 'an Icelandic seller',
    when: 'its legal registration number has no scheme',
    doc: { sellerLegalScheme: null },
    fatal: ['IS-R-002'],
  },
  {
    given: 'an Icelandic seller',
    when: "its legal registration number has scheme ' 0196' (with a space)",
    doc: { sellerLegalScheme: ' 0196' },
    fatal: ['IS-R-002'],
  },
  {
    given: 'an Icelandic seller',
    when: "its legal registration number has another scheme ('0088')",
    doc: { sellerLegalScheme: '0088' },
    fatal: ['IS-R-002'],
  },
  {
    given: 'an Icelandic seller',
    when: 'its address has no street name',
    doc: { sellerStreet: false },
    fatal: ['IS-R-003'],
  },
  {
    given: 'an Icelandic seller',
    when: 'its address has no post code',
    doc: { sellerPostCode: false },
    fatal: ['IS-R-003'],
  },
  {
    given: 'an Icelandic seller',
    when: 'the invoice type is 384 (corrected invoice)',
    doc: { typeCode: '384' },
    fatal: [],
    warning: ['IS-R-001'],
  },
  {
    given: 'an Icelandic seller',
    when: 'the invoice type is 381 written with spaces around it',
    doc: { typeCode: ' 381 ' },
    fatal: [],
  },
  {
    given: 'an Icelandic seller and an Icelandic buyer',
    when: "the buyer's legal registration number is not a kennitala (scheme 0183)",
    doc: { buyerLegalScheme: '0183' },
    fatal: ['IS-R-004'],
  },
  {
    given: 'an Icelandic seller and a Swedish buyer',
    when: "the buyer's legal registration number is not a kennitala and its address has no post code",
    doc: { buyerCountry: 'SE', buyerLegalScheme: '0183', buyerPostCode: false },
    fatal: [],
  },
  {
    given: 'an Icelandic seller and an Icelandic buyer',
    when: "the buyer's address has no street name",
    doc: { buyerStreet: false },
    fatal: ['IS-R-005'],
  },
  {
    given: 'an Icelandic seller and an Icelandic buyer',
    when: "the buyer's address has no post code",
    doc: { buyerPostCode: false },
    fatal: ['IS-R-005'],
  },
  {
    given: 'an Icelandic seller asking for payment by claim (payment means 9)',
    when: 'the account has 12 characters',
    doc: { paymentMeansCode: '9' },
    fatal: [],
  },
  {
    given: 'an Icelandic seller asking for payment by claim (payment means 9)',
    when: 'the account has 11 characters',
    doc: { paymentMeansCode: '9', account: '01352601234' },
    fatal: ['IS-R-006'],
  },
  {
    given: 'an Icelandic seller asking for payment by claim (payment means 9)',
    when: 'the 12-character account is written with spaces around it',
    doc: { paymentMeansCode: '9', account: '  013526012345 ' },
    fatal: [],
  },
  {
    given: 'an Icelandic seller asking for payment by claim (payment means 9)',
    when: 'no account is given',
    doc: { paymentMeansCode: '9', account: null },
    fatal: ['IS-R-006'],
  },
  {
    given: 'an Icelandic seller asking for a transfer (payment means 42)',
    when: 'the account has 13 characters',
    doc: { account: '0135260123456' },
    fatal: ['IS-R-007'],
  },
  {
    given: 'an Icelandic seller asking for a transfer (payment means 42)',
    when: 'no account is given',
    doc: { account: null },
    fatal: ['IS-R-007'],
  },
  {
    given: 'an Icelandic seller asking for a SEPA transfer (payment means 30)',
    when: 'the account is an IBAN of another length',
    doc: { paymentMeansCode: '30', account: 'IS140159260076545510730339' },
    fatal: [],
  },
  {
    given: 'an Icelandic seller with a final due date',
    when: 'the date is written 2017-12-1',
    doc: { eindagi: { id: '2017-12-1' } },
    fatal: ['IS-R-008'],
  },
  {
    given: 'an Icelandic seller with a final due date',
    when: 'the date does not exist (2017-02-30)',
    doc: { dueDate: '2017-02-01', eindagi: { id: '2017-02-30' } },
    fatal: ['IS-R-008'],
  },
  {
    given: 'an Icelandic seller with a final due date',
    when: 'the date is 29 February of a leap year',
    doc: { dueDate: '2016-02-01', eindagi: { id: '2016-02-29' } },
    fatal: [],
  },
  {
    given: 'an Icelandic seller with a final due date',
    when: 'the date is written the Icelandic way (15.12.2017)',
    doc: { eindagi: { id: '15.12.2017' } },
    fatal: ['IS-R-008', 'IS-R-010'],
  },
  {
    given: 'an Icelandic seller with a final due date',
    when: 'the invoice has no due date',
    doc: { dueDate: null, eindagi: { id: '2017-12-15' } },
    fatal: ['IS-R-009', 'IS-R-010'],
  },
  {
    given: 'an Icelandic seller with a final due date',
    when: 'the final due date is before the due date',
    doc: { eindagi: { id: '2017-11-30' } },
    fatal: ['IS-R-010'],
  },
  {
    given: 'an Icelandic seller with a supporting document described "eindagi" (lower case)',
    when: 'its identifier is not a date',
    doc: { eindagi: { id: 'abc', description: 'eindagi' } },
    fatal: [],
  },
  {
    given: 'an Icelandic seller',
    when: 'the invoice type code has a no-break space before 380 (not XML white space)',
    doc: { typeCode: '\u00a0380' },
    fatal: [],
    warning: ['IS-R-001'],
  },
  {
    given: 'an Icelandic seller',
    when: "the payment means code is ' 9' with a space (not the claim code as written) and the account is short",
    doc: { paymentMeansCode: ' 9', account: '1' },
    fatal: [],
  },
  {
    given: 'an Icelandic seller asking for a transfer (payment means 42)',
    when: 'the 12-character account has a no-break space before it (13 characters)',
    doc: { account: '\u00a0013526012345' },
    fatal: ['IS-R-007'],
  },
  {
    given: 'an Icelandic seller with a final due date',
    when: 'both dates are in year 0000',
    doc: { dueDate: '0000-01-01', eindagi: { id: '0000-01-01' } },
    fatal: [],
  },
  {
    given: 'an Icelandic seller with a final due date',
    when: 'the dates differ only in a character outside the BMP (compared by code point)',
    doc: { dueDate: '2017-12-01\u{1F600}', eindagi: { id: '2017-12-01\uFFFD' } },
    fatal: ['IS-R-008', 'IS-R-010'],
  },
  {
    given: 'an Icelandic seller issuing a credit note (381)',
    when: 'it is validated',
    doc: { base: 'credit note' },
    fatal: [],
  },
  {
    given: 'an Icelandic seller issuing a credit note',
    when: 'its legal registration number has no scheme',
    doc: { base: 'credit note', sellerLegalScheme: null },
    fatal: ['IS-R-002'],
  },
  {
    given: 'an Icelandic seller issuing a credit note',
    when: 'it carries a final due date (a credit note has no document-level due date)',
    doc: { base: 'credit note', eindagi: { id: '2017-12-15' } },
    fatal: ['IS-R-009', 'IS-R-010'],
  },
];

function ourIsIds(xml: string, ruleSet: (typeof RULE_SETS)[number]): { fatal: string[]; warning: string[] } {
  const issues = validateUbl(xml, { ruleSet }).filter((i) => i.rule_id.startsWith('IS-R-'));
  const ids = (flag: string) => [...new Set(issues.filter((i) => i.flag === flag).map((i) => i.rule_id))].sort();
  return { fatal: ids('fatal'), warning: ids('warning') };
}

describe('Icelandic national rules (IS-R-001…010)', () => {
  for (const ruleSet of RULE_SETS) {
    describe(`rule set ${ruleSet.id}`, () => {
      for (const c of CASES) {
        it(`Given ${c.given}, when ${c.when}, then ${[...c.fatal, ...(c.warning ?? []).map((w) => `${w} (warning)`)].join(', ') || 'no IS-R rule'} is reported`, () => {
          const found = ourIsIds(documentOf(c.doc), ruleSet);
          expect(found).to.deep.equal({ fatal: [...c.fatal].sort(), warning: [...(c.warning ?? [])].sort() });
        });
      }
    });
  }
});

describeWithOfficialRules(
  'Icelandic national rules agree with the official XSLT',
  function () {
    for (const ruleSet of RULE_SETS) {
      describe(`${ruleSet.id} (official ${ruleSet.release})`, () => {
        let official: Awaited<ReturnType<typeof startOfficialRules>> | undefined;
        let verdicts: { fatal: string[]; warning: string[]; failure?: string }[] = [];
        before(async function () {
          this.timeout(120_000);
          official = await startOfficialRules({ release: ruleSet.release as OfficialRelease });
          const answers = await official.check(CASES.map((c) => documentOf(c.doc)));
          verdicts = answers.map((a) => ({
            fatal: a.peppol.fatal.filter((id) => id.startsWith('IS-R-')),
            warning: a.peppol.warning.filter((id) => id.startsWith('IS-R-')),
            ...(a.peppol.failure !== undefined ? { failure: a.peppol.failure } : {}),
          }));
        });
        after(async () => {
          await official?.stop();
        });
        CASES.forEach((c, i) => {
          it(`Given ${c.given}, when ${c.when}, then the official XSLT reports the same IS-R ids as we do`, () => {
            const theirs = verdicts[i]!;
            expect(theirs.failure, 'the official Peppol XSLT judged the document').to.equal(undefined);
            const ours = ourIsIds(documentOf(c.doc), ruleSet);
            expect(ours).to.deep.equal({ fatal: theirs.fatal, warning: theirs.warning });
            expect(ours).to.deep.equal({ fatal: [...c.fatal].sort(), warning: [...(c.warning ?? [])].sort() });
          });
        });
      });
    }
  },
  [INVOICE, CREDIT_NOTE],
);
