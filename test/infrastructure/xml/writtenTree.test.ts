import { expect } from 'chai';
import { fromDocumentJson, type DocumentJson } from '../../../src/domain/document/invoice/documentJson.js';
import type { Document } from '../../../src/domain/document/invoice/documentModel.js';
import { serializeUbl, writeUbl, writeUblTree } from '../../../src/domain/document/ubl/ublWriter.js';
import { validateUblTree } from '../../../src/domain/validation/index.js';
import type { XNode } from '../../../src/domain/xml/xmlTree.js';
import { checkJson } from '../../../src/infrastructure/workers/documentTasks.js';
import { useDocumentDecoder } from '../../../src/infrastructure/workers/documentTasks.js';
import { decodeDocumentInput as httpDecoder } from '../../../src/http/codecs/documentCodec.js';
import { parseOwnUbl, readUblText } from '../../../src/infrastructure/xml/ublText.js';
import { realisticDocuments } from '../../domain/document/fixtures/realisticDocuments.js';
import { expectedExamples, readExample } from '../../domain/document/sharedDir.js';

/*
 * The rules check the tree the UBL writer built instead of parsing its text back (documentCheck,
 * documentAttachments, a PDF draft's check). That is sound only if the tree is the one a parse of
 * the text gives: the same elements, names, namespaces, attributes and text, in the same order
 * (the parse adds only the indentation between elements), and the same rule firings. One
 * difference is allowed: a CR in a value is written as given, and a parse reads CR LF as LF, as
 * XML 1.0 has every parser do; no rule tells them apart (tested below).
 */

/** A tree as a plain value; text between child elements (indentation) left out. */
const shape = (n: XNode): unknown => ({
  name: n.name,
  local: n.local,
  ns: n.ns,
  attrs: { ...n.attrs },
  text: n.children.length > 0 ? n.text.trim() : n.text,
  children: n.children.map(shape),
});

/** Parents are what the rules' locations are built from. */
function parentsAreSet(n: XNode): boolean {
  return n.children.every((c) => c.parent === n && parentsAreSet(c));
}

async function documentOf(body: unknown): Promise<DocumentJson> {
  const checked = await checkJson(body, { renderPdf: false });
  if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
  return checked.document;
}

function expectSameAsParsed(document: Document, what: string): void {
  const tree = writeUblTree(document);
  const xml = serializeUbl(tree);
  expect(xml, what).to.equal(writeUbl(document));
  const parsed = parseOwnUbl(xml);
  expect(tree.kind, what).to.equal(parsed.kind);
  expect(shape(tree.root), what).to.deep.equal(shape(parsed.root));
  expect(parentsAreSet(tree.root), what).to.equal(true);
  expect(validateUblTree(tree), what).to.deep.equal(validateUblTree(parsed));
}

// What the composition root does in every process: the tasks decode with the HTTP edge's codec.
useDocumentDecoder(httpDecoder);

describe('The tree the UBL writer builds is the tree its text parses into', function () {
  const fixtures = realisticDocuments();

  it('for every realistic fixture', async () => {
    for (const fixture of fixtures) expectSameAsParsed(fromDocumentJson(await documentOf(fixture.body)), fixture.name);
  });

  it('for documents that break rules (so that firings and their locations are compared too)', async () => {
    let firings = 0;
    for (const fixture of fixtures.slice(0, 10)) {
      const document = await documentOf(fixture.body);
      const broken: DocumentJson[] = [
        { ...document, customer_name: null, vendor_tax_id: null },
        {
          ...document,
          currency: 'XXX' as DocumentJson['currency'],
          items: document.items.map((i) => ({ ...i, unit: 'NOPE' })),
        },
        {
          ...document,
          attachments: [
            {
              id: 'x',
              file_name: 'a.exe',
              file_type: 'application/x-msdownload',
              file_size: 1,
              file_data: 'AA==',
              file_url: null,
            },
          ],
        },
      ];
      for (const variant of broken) {
        const model = fromDocumentJson(variant);
        firings += validateUblTree(writeUblTree(model)).length;
        expectSameAsParsed(model, fixture.name);
      }
    }
    expect(firings).to.be.greaterThan(30);
  });

  it('for text with characters XML cannot carry, markup characters and line breaks', async () => {
    const document = await documentOf(fixtures[0]!.body);
    expectSameAsParsed(
      fromDocumentJson({
        ...document,
        note: 'a < b & c > d "quoted"\nsecond line\ttab \u0001dropped',
        vendor_name: 'Smith & Sons <Ltd>',
      }),
      'escaped',
    );
  });

  it('for text with CR LF line breaks: the same rule firings', async () => {
    const document = await documentOf(fixtures[0]!.body);
    const model = fromDocumentJson({ ...document, note: 'first\r\nsecond\rthird', payment_term: 'Net 30\r\n' });
    const tree = writeUblTree(model);
    const parsed = parseOwnUbl(serializeUbl(tree));
    expect(validateUblTree(tree)).to.deep.equal(validateUblTree(parsed));
  });

  const examples = (expectedExamples() ?? []).filter((r) => r.root === 'Invoice' || r.root === 'CreditNote');
  it(`for the official examples read and written again (${examples.length})`, function () {
    if (examples.length === 0) this.skip();
    for (const r of examples) expectSameAsParsed(readUblText(readExample(r.path)), r.path);
  });
});
