/**
 * PDF benchmark, in-process (the work behind construct_pdf, GET /api/documents/{id}/pdf and
 * POST /api/documents/pdf, without HTTP and the database):
 *   1. rendering: ms per document and per page, for 1, 10, 200 and 500-line documents;
 *   2. extraction: ms per document, from our renderings (embedded UBL, and text layer alone) and
 *      from the third-party PDFs of test/fixtures/pdf (Factur-X CII, LibreOffice text).
 *   npm run bench:pdf          Options (env): RUNS (5)
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { checkDocument } from '../src/domain/document/rules/documentCheck.js';
import type { DocumentCheck } from '../src/domain/document/rules/documentCheck.js';
import { recoverFromText } from '../src/domain/document/pdf-text/recoverDocument.js';
import { PdfmakeRenderer } from '../src/infrastructure/pdf/invoicePdf.js';
import { PdfContentReader } from '../src/infrastructure/pdf/pdfContentReader.js';
import { realisticDocuments } from '../test/domain/document/fixtures/realisticDocuments.js';
import { checked, longInvoice } from '../test/support/pdfSamples.js';
import { stripEmbeddedFiles } from '../test/support/pdfFiles.js';
import { readEmbeddedDocument } from '../src/infrastructure/xml/embeddedXml.js';
import { repoRoot } from '../test/support/repoRoot.js';

const RUNS = Number(process.env.RUNS ?? 5);
const renderer = new PdfmakeRenderer();
const reader = new PdfContentReader();

/** Median ms of `runs` runs after one warm-up run. */
async function median(run: () => Promise<unknown>, runs = RUNS): Promise<number> {
  await run();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

const render = (check: DocumentCheck) =>
  renderer.render(check.document, [
    { fileName: 'invoice.xml', mimeType: 'application/xml', content: Buffer.from(check.ubl) },
  ]);

/** What POST /api/documents/pdf does before recording: embedded data first, else the text. */
async function extract(pdf: Buffer): Promise<string> {
  let embedded: ReturnType<typeof readEmbeddedDocument> = { found: null, problems: [] };
  const content = await reader.read(pdf, (files) => {
    embedded = readEmbeddedDocument(files);
    return embedded.found === null;
  });
  const document = embedded.found
    ? embedded.found.document
    : recoverFromText(content.pages, { vendorTaxId: null, customerTaxId: null }).document;
  checkDocument(document);
  return embedded.found ? `embedded ${embedded.found.format}` : 'text';
}

async function main(): Promise<void> {
  const rows: string[] = [];
  const sizes: Array<[string, Record<string, unknown>]> = [
    ['1 line', realisticDocuments()[0]!.body],
    ['10 lines', longInvoice(10)],
    ['200 lines', longInvoice(200)],
    ['500 lines', realisticDocuments().find((f) => f.covers.includes('500 lines'))!.body],
  ];
  console.log(`Rendering (median of ${RUNS} runs):`);
  const rendered: Array<[string, Buffer]> = [];
  for (const [name, body] of sizes) {
    const check = checked(body);
    const pdf = await render(check);
    const pages = (await reader.read(pdf, () => false)).pageCount;
    const ms = await median(() => render(check));
    rendered.push([name, pdf]);
    const line = `| render ${name} | ${pages} | ${ms.toFixed(1)} ms | ${(ms / pages).toFixed(1)} ms/page | ${Math.round(pdf.length / 1024)} KB |`;
    rows.push(line);
    console.log(line);
  }

  console.log('\nExtraction (median per document):');
  const cases: Array<[string, Buffer]> = [];
  for (const [name, pdf] of rendered) {
    cases.push([`ours, ${name}, embedded UBL`, pdf]);
    cases.push([`ours, ${name}, text layer only`, await stripEmbeddedFiles(pdf)]);
  }
  for (const file of [
    'facturx-en16931-de.pdf',
    'zugferd-reverse-charge-nl.pdf',
    'lo-en-invoice.pdf',
    'lo-nl-factuur.pdf',
    'lo-en-long-reverse-charge.pdf',
    'scanned-invoice.pdf',
  ]) {
    cases.push([file, await readFile(path.join(repoRoot, 'test/fixtures/pdf', file))]);
  }
  for (const [name, pdf] of cases) {
    const method = await extract(pdf);
    const ms = await median(() => extract(pdf));
    const line = `| extract ${name} | ${method} | ${ms.toFixed(1)} ms |`;
    rows.push(line);
    console.log(line);
  }
}

await main();
