// Mutation testing (`npm run mutation`, docs/mutation.md): the modules of scripts/mutation/modules.json,
// each against the test suites it names there.
import fs from 'node:fs';
import path from 'node:path';

// The sandbox is a copy of the repository under .stryker-tmp, so `../shared` (the conformance
// corpus, next to the repository) is not next to it: name it for the test processes.
process.env.SHARED_DIR ??= path.resolve('..', 'shared');

const { suites, modules } = JSON.parse(fs.readFileSync('scripts/mutation/modules.json', 'utf8'));
// MUTATE=file,file narrows a local run to some of the modules; its results go to a file of its own
// under reports/ (the committed one holds every module's, and a run keeps only what it mutated).
const only = process.env.MUTATE ? process.env.MUTATE.split(',') : null;
const chosen = modules.filter((m) => !only || only.includes(m.file));
const spec = [...new Set(chosen.flatMap((m) => m.suites.flatMap((s) => suites[s])))];

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: chosen.map((m) => m.file),
  plugins: ['./scripts/mutation/mocha12Runner.mjs'],
  testRunner: 'mocha',
  // The suites the modules name (unit and spec suites: no database, no HTTP server). The config
  // file has no spec of its own, so the repository's .mocharc.json (every suite) is not read.
  mochaOptions: { config: 'scripts/mutation/mocharc.json', spec },
  // Mutants are placed in the TypeScript sources and compiled in the sandbox with our own tsc.
  buildCommand: 'npx tsc -p tsconfig.json',
  // Stryker rewrites the named tsconfig through TypeScript's JS API, which TypeScript 7 no longer
  // has; our tsconfig has no `extends` or `references` to rewrite, so name none.
  tsconfigFile: 'no-tsconfig-to-rewrite.json',
  // Not copied into the sandbox: build generations, test output, reports, docs, the data directory,
  // CI binaries, the Java harnesses' builds (70 MB no suite here runs), the console. `dist` is: its
  // compiled test files are what Stryker records and compares to see which tests changed since the
  // committed results (the sandbox builds its own afterwards).
  ignorePatterns: ['build', 'test-output', 'reports', 'docs', '.ci', 'var', 'test/interop/*/target', 'web'],
  coverageAnalysis: 'perTest',
  // Static mutants (module-level code, run once at import) cannot be narrowed to the tests that
  // cover them: each runs every suite of the job again (505 of 4,083 mutants took three quarters
  // of the run, about 9 hours on two cores). They are left out and counted as ignored.
  ignoreStatic: true,
  // A mutant that makes a test loop is stopped after its tests' dry-run time × 1.5 + this; a
  // loaded two-core machine needs more than the default 5 s not to count slow tests as timeouts.
  timeoutMS: 15_000,
  // The dry run (every suite once, with coverage) takes minutes on a loaded machine, not the default 5.
  dryRunTimeoutMinutes: 30,
  // Only mutants whose code or covering tests changed since the committed results are run again
  // (the results of the others are taken from the file): what keeps the CI job short.
  incremental: true,
  incrementalFile: only ? 'reports/mutation/incremental-partial.json' : 'scripts/mutation/stryker-incremental.json',
  concurrency: 2,
  reporters: ['clear-text', 'progress', 'json', 'html'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
