// The differential suite's documents: complete valid documents (the official examples of the shared
// corpus, read at run time, and the UBL our writer produces from the realistic JSON fixtures) and
// seeded, deterministic mutations of them: elements removed, duplicated or emptied, codes changed to
// other valid or invalid values, amounts perturbed around the tolerance boundaries, dates, identifiers
// and their schemes, profiles, and changes that break the schema. Nothing of the corpus is copied.
// Self-billing documents are included: our writer's, and variants of official examples switched to
// the Peppol BIS Self-Billing identifiers (selfBillingVariant); the suite compares them with the
// release's self-billing Schematron where it has one.
import fs from 'node:fs';
import path from 'node:path';
import { DOMParser, XMLSerializer } from '@xmldom/xmldom';
import { completeDocument } from '../../src/domain/document/invoice/documentTotals.js';
import { writeUbl } from '../../src/domain/document/ubl/ublWriter.js';
import { decodeDocumentInput } from '../../src/http/codecs/documentCodec.js';
import { realisticDocuments } from '../domain/document/fixtures/realisticDocuments.js';
import { readExpected, sharedDir } from '../domain/validation/conformance/corpus.js';

export interface BaseDocument {
  name: string;
  xml: string;
}

export interface GeneratedDocument {
  /** Stable name: base document, then the mutations applied. */
  name: string;
  base: string;
  /** The mutations applied, in order ('remove:LegalMonetaryTotal', 'amount:+0.01:TaxAmount', …). */
  mutations: string[];
  xml: string;
}

/** mulberry32: a small seeded PRNG, so the corpus is the same on every run. */
export function prng(seed: number): () => number {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MAX_BASE_SIZE = 80_000;

/** The complete documents mutations start from (examples from ../shared, our writer's output). */
export function baseDocuments(): BaseDocument[] {
  const out: BaseDocument[] = [];
  const examplesDir = path.join(sharedDir(), 'conformance', 'examples');
  if (fs.existsSync(path.join(examplesDir, 'EXPECTED.tsv')))
    readExpected(examplesDir).forEach((row, i) => {
      const xml = fs.readFileSync(path.join(examplesDir, row.path), 'utf8');
      if (xml.length > MAX_BASE_SIZE) return;
      out.push({ name: `examples/${row.path}`, xml });
      // The Peppol examples (national ones too) and every other CEN test file, as self-billing.
      if (row.path.startsWith('peppol-bis-') ? !row.path.includes('/snippets/') : i % 2 === 1)
        out.push({ name: `selfbilling/${row.path}`, xml: selfBillingVariant(xml) });
    });
  for (const f of realisticDocuments()) {
    const decoded = decodeDocumentInput(f.body);
    if (!decoded.ok) continue;
    const xml = writeUbl(completeDocument(decoded.value).document);
    if (xml.length <= MAX_BASE_SIZE) out.push({ name: `writer/${f.name}`, xml });
  }
  return out;
}

export const SELFBILLING_CUSTOMIZATION =
  'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:selfbilling:3.0';
export const SELFBILLING_PROFILE = 'urn:fdc:peppol.eu:2017:poacc:selfbilling:01:1.0';

/**
 * The document as Peppol BIS Self-Billing: its specification and process identifiers switched to the
 * self-billing ones, and its type code to the self-billing invoice (389) or credit note (261).
 */
export function selfBillingVariant(xml: string): string {
  const doc = new DOMParser().parseFromString(xml, 'text/xml') as unknown as Document;
  for (const e of Array.from(doc.documentElement!.childNodes).filter((c): c is El => c.nodeType === 1)) {
    if (e.localName === 'CustomizationID') setText(e, SELFBILLING_CUSTOMIZATION);
    else if (e.localName === 'ProfileID') setText(e, SELFBILLING_PROFILE);
    else if (e.localName === 'InvoiceTypeCode') setText(e, '389');
    else if (e.localName === 'CreditNoteTypeCode') setText(e, '261');
  }
  return new XMLSerializer().serializeToString(doc as unknown as Node);
}

type El = Element;
type Rnd = () => number;

const pick = <T>(rnd: Rnd, xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;

function elements(doc: Document): El[] {
  const out: El[] = [];
  const walk = (n: Node) => {
    for (let c = n.firstChild; c; c = c.nextSibling)
      if (c.nodeType === 1) {
        out.push(c as El);
        walk(c);
      }
  };
  walk(doc.documentElement!);
  return out;
}

const byName = (doc: Document, ...names: string[]): El[] =>
  elements(doc).filter((e) => names.includes(e.localName ?? ''));
const isLeaf = (e: El) => ![...Array.from(e.childNodes)].some((c) => c.nodeType === 1);
const setText = (e: El, text: string) => {
  while (e.firstChild) e.removeChild(e.firstChild);
  e.appendChild(e.ownerDocument!.createTextNode(text));
};
const text = (e: El) => (e.textContent ?? '').trim();

const CURRENCIES = [
  'EUR',
  'SEK',
  'NOK',
  'DKK',
  'USD',
  'GBP',
  'CUC',
  'MRO',
  'MRU',
  'ANG',
  'XCG',
  'BGN',
  'CNH',
  'UYW',
  'XXX',
  'eur',
  'EU',
];
const VAT_CATEGORIES = ['S', 'Z', 'E', 'AE', 'K', 'G', 'O', 'L', 'M', 'B', 'X', 's', ''];
const SCHEMES = [
  '0088',
  '0106',
  '0190',
  '9944',
  '0217',
  '0096',
  '0198',
  '0184',
  '0007',
  '0192',
  '0208',
  '9925',
  '9930',
  '0002',
  '0009',
  '0151',
  '0204',
  '0242',
  '0244',
  '0245',
  '0246',
  '0248',
  '9901',
  '9956',
  'XX',
];
const UNITS = ['C62', 'EA', 'H87', 'HUR', 'KGM', 'LTR', 'XYZ', 'c62', ''];
const COUNTRIES = ['NL', 'DK', 'DE', 'SE', 'NO', 'GR', 'IT', 'BE', 'FR', 'GB', 'EL', 'IS', 'XX', 'nl'];
const INVOICE_TYPES = ['380', '381', '383', '384', '386', '389', '527', '393', '326', '751', '875', '71', '999', ''];
const CREDIT_TYPES = ['381', '396', '380', '261', '532', '999'];
const CUSTOMIZATIONS = [
  'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0',
  'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1',
  'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::',
  'urn:cen.eu:en16931:2017',
  'urn:cen.eu:en16931:2017#conformant#urn:fdc:peppol.eu:2017:poacc:billing:international:aunz:3.0',
  'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:selfbilling:3.0',
  'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:selfbilling:3.0::2.1',
  'something else',
  '',
];
const PROFILES = [
  'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0',
  'urn:peppol:bis:billing',
  'urn:peppol:bis:billing_with_response',
  'urn:fdc:peppol.eu:2017:poacc:billing:02:1.0',
  'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0::x',
  'urn:fdc:peppol.eu:2017:poacc:selfbilling:01:1.0',
  'urn:peppol:france:billing:regulated',
  'billing',
  '',
];
const PAYMENT_MEANS = ['30', '31', '42', '48', '49', '57', '58', '59', '1', '97', 'ZZZ', '999', ''];
const VATEX = [
  'VATEX-EU-79-C',
  'VATEX-EU-132',
  'VATEX-EU-135-1',
  'VATEX-EU-AE',
  'VATEX-EU-G',
  'VATEX-EU-IC',
  'VATEX-EU-O',
  'VATEX-FR-FRANCHISE',
  'vatex-eu-ae',
  'VATEX-XX-1',
];
const DATES = ['2026-13-01', '20260101', '2026-02-30', '1999-12-31', '2030-01-01', '2026-08-24', '2026-08-23', ''];

/** Identifier values by scheme, valid and invalid (check digits, lengths). */
const IDS: Record<string, string[]> = {
  '0088': ['5790000435968', '5790000435969', '7300010000001', '123'],
  '0106': ['12345678', '1234567', '123456789', 'ABCDEFGH'],
  '0190': ['00000099999999990000', '0000009999999999000', '12345678901234567890'],
  '9944': ['NL123456789B01', 'NL12345678B01', 'DE123456789'],
  '0184': ['DK12345674', '12345674', 'DK1234567'],
  '0096': ['1234567890', '123456789'],
  '0198': ['DK12345674', '12345674'],
  '0192': ['987654325', '987654321', '98765432'],
  '0007': ['5560360793', '556036079', '5560360794'],
  '0208': ['0123456749', '0123456748', '123456749'],
  '0217': ['1234567890', 'ABC'],
  '9925': ['BE0123456749', 'BE0123456748'],
};

interface Mutation {
  name: string;
  /** Applies itself to doc; returns what it did (for the name), or null when it does not apply. */
  apply(doc: Document, rnd: Rnd): string | null;
}

const setCode = (name: string, locals: string[], values: readonly string[]): Mutation => ({
  name,
  apply(doc, rnd) {
    const els = byName(doc, ...locals).filter(isLeaf);
    if (els.length === 0) return null;
    const e = pick(rnd, els);
    const v = pick(rnd, values);
    setText(e, v);
    return `${e.localName}=${v}`;
  },
});

const setAttr = (name: string, attr: string, values: readonly string[], locals?: string[]): Mutation => ({
  name,
  apply(doc, rnd) {
    const els = elements(doc).filter((e) => e.hasAttribute(attr) && (!locals || locals.includes(e.localName ?? '')));
    if (els.length === 0) return null;
    const e = pick(rnd, els);
    const v = pick(rnd, values);
    e.setAttribute(attr, v);
    return `${e.localName}@${attr}=${v}`;
  },
});

const removeNamed = (...locals: string[]): Mutation => ({
  name: `remove:${locals.join('+')}`,
  apply(doc) {
    const els = byName(doc, ...locals);
    if (els.length === 0) return null;
    for (const e of els) e.parentNode?.removeChild(e);
    return '';
  },
});

const AMOUNT_DELTAS = [
  '+0.01',
  '-0.01',
  '+1',
  '-1',
  '+0.99',
  '-0.99',
  '+1.01',
  '-1.01',
  '+0.005',
  'neg',
  'x10',
  '3dp',
  'zero',
  'text',
];

function perturb(v: string, how: string): string {
  const n = Number(v);
  if (!Number.isFinite(n)) return '1';
  const fix = (x: number) => (Math.round(x * 100) / 100).toFixed(2);
  switch (how) {
    case 'neg':
      return n === 0 ? '-1.00' : fix(-n);
    case 'x10':
      return fix(n * 10);
    case '3dp':
      return (n + 0.001).toFixed(3);
    case 'zero':
      return '0';
    case 'text':
      return 'twelve';
    case '+0.005':
      return (n + 0.005).toFixed(3);
    default:
      return fix(n + Number(how));
  }
}

const MUTATIONS: Mutation[] = [
  {
    name: 'remove-element',
    apply(doc, rnd) {
      const e = pick(rnd, elements(doc));
      e.parentNode!.removeChild(e);
      return e.localName ?? '';
    },
  },
  {
    name: 'duplicate-element',
    apply(doc, rnd) {
      const e = pick(rnd, elements(doc));
      e.parentNode!.insertBefore(e.cloneNode(true), e.nextSibling);
      return e.localName ?? '';
    },
  },
  {
    name: 'empty-element',
    apply(doc, rnd) {
      const leaves = elements(doc).filter(isLeaf);
      if (leaves.length === 0) return null;
      const e = pick(rnd, leaves);
      setText(e, '');
      return e.localName ?? '';
    },
  },
  {
    name: 'amount',
    apply(doc, rnd) {
      const els = elements(doc).filter(
        (e) => isLeaf(e) && (e.hasAttribute('currencyID') || /(Amount|Percent|Quantity)$/.test(e.localName ?? '')),
      );
      if (els.length === 0) return null;
      const e = pick(rnd, els);
      const how = pick(rnd, AMOUNT_DELTAS);
      setText(e, perturb(text(e), how));
      return `${how}:${e.localName}`;
    },
  },
  {
    name: 'total-boundary',
    apply(doc, rnd) {
      const els = byName(
        doc,
        'TaxAmount',
        'TaxableAmount',
        'LineExtensionAmount',
        'TaxExclusiveAmount',
        'TaxInclusiveAmount',
        'PayableAmount',
        'AllowanceTotalAmount',
        'ChargeTotalAmount',
        'PrepaidAmount',
        'PayableRoundingAmount',
      );
      if (els.length === 0) return null;
      const e = pick(rnd, els);
      const how = pick(rnd, ['+0.01', '-0.01', '+1', '-1', '+0.99', '-0.99', '+1.01', '-1.01']);
      setText(e, perturb(text(e), how));
      return `${how}:${e.localName}`;
    },
  },
  setCode('currency', ['DocumentCurrencyCode', 'TaxCurrencyCode'], CURRENCIES),
  setAttr('currencyID', 'currencyID', CURRENCIES),
  {
    name: 'vat-category',
    apply(doc, rnd) {
      const els = elements(doc).filter(
        (e) => e.localName === 'ID' && /TaxCategory$/.test((e.parentNode as El | null)?.localName ?? ''),
      );
      if (els.length === 0) return null;
      const e = pick(rnd, els);
      const v = pick(rnd, VAT_CATEGORIES);
      setText(e, v);
      return `${(e.parentNode as El).localName}=${v}`;
    },
  },
  setCode('vat-rate', ['Percent'], ['0', '21', '25', '6', '9', '12.5', '-1', '100.001', '']),
  setCode('vatex', ['TaxExemptionReasonCode'], VATEX),
  setAttr('scheme', 'schemeID', SCHEMES),
  setAttr('unit', 'unitCode', UNITS),
  setCode('country', ['IdentificationCode'], COUNTRIES),
  setCode('invoice-type', ['InvoiceTypeCode'], INVOICE_TYPES),
  setCode('credit-note-type', ['CreditNoteTypeCode'], CREDIT_TYPES),
  setCode('customization', ['CustomizationID'], CUSTOMIZATIONS),
  setCode('profile', ['ProfileID'], PROFILES),
  setCode('payment-means', ['PaymentMeansCode'], PAYMENT_MEANS),
  setCode(
    'date',
    ['IssueDate', 'DueDate', 'TaxPointDate', 'StartDate', 'EndDate', 'ActualDeliveryDate', 'PaymentDueDate'],
    DATES,
  ),
  {
    name: 'due-before-issue',
    apply(doc) {
      const due = byName(doc, 'DueDate', 'PaymentDueDate')[0];
      if (!due) return null;
      setText(due, '2000-01-01');
      return '';
    },
  },
  {
    name: 'identifier',
    apply(doc, rnd) {
      const els = elements(doc).filter(
        (e) =>
          e.localName === 'EndpointID' ||
          ((e.localName === 'ID' || e.localName === 'CompanyID') && e.hasAttribute('schemeID')),
      );
      if (els.length === 0) return null;
      const e = pick(rnd, els);
      const scheme = pick(rnd, Object.keys(IDS));
      const v = pick(rnd, IDS[scheme]!);
      e.setAttribute('schemeID', scheme);
      setText(e, v);
      return `${e.localName}=${scheme}:${v}`;
    },
  },
  {
    name: 'identifier-digit',
    apply(doc, rnd) {
      const els = byName(doc, 'EndpointID', 'CompanyID', 'ID').filter(
        (e) => /\d/.test(text(e)) && e.hasAttribute('schemeID'),
      );
      if (els.length === 0) return null;
      const e = pick(rnd, els);
      const t = text(e);
      const i = [...t].map((c, j) => (/\d/.test(c) ? j : -1)).filter((j) => j >= 0);
      const at = pick(rnd, i);
      setText(e, t.slice(0, at) + String((Number(t[at]) + 1) % 10) + t.slice(at + 1));
      return e.localName ?? '';
    },
  },
  removeNamed('LegalMonetaryTotal'),
  removeNamed('DueDate', 'PaymentTerms'),
  removeNamed('PaymentTerms'),
  removeNamed('PaymentMeans'),
  removeNamed('TaxTotal'),
  removeNamed('TaxSubtotal'),
  removeNamed('BuyerReference', 'OrderReference'),
  removeNamed('CustomizationID'),
  removeNamed('ProfileID'),
  removeNamed('EndpointID'),
  removeNamed('AccountingCustomerParty'),
  removeNamed('PartyTaxScheme'),
  removeNamed('TaxExemptionReason', 'TaxExemptionReasonCode'),
  removeNamed('Delivery'),
  {
    name: 'schema:unknown-element',
    apply(doc, rnd) {
      const e = pick(rnd, elements(doc));
      const x = doc.createElementNS(e.namespaceURI, `${e.prefix ? `${e.prefix}:` : ''}Unexpected`);
      x.appendChild(doc.createTextNode('1'));
      e.parentNode!.insertBefore(x, e);
      return e.localName ?? '';
    },
  },
  {
    name: 'schema:swap-siblings',
    apply(doc, rnd) {
      const e = pick(rnd, elements(doc));
      let next = e.nextSibling;
      while (next && next.nodeType !== 1) next = next.nextSibling;
      if (!next) return null;
      e.parentNode!.insertBefore(next, e);
      return e.localName ?? '';
    },
  },
  {
    name: 'schema:rename',
    apply(doc, rnd) {
      const leaves = elements(doc).filter(isLeaf);
      const e = pick(rnd, leaves);
      const x = doc.createElementNS(e.namespaceURI, `${e.prefix ? `${e.prefix}:` : ''}${e.localName}X`);
      x.appendChild(doc.createTextNode(text(e)));
      e.parentNode!.replaceChild(x, e);
      return e.localName ?? '';
    },
  },
];

/**
 * `count` documents from the base documents: the bases themselves first, then each a base with one
 * to three mutations, chosen by the seeded PRNG (same seed, same corpus).
 */
export function generateCorpus(options: { seed: number; count: number; bases?: BaseDocument[] }): GeneratedDocument[] {
  const rnd = prng(options.seed);
  const bases = options.bases ?? baseDocuments();
  const parser = new DOMParser();
  const serializer = new XMLSerializer();
  const out: GeneratedDocument[] = bases
    .slice(0, options.count)
    .map((b) => ({ name: b.name, base: b.name, mutations: [], xml: b.xml }));
  let attempts = 0;
  while (out.length < options.count && attempts++ < options.count * 20) {
    const base = pick(rnd, bases);
    const doc = parser.parseFromString(base.xml, 'text/xml') as unknown as Document;
    const n = rnd() < 0.6 ? 1 : rnd() < 0.75 ? 2 : 3;
    const applied: string[] = [];
    for (let i = 0; i < n; i++) {
      const m = pick(rnd, MUTATIONS);
      const what = m.apply(doc, rnd);
      if (what !== null) applied.push(what ? `${m.name}:${what}` : m.name);
    }
    if (applied.length === 0) continue;
    const xml = serializer.serializeToString(doc as unknown as Node);
    out.push({ name: `${base.name} ${applied.join(' ')}`, base: base.name, mutations: applied, xml });
  }
  return out;
}
