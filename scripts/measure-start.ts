/**
 * How long a built checkout takes from the start command to a 200 from /healthz:
 *
 *   npm run measure:start [runs, default 5]
 *
 * Both ways of starting: `npm start` (the npm script checks that the build is current, then runs
 * it) and the systemd unit's `node build/current/src/main.js`. Each on a data directory whose
 * embedded PostgreSQL was initialised by a first start (measured too, once: initdb is a one-off),
 * then stopped with SIGTERM and waited for. Prints the median and the slowest of the runs.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../test/support/repoRoot.js';
import { freePort } from '../test/support/postgres.js';

const runs = Number(process.argv[2] ?? 5);

async function startOnce(command: string[], env: Record<string, string>, port: number): Promise<number> {
  const started = performance.now();
  // A process group of its own: npm, its shell and node are signalled together.
  const child = spawn(command[0]!, command.slice(1), {
    cwd: repoRoot,
    env: { ...process.env, LOG_LEVEL: 'warn', LOG_FORMAT: 'json', ...env, PORT: String(port) },
    stdio: 'ignore',
    detached: true,
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  let healthyAt: number | null = null;
  while (healthyAt === null) {
    if (child.exitCode !== null) throw new Error(`${command.join(' ')} exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) healthyAt = performance.now();
    } catch {
      await new Promise((r) => setTimeout(r, 20));
    }
  }
  process.kill(-child.pid!, 'SIGTERM');
  await exited;
  // The service's own stop (PostgreSQL included) finishes after npm's exit: wait for the port to free.
  for (;;) {
    try {
      await fetch(`http://127.0.0.1:${port}/healthz`);
      await new Promise((r) => setTimeout(r, 100));
    } catch {
      break;
    }
  }
  return healthyAt - started;
}

const stats = (ms: number[]) => {
  const sorted = [...ms].sort((a, b) => a - b);
  return `median ${(sorted[Math.floor(sorted.length / 2)]! / 1000).toFixed(2)} s, slowest ${(sorted.at(-1)! / 1000).toFixed(2)} s (${runs} runs)`;
};

const dataDir = await mkdtemp(path.join(os.tmpdir(), 'measure-start-'));
try {
  const env = {
    DATA_DIR: dataDir,
    EMBEDDED_PG_PORT: String(await freePort()),
    OPERATOR_KEY: 'op_measure_start_0123456789abcdef',
  };
  const port = await freePort();
  const npmStart = ['npm', 'start', '--silent'];
  const unit = [process.execPath, path.join(repoRoot, 'build', 'current', 'src', 'main.js')];
  const first = await startOnce(npmStart, env, port);
  console.log(`first start (initialises the embedded PostgreSQL): ${(first / 1000).toFixed(2)} s`);
  for (const [name, command] of [
    ['npm start', npmStart],
    ['node build/current/src/main.js', unit],
  ] as const) {
    const times: number[] = [];
    for (let i = 0; i < runs; i++) times.push(await startOnce([...command], env, port));
    console.log(`${name}: ${stats(times)}`);
  }
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
