// In-process benchmark of the validation engine alone (parse + CEN + Peppol rules).
// Usage: npx tsc -p tsconfig.json && node dist/scripts/bench-validate-engine.js [path/to/invoice.xml]
// Without an argument it uses the Peppol base example from ../shared (or $SHARED_DIR) and also builds
// a 500-line variant of it by repeating its first invoice line.
import fs from 'node:fs';
import path from 'node:path';
import { validateUbl } from '../src/infrastructure/xml/ublText.js';

function time(label: string, xml: string, iterations: number): void {
  for (let i = 0; i < Math.min(50, iterations); i++) validateUbl(xml); // warm-up
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) validateUbl(xml);
  const ms = Number(process.hrtime.bigint() - start) / 1e6 / iterations;
  console.log(
    `${label.padEnd(28)} ${ms.toFixed(3)} ms/document (${iterations} iterations, ${(xml.length / 1024).toFixed(0)} KiB)`,
  );
}

const shared = process.env.SHARED_DIR ?? path.resolve(process.cwd(), '..', 'shared');
const file = process.argv[2] ?? path.join(shared, 'conformance/examples/peppol-bis-3.0.19/examples/base-example.xml');
const base = fs.readFileSync(file, 'utf8');
time(path.basename(file), base, 2000);

const start = base.indexOf('<cac:InvoiceLine>');
const end = base.indexOf('</cac:InvoiceLine>') + '</cac:InvoiceLine>'.length;
if (start > 0 && end > start) {
  const line = base.slice(start, end);
  const lastEnd = base.lastIndexOf('</cac:InvoiceLine>') + '</cac:InvoiceLine>'.length;
  const head = base.slice(0, start);
  const tail = base.slice(lastEnd);
  const ten = head + line.repeat(10) + tail;
  const fiveHundred = head + line.repeat(500) + tail;
  time('10 lines', ten, 2000);
  time('500 lines', fiveHundred, 50);
}
