// Whole-set comparison of our Peppol layer with the official PEPPOL-EN16931-UBL.xslt of each release.
// Every embedded document of the shared Peppol unit tests (configuration peppolbis-en16931-base-3.0-ubl:
// the Peppol layer alone) and every Peppol example goes through our rules
// (validateUbl(xml, { layers: ['peppol'], ruleSet })) and through the official XSLT (the phive
// harness, test/interop/phive); the sets of fatal and of warning rule ids are compared per document.
//
//   node dist/scripts/peppol-compare.js [--release 2025.5|2026.5] [--verbose]
//
// Prints one line per disagreement and a summary per release. The official files are read at run
// time from the phive-rules-peppol jar on the harness's class path; nothing of them is kept here.
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
  asserts?: { id: string; flag: string; location: string }[];
  failure?: string;
}

function harnessJar(): string {
  const local = path.join(repoRoot(), 'test/interop/phive/target/phive-harness.jar');
  if (fs.existsSync(local)) return local;
  const main = path.resolve(repoRoot(), '..', 'main/test/interop/phive/target/phive-harness.jar');
  if (fs.existsSync(main)) return main;
  throw new Error('phive-harness.jar not built (.ci/build-phive)');
}

/** The documents: unit-test documents of the Peppol layer, and the Peppol examples. */
function corpus(tmp: string): Doc[] {
  const docs: Doc[] = [];
  const unitDir = path.join(sharedDir(), 'conformance/unit');
  for (const rel of listTestSets(unitDir)) {
    if (!rel.startsWith('peppol-bis-3.0.19/')) continue;
    const set = parseTestSet(unitDir, rel);
    if (set.configuration !== 'peppolbis-en16931-base-3.0-ubl') continue;
    for (const t of set.tests) {
      const file = path.join(tmp, `${rel.replace(/[/\\]/g, '_')}#${t.index}.xml`);
      fs.writeFileSync(file, t.document);
      docs.push({ name: `${rel}#${t.index}`, file });
    }
  }
  const examples = path.join(sharedDir(), 'conformance/examples/peppol-bis-3.0.19');
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.xml')) {
        const text = fs.readFileSync(p, 'utf8');
        if (/<([\w.-]+:)?(Invoice|CreditNote)[\s>]/.test(text))
          docs.push({ name: path.relative(examples, p), file: p });
      }
    }
  };
  if (fs.existsSync(examples)) walk(examples);
  for (const extra of process.env.PEPPOL_COMPARE_EXTRA?.split(',').filter(Boolean) ?? [])
    docs.push({ name: path.basename(extra), file: path.resolve(extra) });
  return docs;
}

async function official(release: string, docs: Doc[]): Promise<Map<string, Answer>> {
  const resource = `external/schematron/openpeppol/${release}/xslt/PEPPOL-EN16931-UBL.xslt`;
  const java = spawn('java', ['-jar', harnessJar(), '--xslt', `peppol=${resource}`], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = readline.createInterface({ input: java.stdout });
  const answers = new Map<string, Answer>();
  const done = new Promise<void>((resolve, reject) => {
    let ready = false;
    lines.on('line', (line) => {
      const msg = JSON.parse(line) as Answer & { ready?: boolean };
      if (!ready) {
        if (!msg.ready) return reject(new Error(`harness: ${line}`));
        ready = true;
        for (const d of docs) java.stdin.write(`peppol ${d.file}\n`);
        java.stdin.end();
        return;
      }
      answers.set(msg.file, msg);
    });
    java.on('exit', () => resolve());
    java.on('error', reject);
  });
  await done;
  return answers;
}

const idsOf = (flag: string, list: { id: string; flag: string }[]) =>
  [...new Set(list.filter((a) => a.flag === flag).map((a) => a.id))].sort();

function diff(ours: string[], theirs: string[]): string {
  const extra = ours.filter((x) => !theirs.includes(x));
  const missing = theirs.filter((x) => !ours.includes(x));
  return [...extra.map((x) => `+${x}`), ...missing.map((x) => `-${x}`)].join(' ');
}

async function compare(set: RuleSet, docs: Doc[], verbose: boolean): Promise<number> {
  const answers = await official(set.release, docs);
  let fatalAgree = 0;
  let warningAgree = 0;
  let failures = 0;
  for (const d of docs) {
    const a = answers.get(d.file);
    if (!a || a.failure !== undefined || !a.asserts) {
      failures++;
      console.log(`${set.peppol} ${d.name}: official failure ${a?.failure ?? 'no answer'}`);
      continue;
    }
    let ours: { id: string; flag: string }[];
    try {
      ours = validateUbl(fs.readFileSync(d.file), { layers: ['peppol'], ruleSet: set }).map((i) => ({
        id: i.rule_id,
        flag: i.flag,
      }));
    } catch (error) {
      console.log(`${set.peppol} ${d.name}: ours refused: ${(error as Error).message}`);
      failures++;
      continue;
    }
    const f = diff(idsOf('fatal', ours), idsOf('fatal', a.asserts));
    const w = diff(idsOf('warning', ours), idsOf('warning', a.asserts));
    if (f === '') fatalAgree++;
    if (w === '') warningAgree++;
    if (f !== '' || w !== '' || verbose)
      console.log(`${set.peppol} ${d.name}: fatal[${f}] warning[${w}] (+ ours only, - official only)`);
  }
  const n = docs.length;
  console.log(
    `${set.id} (${set.release}): ${n} documents; fatal sets agree ${fatalAgree}/${n}, warning sets agree ${warningAgree}/${n}, not compared ${failures}`,
  );
  return n - fatalAgree + (n - warningAgree);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const release = args.includes('--release') ? args[args.indexOf('--release') + 1] : undefined;
  const verbose = args.includes('--verbose');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'peppol-compare-'));
  try {
    const docs = corpus(tmp);
    let disagreements = 0;
    for (const set of RULE_SETS)
      if (!release || set.release === release) disagreements += await compare(set, docs, verbose);
    process.exitCode = disagreements === 0 ? 0 : 1;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
