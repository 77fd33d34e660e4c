import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
/** dist/src/main.js, next to this compiled file's dist/test/support. */
export const MAIN = path.resolve(here, '../../src/main.js');

export interface ServiceProcess {
  child: ChildProcess;
  baseUrl: string;
  output(): string;
  exited: Promise<number | null>;
}

/** Starts `node dist/src/main.js` as `npm start` does and waits until /healthz answers. */
export async function startServiceProcess(
  env: Record<string, string>,
  port: number,
  timeoutMs = 90_000,
  /** In a process group of its own (as a terminal's foreground job): signal the group with process.kill(-pid). */
  ownGroup = false,
): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: ownGroup,
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  let done = false;
  void exited.then(() => (done = true));
  while (Date.now() < deadline && !done) {
    try {
      const res = await fetch(`${baseUrl}/healthz`);
      if (res.ok) return { child, baseUrl, output: () => output, exited };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`service did not become healthy:\n${output}`);
}

export async function api(baseUrl: string, method: string, route: string, key: string, body?: unknown) {
  const res = await fetch(`${baseUrl}${route}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** Polls `check` until it gives a value (not undefined or false; a rejection counts as none), or fails after `timeoutMs`. */
export async function until<T>(
  check: () => Promise<T | undefined | false>,
  what: string,
  timeoutMs = 90_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check().catch(() => undefined);
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
