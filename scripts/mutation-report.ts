/**
 * Reads StrykerJS's JSON report (reports/mutation/mutation.json), writes docs/mutation.md (the
 * scores per module and every mutant that was not killed, each with why it may live), and exits
 * non-zero when a module scores below its threshold (scripts/mutation/modules.json), a surviving
 * mutant has no explanation (scripts/mutation/equivalentMutants.ts), an explanation matches no
 * surviving mutant any more, or a module is missing from the report.
 * Run by `npm run mutation` after `stryker run`; `.ci/mutation` runs both and checks that the
 * committed docs/mutation.md is what the run wrote.
 */
import fs from 'node:fs';
import path from 'node:path';
import { EQUIVALENT_MUTANTS, type ExplainedMutant } from './mutation/equivalentMutants.js';

interface Position {
  line: number;
  column: number;
}
interface Mutant {
  id: string;
  mutatorName: string;
  replacement?: string;
  status: 'Killed' | 'Survived' | 'NoCoverage' | 'Timeout' | 'CompileError' | 'RuntimeError' | 'Ignored' | 'Pending';
  statusReason?: string;
  location: { start: Position; end: Position };
}
interface Report {
  files: Record<string, { source: string; mutants: Mutant[] }>;
}
interface MutatedModule {
  file: string;
  threshold: number;
  suites: string[];
}

const reportFile = process.argv[2] ?? 'reports/mutation/mutation.json';
const outFile = process.argv[3] ?? 'docs/mutation.md';
const report = JSON.parse(fs.readFileSync(reportFile, 'utf8')) as Report;
const { modules, suites } = JSON.parse(fs.readFileSync('scripts/mutation/modules.json', 'utf8')) as {
  modules: MutatedModule[];
  suites: Record<string, string[]>;
};
const thresholdOf = new Map(modules.map((m) => [m.file, m.threshold]));
/** A local run of some modules (MUTATE=…) is checked for those only. */
const expected = process.env.MUTATE ? process.env.MUTATE.split(',') : modules.map((m) => m.file);

/** The source text a mutant replaced (columns are 1-based, the end exclusive). */
const originalOf = (source: string, { start, end }: Mutant['location']): string => {
  const lines = source.split('\n');
  if (start.line === end.line) return lines[start.line - 1]!.slice(start.column - 1, end.column - 1);
  const first = lines[start.line - 1]!.slice(start.column - 1);
  const last = lines[end.line - 1]!.slice(0, end.column - 1);
  return [first, ...lines.slice(start.line, end.line - 1), last].join('\n');
};

const collapse = (s: string): string => s.replace(/\s+/g, ' ').trim();
const shorten = (s: string, max = 110): string => {
  const flat = collapse(s);
  return flat.length > max ? flat.slice(0, max - 1) + '…' : flat;
};
const at = (m: Mutant) => `${m.location.start.line}:${m.location.start.column}`;

/** The explanation of exactly this mutant: its file, position, mutator, original text and replacement. */
const sameMutant = (e: ExplainedMutant, file: string, m: Mutant, original: string, position = at(m)): boolean =>
  e.file === file &&
  e.at === position &&
  e.mutator === m.mutatorName &&
  e.original === collapse(original) &&
  e.replacement === collapse(m.replacement ?? '');

interface ModuleResult {
  file: string;
  detected: number;
  survived: number;
  noCoverage: number;
  ignored: Mutant[];
  score: number;
  threshold: number;
  open: { m: Mutant; original: string; why: ExplainedMutant | undefined }[];
}

const results: ModuleResult[] = Object.entries(report.files)
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([file, { source, mutants }]) => {
    const count = (...statuses: Mutant['status'][]) => mutants.filter((m) => statuses.includes(m.status)).length;
    // Stryker's mutation score: detected (killed or timed out) over valid mutants (compile and
    // runtime errors and ignored ones are not valid).
    const detected = count('Killed', 'Timeout');
    const valid = detected + count('Survived', 'NoCoverage');
    const open = mutants
      .filter((m) => m.status === 'Survived' || m.status === 'NoCoverage')
      .sort(
        (a, b) => a.location.start.line - b.location.start.line || a.location.start.column - b.location.start.column,
      )
      .map((m) => {
        const original = originalOf(source, m.location);
        return { m, original, why: EQUIVALENT_MUTANTS.find((e) => sameMutant(e, file, m, original)) };
      });
    return {
      file,
      detected,
      survived: count('Survived'),
      noCoverage: count('NoCoverage'),
      ignored: mutants.filter((m) => m.status === 'Ignored'),
      score: valid === 0 ? 100 : (100 * detected) / valid,
      threshold: thresholdOf.get(file) ?? 0,
      open,
    };
  });

const suiteList = (file: string) =>
  (modules.find((m) => m.file === file)?.suites ?? []).flatMap((s) => suites[s] ?? []).join(', ');

// The report says nothing that changes from run to run (no date, no commit, no timings): the same
// code and tests give the same file, which CI compares with the committed one.
const md: string[] = [
  '# Mutation testing report',
  '',
  'Written by `npm run mutation` (StrykerJS, all mutators; configuration in `stryker.config.mjs`, modules and their',
  'suites in `scripts/mutation/modules.json`). A mutant is a small deliberate bug placed in the code; the suites kill it',
  'when a test fails. The score is killed (or timed out) over all mutants that compiled; the run fails below a',
  "module's threshold, or when a mutant survives that `scripts/mutation/equivalentMutants.ts` does not explain, or an",
  'explanation no longer matches a surviving mutant. CI (`.ci/mutation`) runs it on every change, reusing the committed',
  'results of the mutants whose code and tests did not change, and fails when this file is not what the run writes.',
  'The interactive report is `reports/mutation/mutation.html` after a run (not committed). How to add a module, and',
  'what the incremental run does not see: [Mutation testing](#mutation-testing-how-it-runs) below.',
  '',
  '| module | mutants | detected | survived | no coverage | ignored | score | threshold |',
  '|---|---|---|---|---|---|---|---|',
  ...results.map(
    (r) =>
      `| \`${r.file}\` | ${r.detected + r.survived + r.noCoverage} | ${r.detected} | ${r.survived} | ${r.noCoverage} | ${r.ignored.length} | ${r.score.toFixed(1)} % | ${r.threshold} % |`,
  ),
  '',
];
for (const r of results) {
  md.push(`## \`${r.file}\``, '', `Suites: ${suiteList(r.file)}.`, '');
  if (r.open.length > 0) {
    md.push('Mutants left alive, and why each is equivalent (no behaviour changes) or harmless:', '');
    for (const { m, original, why } of r.open) {
      md.push(
        `- ${at(m)} ${m.mutatorName} (${m.status === 'NoCoverage' ? 'no coverage' : 'survived'}): \`${shorten(original)}\` → \`${shorten(m.replacement ?? '')}\`  `,
        `  ${why ? why.reason : '**not explained**'}`,
      );
    }
    md.push('');
  }
  if (r.ignored.length > 0) {
    const reasons = new Map<string, number>();
    for (const m of r.ignored)
      reasons.set(m.statusReason ?? 'ignored', (reasons.get(m.statusReason ?? 'ignored') ?? 0) + 1);
    md.push(
      'Mutants excluded, by a `// Stryker disable` comment in the source (with its reason) or as static mutants (see below):',
      '',
    );
    for (const [reason, n] of reasons) md.push(`- ${n} × ${reason}`);
    md.push('');
  }
}
md.push(fs.readFileSync(path.join('scripts', 'mutation', 'how-it-runs.md'), 'utf8').trimEnd(), '');
fs.mkdirSync(path.dirname(outFile), { recursive: true });
fs.writeFileSync(outFile, md.join('\n'));

let failed = false;
for (const r of results) {
  const unexplained = r.open.filter((o) => !o.why);
  const ok = r.score >= r.threshold && unexplained.length === 0;
  if (!ok) failed = true;
  console.log(
    `${ok ? 'ok  ' : 'FAIL'} ${r.file}: ${r.score.toFixed(1)} % (threshold ${r.threshold} %), ${r.open.length} alive, ${unexplained.length} not explained`,
  );
  for (const { m, original } of unexplained) {
    console.log(`       ${at(m)} ${m.mutatorName}: ${shorten(original, 80)} -> ${shorten(m.replacement ?? '', 60)}`);
    // The same mutant explained at another position: the code above it moved.
    const moved = EQUIVALENT_MUTANTS.find((e) => sameMutant(e, r.file, m, original, e.at));
    if (moved) console.log(`         explained at ${moved.at}: if the reason still holds, update its position`);
  }
}
// An explanation that matches no surviving mutant is stale: the code changed, or a test kills it now.
const used = new Set(results.flatMap((r) => r.open.map((o) => o.why)));
for (const e of EQUIVALENT_MUTANTS) {
  if (!report.files[e.file] || used.has(e)) continue;
  failed = true;
  console.log(`FAIL ${e.file}: the explanation of ${e.at} ${e.mutator} \`${e.original}\` matches no surviving mutant`);
}
for (const file of expected) {
  if (!report.files[file]) {
    failed = true;
    console.log(`FAIL ${file}: not in the report`);
  }
}
console.log(`written: ${outFile}`);
process.exitCode = failed ? 1 : 0;
