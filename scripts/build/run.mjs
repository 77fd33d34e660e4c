// The npm scripts' entry (package.json): makes sure the build is current (generations.mjs), then
// runs a compiled file of it in this process, so that it and everything it loads, spawns or
// serves come from that one generation.
//
//   node scripts/build/run.mjs build [--force]           build if stale (always with --force); print the generation
//   node scripts/build/run.mjs node <file> [args...]     run <file> of the build (e.g. src/main.js)
//   node scripts/build/run.mjs mocha [--only <glob>] [mocha args...]
//                                                        mocha with .mocharc.json's settings, its dist/ paths
//                                                        read in the build; --only replaces its spec
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, ensureBuild } from './generations.mjs';

const [mode, ...rest] = process.argv.slice(2);

/** Runs a module as if node had been started on it. */
async function runModule(file, args) {
  process.argv = [process.argv[0], file, ...args];
  await import(pathToFileURL(file).href);
}

/** .mocharc.json as command-line options, its dist/ paths (the developer's tsc output) read in `dir`. */
function mochaOptions(dir, only) {
  const inBuild = (value) => (typeof value === 'string' && value.startsWith('dist/') ? path.join(dir, value.slice(5)) : value);
  const config = JSON.parse(fs.readFileSync(path.join(ROOT, '.mocharc.json'), 'utf8'));
  if (only) config.spec = [path.join('dist', only)];
  const args = ['--no-config', '--no-package'];
  for (const [key, value] of Object.entries(config)) {
    const values = Array.isArray(value) ? value : [value];
    if (key === 'spec') args.push(...values.map(inBuild));
    else if (value === true) args.push(`--${key}`);
    else if (value === false) args.push(`--no-${key}`);
    else for (const one of values) args.push(`--${key}`, String(inBuild(one)));
  }
  return args;
}

async function main() {
  switch (mode) {
    case 'build': {
      const { id } = await ensureBuild({ force: rest.includes('--force') });
      process.stdout.write(`build/${id}\n`);
      return;
    }
    case 'node': {
      const [file, ...args] = rest;
      if (!file) throw new Error('usage: run.mjs node <file in the build> [args...]');
      const { dir } = await ensureBuild();
      return runModule(path.join(fs.realpathSync(dir), file), args);
    }
    case 'mocha': {
      const only = rest[0] === '--only' ? rest[1] : undefined;
      const args = only ? rest.slice(2) : rest;
      const { dir } = await ensureBuild();
      const mocha = path.join(ROOT, 'node_modules', 'mocha', 'bin', 'mocha.js');
      return runModule(mocha, [...mochaOptions(fs.realpathSync(dir), only), ...args]);
    }
    default:
      throw new Error(`usage: run.mjs build|node|mocha … (got ${mode ?? 'nothing'})`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
