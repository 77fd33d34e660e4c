import { expect } from 'chai';
import { checkDocument } from '../../../src/domain/document/rules/documentCheck.js';
import type { DocumentCheck } from '../../../src/domain/document/rules/documentCheck.js';
import { recoverFromText } from '../../../src/domain/document/pdf-text/recoverDocument.js';
import { rowsOfPages } from '../../../src/domain/document/pdf-text/textLayout.js';
import { writeUbl } from '../../../src/domain/document/ubl/ublWriter.js';
import type { PdfContent } from '../../../src/application/documents/pdfPorts.js';
import { PdfmakeRenderer } from '../../../src/infrastructure/pdf/invoicePdf.js';
import { PdfContentReader } from '../../../src/infrastructure/pdf/pdfContentReader.js';
import { realisticDocuments } from '../../domain/document/fixtures/realisticDocuments.js';
import { checked, longInvoice } from '../../support/pdfSamples.js';
import { readEmbeddedDocument } from '../../../src/infrastructure/xml/embeddedXml.js';

const renderer = new PdfmakeRenderer();
const reader = new PdfContentReader();

/** Renders a document with its UBL embedded, as construct_pdf does, and opens the result. */
async function renderAndRead(check: DocumentCheck): Promise<{ pdf: Buffer; content: PdfContent }> {
  const pdf = await renderer.render(check.document, [
    { fileName: 'invoice.xml', mimeType: 'application/xml', content: Buffer.from(check.ubl) },
  ]);
  return { pdf, content: await reader.read(pdf) };
}

describe('Our renderings read back (pdfmake → pdf-lib/pdfjs), for every realistic document', function () {
  this.timeout(120_000);
  for (const fixture of realisticDocuments()) {
    it(`${fixture.name}: the embedded UBL is exact, and the text layer alone gives the same UBL`, async () => {
      const check = checked(fixture.body);
      const { pdf, content } = await renderAndRead(check);
      expect(pdf.subarray(0, 5).toString()).to.equal('%PDF-');

      const embedded = readEmbeddedDocument(content.embeddedFiles);
      expect(embedded.found?.format).to.equal('ubl');
      expect(embedded.found!.xml).to.equal(check.ubl);
      expect(writeUbl(embedded.found!.document)).to.equal(check.ubl);

      // The text path ignores the embedded file: everything the UBL holds except attachment content is printed.
      const recovered = recoverFromText(content.pages, { vendorTaxId: null, customerTaxId: null });
      const again = checkDocument(recovered.document);
      const printable = checkDocument({ ...check.document, attachments: [] });
      expect(again.ubl).to.equal(printable.ubl);
      expect(again.isValid).to.equal(check.isValid);
    });
  }

  it('a 200-line invoice runs over several pages, each numbered "Page n of N", each repeating the table heading', async () => {
    const { content } = await renderAndRead(checked(longInvoice(200)));
    expect(content.pageCount).to.be.greaterThan(3);
    const rows = rowsOfPages(content.pages);
    for (let p = 0; p < content.pageCount; p++) {
      expect(
        rows.some((r) => r.page === p && r.text.endsWith(`Page ${p + 1} of ${content.pageCount}`)),
        `page ${p + 1} footer`,
      ).to.equal(true);
    }
    const headings = rows.filter(
      (r) => r.cells.some((c) => c.text === 'Description') && r.cells.some((c) => c.text === 'Amount (EUR)'),
    );
    expect(new Set(headings.map((r) => r.page)).size).to.be.at.least(content.pageCount - 1);
    const recovered = recoverFromText(content.pages, { vendorTaxId: null, customerTaxId: null });
    expect(recovered.document.items).to.have.length(200);
    expect(checkDocument(recovered.document).isValid).to.equal(true);
  });

  it('a credit note says so, names the invoice it corrects, and prints the amount to refund', async () => {
    const credit = realisticDocuments().find((f) => f.name === 'BE credit note for returned goods')!;
    const { content } = await renderAndRead(checked(credit.body));
    const text = rowsOfPages(content.pages)
      .map((r) => r.text)
      .join('\n');
    expect(text).to.include('CREDIT NOTE');
    expect(text).to.include('Corrects invoice ACME-2025-0003');
    expect(text).to.match(/Amount to refund EUR 457\.38/);
    expect(text).to.include('IBAN BE68 5390 0754 7034');
  });
});
