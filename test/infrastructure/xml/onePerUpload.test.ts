import { expect } from 'chai';
import { checkJson, checkUbl, pdfDraft, readDocument } from '../../../src/infrastructure/workers/documentTasks.js';
import { useDocumentDecoder } from '../../../src/infrastructure/workers/documentTasks.js';
import { decodeDocumentInput as httpDecoder } from '../../../src/http/codecs/documentCodec.js';
import { parseCounts } from '../../../src/infrastructure/xml/xmlParser.js';
import { realisticDocuments } from '../../domain/document/fixtures/realisticDocuments.js';
import { bearer, createOrganization, createTenant, startTestService, type TestService } from '../../support/service.js';

/*
 * An uploaded document is parsed once: one libxml2 parse (the gate, whose document the XSD
 * reuses) and one tree, which the rules and the reader both walk. Documents we write are checked
 * on the tree the writer built, and never parsed at all.
 */

const fixtures = realisticDocuments();

/** The parses `run` made: libxml2 parses of untrusted text, and texts turned into trees. */
async function parsesOf(run: () => unknown): Promise<{ gate: number; trees: number }> {
  const before = { ...parseCounts };
  await run();
  return { gate: parseCounts.gate - before.gate, trees: parseCounts.trees - before.trees };
}

async function ublOf(body: unknown): Promise<string> {
  const checked = await checkJson(body, { renderPdf: false });
  if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
  return checked.ubl;
}

// What the composition root does in every process: the tasks decode with the HTTP edge's codec.
useDocumentDecoder(httpDecoder);

describe('One parse per uploaded document', function () {
  let ubl: string;
  before(async () => {
    ubl = await ublOf(fixtures[0]!.body);
  });

  it('checks and reads an uploaded UBL (text or bytes) from one parse: the XSD, the rules and the reader share it', async () => {
    let result: ReturnType<typeof checkUbl> | undefined;
    expect(await parsesOf(() => (result = checkUbl(Buffer.from(ubl), { read: true })))).to.deep.equal({
      gate: 1,
      trees: 1,
    });
    expect(result!.issues.filter((i) => i.flag === 'fatal')).to.deep.equal([]);
    expect(result!.document!.invoice_id).to.equal('ACME-2025-0001');
    expect(await parsesOf(() => checkUbl(ubl, { read: false }))).to.deep.equal({ gate: 1, trees: 1 });
  });

  it('still finds what only the XSD finds, on that one parse', async () => {
    // The schema fixes the order of the header's elements; no business rule looks at it.
    const wrongOrder = ubl.replace(/(<cbc:ID>[^<]*<\/cbc:ID>)(\s*)(<cbc:IssueDate>[^<]*<\/cbc:IssueDate>)/, '$3$2$1');
    expect(wrongOrder).to.not.equal(ubl);
    let result: ReturnType<typeof checkUbl> | undefined;
    expect(await parsesOf(() => (result = checkUbl(wrongOrder, { read: true })))).to.deep.equal({ gate: 1, trees: 1 });
    expect(result!.issues.map((i) => i.rule_id)).to.include('UBL-XSD');
    expect(result!.document).to.equal(null);
  });

  it('reads a received document from one tree, without a second gate (its text passed the gate when it came)', async () => {
    expect(await parsesOf(() => readDocument(ubl))).to.deep.equal({ gate: 0, trees: 1 });
  });

  it('reads the UBL embedded in an uploaded PDF from one parse, and checks the draft written from it without parsing', async () => {
    let result: ReturnType<typeof pdfDraft> | undefined;
    const files = [{ fileName: 'invoice.xml', mimeType: 'application/xml', content: Buffer.from(ubl) }];
    const input = {
      files,
      pages: [],
      textRead: false,
      hints: { vendorTaxId: null, customerTaxId: null },
      pdf: { fileName: 'invoice.pdf', bytes: Buffer.from('%PDF-1.7') },
    };
    expect(await parsesOf(() => (result = pdfDraft(input)))).to.deep.equal({ gate: 1, trees: 1 });
    expect(result!.kind).to.equal('draft');
    expect(result!.kind === 'draft' && result!.method).to.equal('embedded_ubl');
  });

  it('checks a JSON document on the tree the writer built, parsing nothing', async () => {
    expect(await parsesOf(() => ublOf(fixtures[1]!.body))).to.deep.equal({ gate: 0, trees: 0 });
  });

  describe('through the API (the service in this process; small documents are checked on its thread)', function () {
    let t: TestService;
    let key: string;
    before(async () => {
      t = await startTestService();
      const org = await createOrganization(t);
      key = (await createTenant(t, org.adminKey)).key;
    });
    after(async () => t?.stop());

    for (const path of ['/api/documents/ubl', '/api/validate/ubl']) {
      it(`POST ${path} parses the upload once`, async () => {
        let status = 0;
        const parses = await parsesOf(async () => {
          status = (await t.http.post(path).set(bearer(key)).set('Content-Type', 'application/xml').send(ubl)).status;
        });
        expect(status).to.equal(200);
        expect(parses).to.deep.equal({ gate: 1, trees: 1 });
      });
    }
  });
});
