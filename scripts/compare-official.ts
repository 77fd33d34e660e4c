// Whole-set comparison of our CEN layer with the official CEN XSLT of each release (through the
// official-rules harness, test/interop/phive): every document embedded in the shared EN 16931 unit
// tests and every example document, validated by both, fatal and warning rule ids compared.
// Usage: npm run build && node dist/scripts/compare-official.js [--verbose]
// (SHARED_DIR overrides ../shared; PHIVE_HARNESS the harness jar.)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { RULE_SETS, type RuleSet } from '../src/domain/validation/index.js';
import { validateUbl } from '../src/infrastructure/xml/ublText.js';
import { listTestSets, parseTestSet, repoRoot, sharedDir } from '../test/domain/validation/conformance/corpus.js';

interface Doc {
  name: string;
  file: string;
}

interface Answer {
  name: string;
  file: string;
  asserts?: { id: string; flag: string }[];
  failure?: string;
}

function collectDocs(tmp: string): Doc[] {
  const conformance = path.join(sharedDir(), 'conformance');
  const unitDir = path.join(conformance, 'unit');
  const docs: Doc[] = [];
  for (const rel of listTestSets(unitDir)) {
    if (!rel.startsWith('en16931-')) continue;
    const set = parseTestSet(unitDir, rel);
    if (set.configuration !== 'tc434-ubl') continue;
    for (const t of set.tests) {
      const file = path.join(tmp, `${rel.replace(/[/.]/g, '_')}-${t.index}.xml`);
      fs.writeFileSync(file, t.document);
      docs.push({ name: `${rel}#${t.index}`, file });
    }
  }
  const examples = path.join(conformance, 'examples');
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.xml')) {
        const head = fs.readFileSync(p, 'utf8').slice(0, 4000);
        if (/<([\w.-]+:)?(Invoice|CreditNote)[\s>]/.test(head))
          docs.push({ name: path.relative(examples, p), file: p });
      }
    }
  };
  walk(examples);
  return docs;
}

async function main(): Promise<void> {
  const verbose = process.argv.includes('--verbose');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cen-compare-'));
  const docs = collectDocs(tmp);
  const jar = process.env.PHIVE_HARNESS ?? path.join(repoRoot(), 'test/interop/phive/target/phive-harness.jar');
  const args = ['-jar', jar];
  for (const set of RULE_SETS)
    args.push('--xslt', `${set.release}=external/schematron/openpeppol/${set.release}/xslt/CEN-EN16931-UBL.xslt`);
  const java = spawn('java', args, { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = readline.createInterface({ input: java.stdout });
  const pending: ((a: Answer) => void)[] = [];
  let ready!: () => void;
  const isReady = new Promise<void>((r) => (ready = r));
  lines.on('line', (l) => {
    let msg: Answer & { ready?: boolean };
    try {
      msg = JSON.parse(l) as Answer & { ready?: boolean };
    } catch {
      // The harness writes a broken line when the XSLT stops on a dynamic error: count it as a failure.
      msg = { name: '', file: '', failure: l };
    }
    if (msg.ready) ready();
    else pending.shift()?.(msg);
  });
  await isReady;
  const ask = (name: string, file: string) =>
    new Promise<Answer>((resolve) => {
      pending.push(resolve);
      java.stdin.write(`${name} ${file}\n`);
    });

  for (const set of RULE_SETS) {
    let same = 0;
    let sameFatal = 0;
    const byRule = new Map<string, number>();
    for (const doc of docs) {
      const off = await ask(set.release, doc.file);
      if (off.failure) {
        if (verbose) console.log(`${set.id} ${doc.name}: official failure ${off.failure}`);
        continue;
      }
      const offIds = (flag: string) =>
        [...new Set((off.asserts ?? []).filter((a) => a.flag === flag).map((a) => a.id))].sort();
      let ours: { rule_id: string; flag: string }[];
      try {
        ours = validateUbl(fs.readFileSync(doc.file), { layers: ['cen'], ruleSet: set as RuleSet });
      } catch (e) {
        console.log(`${set.id} ${doc.name}: ours threw ${(e as Error).message}`);
        continue;
      }
      const ourIds = (flag: string) => [...new Set(ours.filter((a) => a.flag === flag).map((a) => a.rule_id))].sort();
      const diff = (flag: string) => {
        const o = offIds(flag);
        const u = ourIds(flag);
        return [
          ...o.filter((x) => !u.includes(x)).map((x) => `-${x}`),
          ...u.filter((x) => !o.includes(x)).map((x) => `+${x}`),
        ];
      };
      const df = diff('fatal');
      const dw = diff('warning');
      if (df.length === 0) sameFatal++;
      if (df.length === 0 && dw.length === 0) same++;
      for (const d of [...df, ...dw.map((x) => `${x}(w)`)]) byRule.set(d, (byRule.get(d) ?? 0) + 1);
      if ((df.length > 0 || dw.length > 0) && verbose)
        console.log(`${set.id} ${doc.name}: fatal ${df.join(' ') || '='} warning ${dw.join(' ') || '='}`);
    }
    console.log(`${set.id}: ${docs.length} documents, whole fatal set equal ${sameFatal}, fatal+warning equal ${same}`);
    console.log('  (-X: official only, +X: ours only)');
    for (const [d, n] of [...byRule].sort((a, b) => b[1] - a[1])) console.log(`  ${d}: ${n}`);
  }
  java.stdin.end();
  fs.rmSync(tmp, { recursive: true, force: true });
}

await main();
