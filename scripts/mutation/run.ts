/**
 * `npm run mutation [-- STRYKER_ARGS]`: StrykerJS (stryker.config.mjs; e.g. `-- --force` tests every
 * mutant again instead of reusing the committed results), then the report and its checks
 * (scripts/mutation-report.ts). The exit status is the report's: non-zero when a check fails.
 */
import { spawnSync } from 'node:child_process';

const run = (command: string, args: string[]): number => {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  if (result.error) throw result.error;
  return result.status ?? 1;
};

const stryker = run('npx', ['stryker', 'run', ...process.argv.slice(2)]);
if (stryker !== 0) process.exit(stryker);
process.exit(run(process.execPath, ['dist/scripts/mutation-report.js']));
