// Mutation testing of the money, rules and lifecycle code: `npm run mutation` (see README, "Tests").
import path from 'node:path';

// The sandbox is a copy of the repository under .stryker-tmp, so `../shared` (the conformance
// corpus, next to the repository) is not next to it: name it for the test processes.
process.env.SHARED_DIR ??= path.resolve('..', 'shared');

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: [
    'src/domain/document/invoice/documentTotals.ts',
    'src/domain/validation/rules/cen/calculations.ts',
    'src/domain/document/lifecycle/documentAggregate.ts',
    'src/domain/retrySchedule.ts',
  ],
  plugins: ['./scripts/mutation/mocha12Runner.mjs'],
  testRunner: 'mocha',
  // The domain's unit and spec suites (no database, no HTTP): they run in seconds.
  mochaOptions: { config: 'scripts/mutation/mocharc.json' },
  // Mutants are placed in the TypeScript sources and compiled in the sandbox with our own tsc.
  buildCommand: 'npx tsc -p tsconfig.json',
  // Stryker rewrites the named tsconfig through TypeScript's JS API, which TypeScript 7 no longer
  // has; our tsconfig has no `extends` or `references` to rewrite, so name none.
  tsconfigFile: 'no-tsconfig-to-rewrite.json',
  // Not copied into the sandbox: build output, reports, the data directory, CI binaries.
  ignorePatterns: ['dist', 'build', 'test-output', 'reports', 'docs', '.ci', 'var'],
  coverageAnalysis: 'perTest',
  concurrency: 2,
  reporters: ['clear-text', 'progress', 'json', 'html'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
