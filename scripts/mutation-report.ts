/**
 * Reads StrykerJS's JSON report (reports/mutation/mutation.json), writes docs/mutation.md (the
 * scores per module and every mutant that was not killed, each with why it may live), and exits
 * non-zero when a module scores below its threshold or a surviving mutant has no explanation.
 * Run by `npm run mutation` after `stryker run`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { EQUIVALENT_MUTANTS, THRESHOLDS, type ExplainedMutant } from './mutation/equivalentMutants.js';

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

const reportFile = process.argv[2] ?? 'reports/mutation/mutation.json';
const outFile = process.argv[3] ?? 'docs/mutation.md';
const report = JSON.parse(fs.readFileSync(reportFile, 'utf8')) as Report;

/** The source text a mutant replaced (columns are 1-based, the end exclusive). */
const originalOf = (source: string, { start, end }: Mutant['location']): string => {
  const lines = source.split('\n');
  if (start.line === end.line) return lines[start.line - 1]!.slice(start.column - 1, end.column - 1);
  const first = lines[start.line - 1]!.slice(start.column - 1);
  const last = lines[end.line - 1]!.slice(0, end.column - 1);
  return [first, ...lines.slice(start.line, end.line - 1), last].join('\n');
};

const oneLine = (s: string, max = 110): string => {
  const flat = s.replace(/\s+/g, ' ').trim();
  return flat.length > max ? flat.slice(0, max - 1) + '…' : flat;
};

/** An explanation applies when file, mutator and replacement match and the original contains its snippet. */
const explanationOf = (file: string, m: Mutant, original: string): ExplainedMutant | undefined =>
  EQUIVALENT_MUTANTS.find(
    (e) =>
      e.file === file &&
      e.mutator === m.mutatorName &&
      (e.replacement === undefined || e.replacement === m.replacement) &&
      oneLine(original, 10_000).includes(e.original),
  );

interface ModuleResult {
  file: string;
  counts: Record<Mutant['status'], number>;
  score: number;
  threshold: number;
  open: { m: Mutant; original: string; why: ExplainedMutant | undefined }[];
  ignored: Mutant[];
}

const results: ModuleResult[] = Object.entries(report.files)
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([file, { source, mutants }]) => {
    const counts = {
      Killed: 0,
      Survived: 0,
      NoCoverage: 0,
      Timeout: 0,
      CompileError: 0,
      RuntimeError: 0,
      Ignored: 0,
      Pending: 0,
    };
    for (const m of mutants) counts[m.status] += 1;
    // Stryker's mutation score: detected / valid mutants (compile and runtime errors and ignored ones are not valid).
    const detected = counts.Killed + counts.Timeout;
    const valid = detected + counts.Survived + counts.NoCoverage;
    const open = mutants
      .filter((m) => m.status === 'Survived' || m.status === 'NoCoverage')
      .sort(
        (a, b) => a.location.start.line - b.location.start.line || a.location.start.column - b.location.start.column,
      )
      .map((m) => {
        const original = originalOf(source, m.location);
        return { m, original, why: explanationOf(file, m, original) };
      });
    return {
      file,
      counts,
      score: valid === 0 ? 100 : (100 * detected) / valid,
      threshold: THRESHOLDS[file] ?? 0,
      open,
      ignored: mutants.filter((m) => m.status === 'Ignored'),
    };
  });

const commit = (() => {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
})();

const md: string[] = [
  '# Mutation testing report',
  '',
  `Written by \`npm run mutation\` (StrykerJS, configuration in \`stryker.config.mjs\`) on ${new Date().toISOString().slice(0, 10)} at commit \`${commit}\`.`,
  'A mutant is a small deliberate bug placed in the code; the suites kill it when a test fails. The score is killed (or timed out) over all',
  "mutants that compiled; the run fails below a module's threshold, or when a mutant survives that is not explained in",
  '`scripts/mutation/equivalentMutants.ts`. The full interactive report is `reports/mutation/mutation.html` after a run (not committed).',
  '',
  '| module | mutants | killed | timeout | survived | no coverage | ignored | score | threshold |',
  '|---|---|---|---|---|---|---|---|---|',
  ...results.map(
    (r) =>
      `| \`${r.file}\` | ${r.counts.Killed + r.counts.Timeout + r.counts.Survived + r.counts.NoCoverage} | ${r.counts.Killed} | ${r.counts.Timeout} | ${r.counts.Survived} | ${r.counts.NoCoverage} | ${r.counts.Ignored} | ${r.score.toFixed(1)} % | ${r.threshold} % |`,
  ),
  '',
];
for (const r of results) {
  if (r.open.length === 0 && r.ignored.length === 0) continue;
  md.push(`## \`${r.file}\``, '');
  if (r.open.length > 0) {
    md.push('Mutants left alive, and why each is equivalent (no behaviour changes) or harmless:', '');
    for (const { m, original, why } of r.open) {
      md.push(
        `- line ${m.location.start.line}, ${m.mutatorName} (${m.status}): \`${oneLine(original)}\` → \`${oneLine(m.replacement ?? '')}\`  `,
        `  ${why ? why.reason : '**not explained**'}`,
      );
    }
    md.push('');
  }
  if (r.ignored.length > 0) {
    const reasons = new Map<string, number>();
    for (const m of r.ignored)
      reasons.set(m.statusReason ?? 'ignored', (reasons.get(m.statusReason ?? 'ignored') ?? 0) + 1);
    md.push('Mutants excluded by configuration (a `// Stryker disable` comment in the source, with its reason):', '');
    for (const [reason, n] of reasons) md.push(`- ${n} × ${reason}`);
    md.push('');
  }
}
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
  for (const { m, original } of unexplained)
    console.log(
      `       line ${m.location.start.line} ${m.mutatorName}: ${oneLine(original, 80)} -> ${oneLine(m.replacement ?? '', 60)}`,
    );
}
// An explanation no surviving mutant matches is stale (the code changed, or a test kills it now).
const used = new Set(results.flatMap((r) => r.open.map((o) => o.why)));
for (const e of EQUIVALENT_MUTANTS) {
  if (report.files[e.file] && !used.has(e))
    console.log(
      `note ${e.file}: the explanation of ${e.mutator} \`${e.original}\` matched no surviving mutant; remove it`,
    );
}
for (const file of Object.keys(THRESHOLDS)) {
  if (!report.files[file]) {
    failed = true;
    console.log(`FAIL ${file}: not in the report`);
  }
}
console.log(`written: ${outFile}`);
process.exitCode = failed ? 1 : 0;
