/**
 * What reading XML costs, per step, for invoices of 280, 2,800 and 28,000 lines (the UBL our
 * writer produces for them: 0.2, 1.7 and 16.9 MB):
 *   upload       the whole path of an uploaded UBL (POST /api/documents/ubl's task, checkUbl):
 *                decode, parse, every rule, the XSD, reading the document
 *   rules        parse (gate + tree) and every EN 16931 and Peppol rule (validateUbl)
 *   read         parse and read the document model from it (readUbl)
 *   json check   JSON document → totals → UBL → every rule (checkDocument)
 *   write        document → UBL text (writeUbl)
 * Median of several runs after a warm-up, in milliseconds: wall time and the process's CPU time
 * (this one moves less when other processes share the machine).
 *   npm run bench:xml        Options (env): SIZES (280,2800,28000)
 */
import { decodeDocumentInput } from '../src/http/codecs/documentCodec.js';
import type { Document } from '../src/domain/document/invoice/documentModel.js';
import { checkDocument } from '../src/domain/document/rules/documentCheck.js';
import { writeUbl } from '../src/domain/document/ubl/ublWriter.js';
import { checkUbl } from '../src/infrastructure/workers/documentTasks.js';
import { readUblText, validateUbl } from '../src/infrastructure/xml/ublText.js';
import { invoiceWithLines } from './benchDocuments.js';

const sizes = (process.env.SIZES ?? '280,2800,28000').split(',').map(Number);

function documentOf(lines: number): Document {
  const decoded = decodeDocumentInput(invoiceWithLines(lines), {
    maxLines: lines,
    maxAttachments: 50,
    maxRenderedLines: lines,
  });
  if (!decoded.ok) throw new Error(JSON.stringify(decoded.errors.slice(0, 3)));
  return decoded.value;
}

function median(run: () => unknown, runs: number): { wall: number; cpu: number } {
  run(); // warm-up
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = process.hrtime.bigint();
    const cpuStarted = process.cpuUsage();
    run();
    const used = process.cpuUsage(cpuStarted);
    wall.push(Number(process.hrtime.bigint() - started) / 1e6);
    cpu.push((used.user + used.system) / 1e3);
  }
  const middle = (values: number[]) => Math.round(values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!);
  return { wall: middle(wall), cpu: middle(cpu) };
}

const results: Record<string, Record<string, { wall: number; cpu: number }>> = {};
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
