/**
 * Renders the documents we check by eye (docs/pdf-*.png) to PDF files:
 *   npm run build && node dist/scripts/render-pdf-samples.js [out-dir]
 * then e.g. `pdftoppm -png -r 60 out/long-invoice.pdf docs/pdf-long-invoice`.
 * A 200-line invoice (page breaks, repeated table header, page numbers), a credit note with a
 * reason and a reference to the invoice, and a multi-currency invoice (USD, export, lines with
 * allowances and charges).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { decodeDocumentInput } from '../src/http/codecs/documentCodec.js';
import { checkDocument } from '../src/domain/document/rules/documentCheck.js';
import { PdfmakeRenderer } from '../src/infrastructure/pdf/invoicePdf.js';
import { sampleDocuments } from '../test/support/pdfSamples.js';

async function main(): Promise<void> {
  const out = process.argv[2] ?? 'var/pdf-samples';
  await mkdir(out, { recursive: true });
  const renderer = new PdfmakeRenderer();
  for (const sample of sampleDocuments()) {
    const decoded = decodeDocumentInput(sample.body);
    if (!decoded.ok) throw new Error(`${sample.name}: ${JSON.stringify(decoded.errors)}`);
    const check = checkDocument(decoded.value);
    if (!check.isValid)
      throw new Error(`${sample.name}: ${JSON.stringify(check.issues.filter((i) => i.flag === 'fatal'))}`);
    const pdf = await renderer.render(check.document, [
      { fileName: 'invoice.xml', mimeType: 'application/xml', content: Buffer.from(check.ubl) },
    ]);
    await writeFile(path.join(out, `${sample.name}.pdf`), pdf);
    console.log(`${sample.name}.pdf ${pdf.length} bytes`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
