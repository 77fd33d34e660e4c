/**
 * What reading XML costs, per step, for invoices of 280, 2,800 and 28,000 lines (the UBL our
 * writer produces for them: 0.2, 1.7 and 16.9 MB):
 *   upload       the whole path of an uploaded UBL (POST /api/documents/ubl's task, checkUbl):
 *                decode, parse, every rule, the XSD, reading the document
 *   rules        parse (gate + tree) and every EN 16931 and Peppol rule (validateUbl)
 *   read         parse and read the document model from it (readUbl)
 *   json check   JSON document → totals → UBL → every rule (checkDocument)
 *   write        document → UBL text (writeUbl)
 * Median of several runs after a warm-up, in milliseconds.
 *   npm run bench:xml        Options (env): SIZES (280,2800,28000)
 */
import { decodeDocumentInput } from '../src/domain/document/invoice/documentInput.js';
import type { Document } from '../src/domain/document/invoice/documentModel.js';
import { checkDocument } from '../src/domain/document/rules/documentCheck.js';
import { writeUbl } from '../src/domain/document/ubl/ublWriter.js';
import { checkUbl } from '../src/infrastructure/workers/documentTasks.js';
import { readUblText, validateUbl } from '../src/infrastructure/xml/ublText.js';
import { invoiceWithLines } from './benchDocuments.js';

const sizes = (process.env.SIZES ?? '280,2800,28000').split(',').map(Number);

function documentOf(lines: number): Document {
  const decoded = decodeDocumentInput(invoiceWithLines(lines), { maxLines: lines, maxAttachments: 50, maxRenderedLines: lines });
  if (!decoded.ok) throw new Error(JSON.stringify(decoded.errors.slice(0, 3)));
  return decoded.value;
}

function median(run: () => unknown, runs: number): number {
  run(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = process.hrtime.bigint();
    run();
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  times.sort((a, b) => a - b);
  return Math.round(times[Math.floor(times.length / 2)]!);
}

const results: Record<string, Record<string, number>> = {};
for (const lines of sizes) {
  const document = documentOf(lines);
  const ubl = writeUbl(document);
  const bytes = Buffer.from(ubl);
  const runs = lines >= 20_000 ? 3 : lines >= 2_000 ? 5 : 15;
  results[`${lines} lines (${(bytes.length / 1e6).toFixed(1)} MB)`] = {
    upload_ms: median(() => checkUbl(bytes, { read: true }), runs),
    rules_ms: median(() => validateUbl(ubl), runs),
    read_ms: median(() => readUblText(ubl), runs),
    json_check_ms: median(() => checkDocument(document), runs),
    write_ms: median(() => writeUbl(document), runs),
  };
}
console.log(JSON.stringify(results, null, 2));
