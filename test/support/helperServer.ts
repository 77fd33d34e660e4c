import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './repoRoot.js';

/**
 * The servers some suites need that no npm package provides (FerretDB, the S3 test server): small
 * Go programs that `.ci/run` builds, which print `ready <url>` once they listen and stop when their
 * stdin closes (so a test run that dies leaves none behind).
 */

/** Where a suite's server comes from; `none` says why there is none. */
export type ServerTarget<T> = T | { kind: 'none'; why: string };

/** An external server named by `urlEnv`, else our built binary (`binEnv`, else `.ci/bin/<name>`). */
export type UrlOrBinary = ServerTarget<{ kind: 'url'; url: string } | { kind: 'binary'; bin: string }>;

export function urlOrBinary(options: {
  urlEnv: string;
  binEnv: string;
  binName: string;
  server: string;
  buildScript: string;
}): UrlOrBinary {
  const { urlEnv, binEnv } = options;
  if (process.env[urlEnv]) return { kind: 'url', url: process.env[urlEnv] };
  const bin = process.env[binEnv] || path.join(repoRoot, '.ci', 'bin', options.binName);
  if (existsSync(bin)) return { kind: 'binary', bin };
  return {
    kind: 'none',
    why: process.env[binEnv]
      ? `${binEnv}=${bin} does not exist`
      : `neither ${urlEnv} is set nor ${options.server} built at ${path.relative(process.cwd(), bin) || bin} (bash ${options.buildScript} builds it; ${binEnv} points elsewhere)`,
  };
}

/**
 * Registers `body` when the server can be had. Without one: a warning and no tests locally; a
 * failing test under CI=true, where every adapter's suite is required.
 */
export function describeRequiring(
  what: string,
  server: string,
  target: ServerTarget<{ kind: string }>,
  body: () => void,
): void {
  if (target.kind !== 'none') {
    body();
    return;
  }
  const why = (target as { why: string }).why;
  if (process.env.CI === 'true') {
    describe(what, () => {
      it(`requires ${server} in CI`, () => {
        throw new Error(`${what}: ${why}`);
      });
    });
    return;
  }
  console.warn(`\n  ⚠ SKIPPED: ${what} — ${why}.\n`);
}

export interface HelperServer {
  process: ChildProcess;
  url: string;
}

/**
 * Starts `bin` and resolves with the URL it prints as `ready <url>` (the URL matching `urlPattern`).
 * `onUnexpectedExit` runs when it exits later without being stopped.
 */
export async function startHelperServer(options: {
  name: string;
  bin: string;
  args: string[];
  urlPattern: RegExp;
  readyWithinMs: number;
  /** Echo its stderr as it comes (its log), besides keeping the tail for errors. */
  echoStderr?: boolean;
  onUnexpectedExit: (tail: string) => void;
}): Promise<HelperServer> {
  const { name, bin, args } = options;
  const child = spawn(bin, args, { stdio: ['pipe', 'pipe', 'pipe'] });
  const stderr: string[] = [];
  const tail = () => stderr.join('').slice(-4000);
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr.push(chunk);
    if (stderr.length > 50) stderr.shift();
    if (options.echoStderr) process.stderr.write(chunk);
  });
  const ready = new RegExp(`^ready (${options.urlPattern.source})$`, 'm');
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(
      () => fail(new Error(`${name} did not become ready within ${options.readyWithinMs / 1000} s`)),
      options.readyWithinMs,
    );
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${error.message}\n${tail()}`));
    };
    child.once('error', fail);
    child.once('exit', (code, signal) => fail(new Error(`${name} exited before it was ready (${signal ?? code})`)));
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = ready.exec(out);
      if (!match) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      child.removeAllListeners('error');
      resolve(match[1]!);
    });
  });
  const server: HelperServer = { process: child, url };
  child.on('exit', (code, signal) => {
    if (!stopping.has(child)) {
      console.error(`${name} exited unexpectedly (${signal ?? code}):\n${tail()}`);
      options.onUnexpectedExit(tail());
    }
  });
  return server;
}

const stopping = new WeakSet<ChildProcess>();

/** Stops a server (SIGTERM, then SIGKILL after 10 s); nothing when it already exited. */
export async function stopHelperServer(server: HelperServer | null): Promise<void> {
  if (!server) return;
  const child = server.process;
  stopping.add(child);
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
