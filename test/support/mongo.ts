import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MongoClient } from 'mongodb';
import { freshDatabase } from './postgres.js';

/**
 * The Mongo-wire server the MongoDB adapters' suites run against:
 *  - MONGODB_URL, when set (a real MongoDB, or any server speaking its protocol);
 *  - else FerretDB, when its binary is there (FERRETDB_BIN, or .ci/bin/ferretdb as `.ci/run`
 *    builds it): started once per test run on the shared test PostgreSQL, in a database of its
 *    own, on a free port, and stopped after every suite (test/setup.ts);
 *  - else none: the suites are skipped with a printed warning, and fail under CI=true.
 */
export type MongoTarget = { kind: 'url'; url: string } | { kind: 'ferretdb'; bin: string } | { kind: 'none'; why: string };

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const defaultFerretDbBin = path.join(repoRoot, '.ci', 'bin', 'ferretdb');

export function mongoTarget(): MongoTarget {
  if (process.env.MONGODB_URL) return { kind: 'url', url: process.env.MONGODB_URL };
  const bin = process.env.FERRETDB_BIN || defaultFerretDbBin;
  if (existsSync(bin)) return { kind: 'ferretdb', bin };
  return {
    kind: 'none',
    why: process.env.FERRETDB_BIN
      ? `FERRETDB_BIN=${bin} does not exist`
      : `neither MONGODB_URL is set nor FerretDB built at ${path.relative(process.cwd(), bin) || bin} (bash .ci/build-ferretdb builds it; FERRETDB_BIN points elsewhere)`,
  };
}

/**
 * Registers `body` (which registers the suite's tests) when a Mongo-wire server can be had.
 * Without one: a warning and no tests locally; a failing test under CI=true, where the
 * MongoDB adapters' suites are required.
 */
export function describeWithMongo(what: string, body: () => void): void {
  const target = mongoTarget();
  if (target.kind !== 'none') {
    body();
    return;
  }
  if (process.env.CI === 'true') {
    describe(what, () => {
      it('requires a Mongo-wire server in CI', () => {
        throw new Error(`${what}: ${target.why}`);
      });
    });
    return;
  }
  console.warn(`\n  ⚠ SKIPPED: ${what} — ${target.why}.\n`);
}

let ferret: { process: ChildProcess; url: string } | null = null;
let starting: Promise<string> | null = null;

/** The server's URL, starting FerretDB on first use when that is the target. */
export async function testMongoUrl(): Promise<string> {
  const target = mongoTarget();
  if (target.kind === 'url') return target.url;
  if (target.kind === 'none') throw new Error(target.why);
  starting ??= startFerretDb(target.bin).catch((error: unknown) => {
    starting = null;
    throw error;
  });
  return starting;
}

async function startFerretDb(bin: string): Promise<string> {
  // Its own database on the shared test PostgreSQL; a small pool (FerretDB's default is 50).
  const database = new URL(await freshDatabase('ferretdb'));
  database.searchParams.set('pool_max_conns', '10');
  // stdin stays open as a pipe: FerretDB stops when it closes, so a test run that dies leaves none behind.
  const child = spawn(bin, ['-listen', '127.0.0.1:0', '-postgresql-url', database.toString(), '-log-level', process.env.FERRETDB_LOG_LEVEL ?? 'warn'], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr.push(chunk);
    if (stderr.length > 50) stderr.shift();
    if (process.env.FERRETDB_LOG_LEVEL) process.stderr.write(chunk);
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error('FerretDB did not become ready within 60 s')), 60_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${error.message}\n${stderr.join('').slice(-4000)}`));
    };
    child.once('error', fail);
    child.once('exit', (code, signal) => fail(new Error(`FerretDB exited before it was ready (${signal ?? code})`)));
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const ready = /^ready (mongodb:\/\/\S+)$/m.exec(out);
      if (!ready) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      child.removeAllListeners('error');
      resolve(ready[1]!);
    });
  });
  child.on('exit', (code, signal) => {
    if (ferret?.process === child) {
      console.error(`FerretDB exited unexpectedly (${signal ?? code}):\n${stderr.join('').slice(-4000)}`);
      ferret = null;
      starting = null;
    }
  });
  ferret = { process: child, url };
  console.log(`    FerretDB on ${url} (PostgreSQL database ${database.pathname.slice(1)})`);
  return url;
}

/** Stops the FerretDB this run started, if any (before the test PostgreSQL stops). */
export async function stopTestMongo(): Promise<void> {
  const running = ferret;
  ferret = null;
  starting = null;
  if (!running) return;
  const { process: child } = running;
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** FerretDB's version when the server at `url` is FerretDB (its buildInfo says so), else null. */
export async function ferretDbVersion(url: string): Promise<string | null> {
  const client = await new MongoClient(url).connect();
  try {
    const info = await client.db('admin').command({ buildInfo: 1 });
    return typeof info.ferretdbVersion === 'string' ? info.ferretdbVersion : null;
  } finally {
    await client.close();
  }
}
