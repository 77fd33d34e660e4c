/**
 * Whether the committed Stryker results (scripts/mutation/stryker-incremental.json) still describe
 * the code: every mutated module's source, and every compiled test file of the suites the modules
 * name, is byte for byte what the results were recorded against, and no test file was added or
 * removed. Then a run would reuse every result and only repeat the dry run (minutes on two cores),
 * so `.ci/mutation` writes the report from the committed results instead of running Stryker.
 * Needs the build (`dist/`). Exit 0 and prints `unchanged`, or exit 1 and names what changed.
 */
import fs from 'node:fs';
import path from 'node:path';

interface Incremental {
  files: Record<string, { source: string }>;
  testFiles: Record<string, { source?: string }>;
}
const INCREMENTAL = 'scripts/mutation/stryker-incremental.json';
const { modules, suites } = JSON.parse(fs.readFileSync('scripts/mutation/modules.json', 'utf8')) as {
  modules: Array<{ file: string; suites: string[] }>;
  suites: Record<string, string[]>;
};

/** The suites' globs are `dir/…/*.test.js` with `*` and `**` only: a regular expression each. */
const matcher = (glob: string): RegExp =>
  new RegExp(
    '^' +
      glob
        .split(/(\*\*\/|\*)/)
        .map((part) =>
          part === '**/' ? '(?:.*/)?' : part === '*' ? '[^/]*' : part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'),
        )
        .join('') +
      '$',
  );

const filesUnder = (dir: string): string[] =>
  fs.existsSync(dir)
    ? fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
        const full = path.posix.join(dir, entry.name);
        return entry.isDirectory() ? filesUnder(full) : [full];
      })
    : [];

function changes(): string[] {
  if (!fs.existsSync(INCREMENTAL)) return [`${INCREMENTAL} is missing`];
  const recorded = JSON.parse(fs.readFileSync(INCREMENTAL, 'utf8')) as Incremental;
  const changed: string[] = [];
  for (const { file } of modules) {
    if (!recorded.files[file]) changed.push(`${file}: not in the recorded results`);
    else if (!fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== recorded.files[file].source)
      changed.push(`${file}: changed`);
  }
  const globs = [...new Set(modules.flatMap((m) => m.suites.flatMap((s) => suites[s] ?? [])))].map(matcher);
  const testFiles = filesUnder('dist/test').filter((f) => globs.some((g) => g.test(f)));
  for (const file of testFiles) {
    const was = recorded.testFiles[file];
    if (!was) changed.push(`${file}: a test file the results do not know`);
    else if (was.source === undefined || fs.readFileSync(file, 'utf8') !== was.source) changed.push(`${file}: changed`);
  }
  const current = new Set(testFiles);
  for (const file of Object.keys(recorded.testFiles))
    if (!current.has(file)) changed.push(`${file}: in the results, no longer a test file`);
  return changed;
}

const found = changes();
if (found.length === 0) console.log('unchanged');
else {
  for (const line of found) console.log(line);
  process.exitCode = 1;
}
