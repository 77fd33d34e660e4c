// Build once, start many: the compiled service lives in generations, build/<id>/, each complete
// and never changed once made; build/current names the newest. A build that is needed is made
// aside (build/.staging-*) and swapped in whole (rename, then an atomic switch of the
// build/current symlink), under a lock so that concurrent commands build it once. A process runs
// from the generation it resolved at its start (Node loads modules by their real path, so
// build/current moving on does not change what it loads, its task workers or its console), and
// says so in build/running/<pid>; an older generation is removed only when no live process holds
// it and it stopped being current more than RETIRED_GRACE_MS ago (the time a process needs
// between resolving build/current and writing its registration is far less). Plain JavaScript:
// it runs before anything is compiled. See docs/operating/production.md.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** The checkout: this file is scripts/build/generations.mjs. */
export const ROOT = path.resolve(import.meta.dirname, '..', '..');
export const BUILDS = path.join(ROOT, 'build');
const CURRENT = path.join(BUILDS, 'current');
const RUNNING = path.join(BUILDS, 'running');
const LOCK = path.join(BUILDS, '.lock');
/** A retired generation is kept at least this long after it stopped being current. */
export const RETIRED_GRACE_MS = 5 * 60_000;
/** A lock directory without an owner for this long was left by a builder that died creating it. */
const OWNERLESS_LOCK_MS = 10_000;
const GENERATION = /^\d{8}T\d{6}Z-[0-9a-f]{12}(-[0-9a-z]+)?$/;

/*
 * What the output depends on, hashed by content: the sources tsc compiles, the console vite
 * bundles, the assets copied alongside, the compiler and bundler settings, and the installed
 * packages (package-lock.json). Test fixtures other than code are read at run time from the
 * checkout, not built, so they are not inputs.
 */
const INPUT_DIRS = ['src', 'test', 'scripts', 'web'];
const INPUT_FILES = ['package.json', 'package-lock.json', 'tsconfig.json'];
const CODE = /\.(ts|tsx|mts|cts|js|mjs|cjs|json|xsd)$/;
const NOT_INPUTS = new Set(['node_modules', 'target']);
/** Files of src that the service reads at run time: copied into the generation beside the compiled code. */
const ASSETS = /\.xsd$/;

function walk(dir, take, found = []) {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    if (error.code === 'ENOENT') return found;
    throw error;
  }
  for (const entry of entries) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!NOT_INPUTS.has(entry.name)) walk(file, take, found);
    } else if (take(file)) found.push(file);
  }
  return found;
}

/** The SHA-256 of every input's path and bytes. */
export function hashInputs(root = ROOT) {
  const files = [
    ...INPUT_FILES.map((name) => path.join(root, name)).filter((file) => fs.existsSync(file)),
    ...INPUT_DIRS.flatMap((dir) =>
      walk(path.join(root, dir), (file) => dir === 'web' || CODE.test(file)),
    ),
  ]
    .map((file) => path.relative(root, file))
    .sort();
  const hash = crypto.createHash('sha256');
  for (const name of files) hash.update(`${name}\0`).update(fs.readFileSync(path.join(root, name))).update('\0');
  return hash.digest('hex');
}

const readJson = (file) => {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
};

/** The current generation's id, or null. */
export function currentId() {
  try {
    return fs.readlinkSync(CURRENT);
  } catch {
    return null;
  }
}

/** The current generation, when it was built from exactly these inputs. */
function upToDate(inputs) {
  const id = currentId();
  return id && readJson(path.join(BUILDS, id, 'BUILD.json'))?.inputs === inputs ? id : null;
}

export function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const say = (message) => process.stderr.write(`build: ${message}\n`);

function lockIsStale() {
  const owner = Number(readText(path.join(LOCK, 'owner')));
  if (owner > 0) return !alive(owner);
  try {
    return Date.now() - fs.statSync(LOCK).mtimeMs > OWNERLESS_LOCK_MS;
  } catch {
    return false;
  }
}

function readText(file) {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return null;
  }
}

/** Moves a directory out of the way (atomically) and deletes it. */
function remove(dir) {
  const aside = path.join(BUILDS, `.trash-${path.basename(dir)}-${crypto.randomBytes(4).toString('hex')}`);
  try {
    fs.renameSync(dir, aside);
  } catch {
    return;
  }
  fs.rmSync(aside, { recursive: true, force: true });
}

/**
 * Runs `work` holding the build lock (a directory: mkdir is atomic). `wait: false` gives up at
 * once when another process holds it. A lock whose owner died is broken; in the rare race where
 * two waiters break it together both may build, each into its own generation, which is wasteful
 * but safe.
 */
async function withLock(work, { wait }) {
  let announced = false;
  fs.mkdirSync(BUILDS, { recursive: true });
  for (;;) {
    try {
      fs.mkdirSync(LOCK);
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      if (lockIsStale()) {
        remove(LOCK);
        continue;
      }
      if (!wait) return undefined;
      if (!announced) say(`waiting for the build under way (pid ${readText(path.join(LOCK, 'owner')) ?? '?'})`);
      announced = true;
      await sleep(250);
      continue;
    }
    fs.writeFileSync(path.join(LOCK, 'owner'), String(process.pid));
    try {
      return await work();
    } finally {
      fs.rmSync(LOCK, { recursive: true, force: true });
    }
  }
}

function runStep(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [command, ...args], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0
        ? resolve()
        : reject(new Error(`${path.relative(ROOT, command)} ${args.join(' ')} failed (${signal ?? `code ${code}`})`)),
    );
  });
}

/** tsc for the service, tests and scripts; tsc (a check) and vite for the console; the assets. */
async function compileInto(out) {
  const bin = (name) => fs.realpathSync(path.join(ROOT, 'node_modules', '.bin', name));
  await runStep(bin('tsc'), ['-p', 'tsconfig.json', '--outDir', out]);
  if (fs.existsSync(path.join(ROOT, 'web/console/vite.config.ts'))) {
    await runStep(bin('tsc'), ['-p', 'web/console/tsconfig.json']);
    const console = path.join(out, 'web', 'console');
    await runStep(bin('vite'), ['build', '--config', 'web/console/vite.config.ts', '--outDir', console, '--emptyOutDir']);
  }
  for (const file of walk(path.join(ROOT, 'src'), (name) => ASSETS.test(name))) {
    const target = path.join(out, path.relative(ROOT, file));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.copyFileSync(file, target);
  }
}

const stamp = () => new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');

/** Builds a new generation aside and makes it current; returns its id. */
async function build(inputs) {
  const started = Date.now();
  const staging = path.join(BUILDS, `.staging-${process.pid}-${crypto.randomBytes(4).toString('hex')}`);
  const abandon = () => fs.rmSync(staging, { recursive: true, force: true });
  const interrupted = (signal) => {
    abandon();
    fs.rmSync(LOCK, { recursive: true, force: true });
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  say(`building ${path.relative(process.cwd(), BUILDS) || BUILDS}/ (sources changed or never built)`);
  try {
    await compileInto(staging);
    fs.writeFileSync(
      path.join(staging, 'BUILD.json'),
      JSON.stringify({ inputs, built_at: new Date().toISOString(), node: process.version }, null, 2) + '\n',
    );
    let id = `${stamp()}-${inputs.slice(0, 12)}`;
    if (fs.existsSync(path.join(BUILDS, id))) id += `-${crypto.randomBytes(3).toString('hex')}`;
    fs.renameSync(staging, path.join(BUILDS, id));
    makeCurrent(id);
    say(`built ${id} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return id;
  } catch (error) {
    abandon();
    throw error;
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
  }
}

/** Points build/current at `id` in one step (a new symlink renamed over the old); the one before is retired. */
function makeCurrent(id) {
  const previous = currentId();
  const link = path.join(BUILDS, `.current-${process.pid}`);
  fs.rmSync(link, { force: true });
  fs.symlinkSync(id, link);
  fs.renameSync(link, CURRENT);
  if (previous && previous !== id && fs.existsSync(path.join(BUILDS, previous)))
    fs.writeFileSync(path.join(BUILDS, previous, 'RETIRED'), new Date().toISOString() + '\n');
}

/** Records that this process runs from generation `id` (removed at exit; a dead pid's record is ignored and cleared). */
export function hold(id) {
  fs.mkdirSync(RUNNING, { recursive: true });
  const file = path.join(RUNNING, String(process.pid));
  fs.writeFileSync(file, id);
  process.on('exit', () => {
    if (readText(file) === id) fs.rmSync(file, { force: true });
  });
}

/** The generations some live process runs from (clearing the records of dead ones). */
function held() {
  const ids = new Set();
  let names = [];
  try {
    names = fs.readdirSync(RUNNING);
  } catch {
    return ids;
  }
  for (const name of names) {
    const file = path.join(RUNNING, name);
    const id = readText(file);
    if (/^\d+$/.test(name) && alive(Number(name))) {
      if (id) ids.add(id);
    } else fs.rmSync(file, { force: true });
  }
  return ids;
}

const ageMs = (file) => {
  try {
    return Date.now() - fs.statSync(file).mtimeMs;
  } catch {
    return null;
  }
};

/**
 * Removes what nobody can use any more: generations that are not current, held by no live
 * process, and retired more than RETIRED_GRACE_MS ago; staging folders of builders that died.
 */
export function prune() {
  const current = currentId();
  const inUse = held();
  const removed = [];
  for (const name of fs.readdirSync(BUILDS)) {
    const dir = path.join(BUILDS, name);
    if (name.startsWith('.trash-')) fs.rmSync(dir, { recursive: true, force: true });
    else if (name.startsWith('.staging-')) {
      if (!alive(Number(name.split('-')[1]))) fs.rmSync(dir, { recursive: true, force: true });
    } else if (GENERATION.test(name) && name !== current && !inUse.has(name)) {
      const retired = ageMs(path.join(dir, 'RETIRED')) ?? ageMs(path.join(dir, 'BUILD.json')) ?? Infinity;
      if (retired > RETIRED_GRACE_MS) {
        remove(dir);
        removed.push(name);
      }
    }
  }
  return removed;
}

/**
 * The generation to run: the current one when its inputs are today's, else a new one built
 * (once, however many commands ask at the same time). Held by this process from here on.
 */
export async function ensureBuild({ force = false } = {}) {
  const inputs = hashInputs();
  let id = force ? null : upToDate(inputs);
  if (!id)
    id = await withLock(async () => (!force && upToDate(inputs)) || (await build(inputs)), { wait: true });
  hold(id);
  // Housekeeping only when no build is under way; it never waits.
  await withLock(async () => prune(), { wait: false });
  return { id, dir: path.join(BUILDS, id) };
}
