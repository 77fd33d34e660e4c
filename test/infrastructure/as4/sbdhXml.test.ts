import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import type { Sbdh } from '../../../src/domain/peppol/as4/sbdh.js';
import { canonicalize } from '../../../src/infrastructure/as4/exclusiveC14n.js';
import { NS } from '../../../src/infrastructure/as4/namespaces.js';
import { readSbdh, writeSbdh } from '../../../src/infrastructure/as4/sbdhXml.js';
import {
  childElements,
  decodeUtf8Xml,
  firstChild,
  parseUntrustedXmlDom,
} from '../../../src/infrastructure/as4/xmlDom.js';
import { DEFAULT_XML_LIMITS } from '../../../src/domain/validation/xml/limits.js';
import { phase4Dir, requireVectors, vectorsDir } from '../../support/peppolVectors.js';

const INVOICE_TYPE =
  'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1';

/** base-sbdh.xml's header, as the vectors README states it. */
const BASE: Sbdh = {
  sender: { scheme: 'iso6523-actorid-upis', value: '9915:phase4-test-sender' },
  receiver: { scheme: 'iso6523-actorid-upis', value: '9915:helger' },
  document: {
    standard: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
    typeVersion: '2.1',
    instanceIdentifier: '123456789',
    type: 'Invoice',
    creationDateAndTime: '2023-10-25T15:42:10Z',
  },
  documentType: { scheme: 'busdox-docid-qns', value: INVOICE_TYPE },
  process: { scheme: 'cenbii-procid-ubl', value: 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0' },
  countryC1: 'GB',
  mlsTo: null,
  mlsType: null,
  extraScopes: [],
};

const dom = (xml: Buffer | string) => parseUntrustedXmlDom(decodeUtf8Xml(Buffer.from(xml)), DEFAULT_XML_LIMITS);

/** The header as a list of (element path, attributes, text) in document order: what "same fields, same order" means. */
function headerOutline(xml: Buffer | string): string[] {
  const header = firstChild(dom(xml).documentElement!, NS.sbdh, 'StandardBusinessDocumentHeader')!;
  const out: string[] = [];
  const walk = (element: Element, at: string) => {
    const here = `${at}/${element.localName}`;
    const children = childElements(element);
    const attributes = Array.from({ length: element.attributes.length }, (_, i) => element.attributes[i]!)
      .filter((a) => a.prefix !== 'xmlns' && a.name !== 'xmlns')
      .map((a) => `@${a.localName}=${a.value}`);
    out.push([here, ...attributes, children.length === 0 ? (element.textContent ?? '').trim() : ''].join(' '));
    for (const c of children) {
      expect(c.namespaceURI).to.equal(NS.sbdh);
      walk(c, here);
    }
  };
  walk(header, '');
  return out;
}

const businessElement = (xml: Buffer | string): Element =>
  childElements(dom(xml).documentElement!).find((e) => e.localName !== 'StandardBusinessDocumentHeader')!;

describe('Peppol SBDH (Envelope Specification 2.0): writer and reader', function () {
  const sbdhDir = () => path.join(vectorsDir(), 'peppol-commons', 'sbdh');
  before(function () {
    requireVectors(this, path.join(phase4Dir(), 'sbdh', 'base-sbdh.xml'));
  });
  const base = () => fs.readFileSync(path.join(phase4Dir(), 'sbdh', 'base-sbdh.xml'));

  it('reads base-sbdh.xml into the fields the README gives', () => {
    const read = readSbdh(base());
    if (!read.ok) throw new Error(read.message);
    expect(read.sbdh).to.deep.equal(BASE);
    expect(read.warnings).to.deep.equal([]);
    // The invoice is from the SBDH's sender: its seller's EndpointID is the same participant.
    expect(read.issuer).to.deep.equal({
      path: 'Invoice/AccountingSupplierParty/Party/EndpointID',
      id: '9915:phase4-test-sender',
    });
  });

  it('writes the same header as base-sbdh.xml, field for field and in the same order, around the same invoice', () => {
    const read = readSbdh(base());
    if (!read.ok) throw new Error(read.message);
    const ours = writeSbdh(BASE, read.businessDocument);
    expect(headerOutline(ours)).to.deep.equal(headerOutline(base()));
    expect(headerOutline(ours).slice(0, 3)).to.deep.equal([
      '/StandardBusinessDocumentHeader ',
      '/StandardBusinessDocumentHeader/HeaderVersion 1.0',
      '/StandardBusinessDocumentHeader/Sender ',
    ]);
    expect(canonicalize(businessElement(ours))).to.equal(canonicalize(businessElement(base())));
  });

  it('round-trips the optional scopes (MLS_TO, MLS_TYPE, another scheme, extra scopes) and escapes values', () => {
    const full: Sbdh = {
      ...BASE,
      document: { ...BASE.document, instanceIdentifier: 'a<b>&"c"' },
      process: { scheme: 'other-procid', value: 'urn:process' },
      mlsTo: { scheme: 'iso6523-actorid-upis', value: '9915:mls' },
      mlsType: 'FAILURE_ONLY',
      extraScopes: [{ type: 'X', instanceIdentifier: 'y', identifier: null }],
    };
    const xml = writeSbdh(
      full,
      '<?xml version="1.0"?>\n<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><ID>1</ID></Invoice>',
    );
    const read = readSbdh(Buffer.from(xml));
    if (!read.ok) throw new Error(read.message);
    expect(read.sbdh).to.deep.equal(full);
    expect(read.businessDocument).to.equal(
      '<?xml version="1.0" encoding="UTF-8"?>\n<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><ID>1</ID></Invoice>',
    );
  });

  it('reads every good SBDH of peppol-commons, and good.xml as phax asserts it', () => {
    const goodDir = path.join(sbdhDir(), 'good');
    const files = fs.readdirSync(goodDir).filter((f) => f.endsWith('.xml'));
    expect(files).to.have.length(14);
    for (const f of files) {
      const read = readSbdh(fs.readFileSync(path.join(goodDir, f)));
      expect(read.ok, `${f}: ${read.ok ? '' : read.message}`).to.equal(true);
    }
    const good = readSbdh(fs.readFileSync(path.join(goodDir, 'good.xml')));
    if (!good.ok) throw new Error(good.message);
    expect([
      good.sbdh.sender.value,
      good.sbdh.receiver.value,
      good.sbdh.countryC1,
      good.sbdh.document.instanceIdentifier,
      good.sbdh.document.creationDateAndTime,
    ]).to.deep.equal([
      '0088:7315458756324',
      '0088:4562458856624',
      'AT',
      '3739db04-7e4e-4c89-b170-c543dd252249',
      '2013-02-19T05:10:10Z',
    ]);
  });

  it('refuses every bad SBDH for the reason sbdh-bad-cases.tsv gives (two MLS_TO cases are warnings only)', () => {
    const rows = fs
      .readFileSync(path.join(sbdhDir(), 'sbdh-bad-cases.tsv'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() && !l.startsWith('#'))
      .slice(1)
      .map((l) => l.split('\t') as [string, string]);
    expect(rows).to.have.length(31);
    for (const [file, expected] of rows) {
      const read = readSbdh(fs.readFileSync(path.join(sbdhDir(), 'bad', file)));
      if (expected.startsWith('(warning only')) {
        expect(read.ok, file).to.equal(true);
        expect(read.ok && read.warnings.join(' '), file).to.match(/MLS_TO/);
      } else {
        expect(read.ok ? 'accepted' : read.error, `${file}: ${read.ok ? '' : read.message}`).to.equal(expected);
      }
    }
  });
});
