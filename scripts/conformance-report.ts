/**
 * Runs the conformance runner (official unit tests and examples, per rule set, against the official
 * XSLT of each release) and the differential suite, and prints the conformance table of docs/internals/conformance.md: per
 * release, the unit tests on the rule under test and on the whole set of fatal rule ids, the example
 * documents, and the differential agreement. `npm run conformance:report` (builds first); needs the
 * shared corpus (../shared or SHARED_DIR) and the phive harness (bash .ci/build-phive). The suites'
 * own failures do not stop the table; the exit code is theirs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { repoRoot } from '../test/support/repoRoot.js';

interface Stat {
  ruleSet: string;
  check: string;
  group: string;
  passed: number;
  total: number;
}
interface ReleaseSummary {
  ruleSet: string;
  release: string;
  documents: number;
  agreed: number;
  agreement: number;
  officialFailures: number;
  byRule: Record<string, { oursOnly: number; officialOnly: number }>;
}

/** The compiled tree this runs from (a build generation, or a developer's dist/). */
const compiled = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'conformance-report-'));
const conformanceJson = path.join(tmp, 'conformance.json');
const differentialJson = path.join(tmp, 'differential.json');

const run = spawnSync(
  process.execPath,
  [
    path.join(repoRoot, 'node_modules', 'mocha', 'bin', 'mocha.js'),
    '--no-config',
    '--require',
    path.join(compiled, 'test', 'setup.js'),
    '--timeout',
    '600000',
    '--exit',
    '--reporter',
    'dot',
    path.join(compiled, 'test', 'domain', 'validation', 'conformance.test.js'),
    path.join(compiled, 'test', 'differential', 'differential.test.js'),
  ],
  {
    stdio: ['ignore', process.env.VERBOSE ? 'inherit' : 'ignore', 'inherit'],
    env: { ...process.env, CONFORMANCE_REPORT: conformanceJson, DIFFERENTIAL_REPORT: differentialJson },
  },
);

const read = <T>(file: string): T | null =>
  fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as T) : null;
const conformance = read<{ stats: Stat[] }>(conformanceJson);
const differential = read<{ seed: number; count: number; releases: ReleaseSummary[] }>(differentialJson);
fs.rmSync(tmp, { recursive: true, force: true });

if (!conformance) {
  console.error('conformance:report: the conformance runner wrote no report (is the shared corpus there?)');
  process.exit(1);
}

const sum = (ruleSet: string, check: string) => {
  const rows = conformance.stats.filter((s) => s.ruleSet === ruleSet && s.check === check);
  if (rows.length === 0) return '–';
  const passed = rows.reduce((a, r) => a + r.passed, 0);
  const total = rows.reduce((a, r) => a + r.total, 0);
  return `${passed}/${total}`;
};
const ruleSets = [...new Set(conformance.stats.map((s) => s.ruleSet))].sort();

console.log(
  '| Rule set | Official artefacts | Unit tests, rule under test | Unit tests, whole set of fatal ids | Examples, whole sets | Differential agreement |',
);
console.log('|---|---|---|---|---|---|');
for (const id of ruleSets) {
  const d = differential?.releases.find((r) => r.ruleSet === id);
  const agreement = d
    ? `${(100 * d.agreement).toFixed(2)} % (${d.agreed}/${d.documents}; official XSLT stopped on ${d.officialFailures})`
    : '–';
  console.log(
    `| ${id} | ${d?.release ?? '?'} | ${sum(id, 'rule under test')} | ${sum(id, 'whole set')} | ${sum(id, 'examples')} | ${agreement} |`,
  );
}
if (differential) console.log(`\nDifferential corpus: ${differential.count} documents, seed ${differential.seed}.`);
process.exit(run.status ?? 1);
