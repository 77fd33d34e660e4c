/**
 * How long a built checkout takes from the start command to a 200 from /healthz:
 *
 *   npm run measure:start [runs, default 5]
 *
 * Both ways of starting: `npm start` (the npm script checks that the build is current, then runs
 * it) and the systemd unit's `node build/current/src/main.js`. Each on a data directory whose
 * embedded PostgreSQL was initialised by a first start (measured too, once: initdb is a one-off),
 * then stopped with SIGTERM and waited for. Prints the median and the slowest of the runs, in
 * wall time and in the CPU time the started processes (node, npm, PostgreSQL) used until then:
 * on a machine busy with other work the wall time stretches, the CPU time does not.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../test/support/repoRoot.js';
import { freePort } from '../test/support/postgres.js';

const runs = Number(process.argv[2] ?? 5);
const TICKS_PER_SECOND = 100;

/** CPU milliseconds used so far by the processes of a process group (and their children that ended). */
function groupCpuMs(pgid: number): number {
  let ticks = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      // After the command name (in parentheses, may hold spaces): state, ppid, pgrp, … utime stime cutime cstime.
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      if (Number(fields[2]) === pgid) ticks += fields.slice(11, 15).reduce((sum, f) => sum + Number(f), 0);
    } catch {
      // gone meanwhile
    }
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}

async function startOnce(
  command: string[],
  env: Record<string, string>,
  port: number,
): Promise<{ wall: number; cpu: number }> {
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
  let cpu = 0;
  while (healthyAt === null) {
    if (child.exitCode !== null) throw new Error(`${command.join(' ')} exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) {
        healthyAt = performance.now();
        cpu = groupCpuMs(child.pid!);
      }
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
  return { wall: healthyAt - started, cpu };
}

const stats = (ms: number[]) => {
  const sorted = [...ms].sort((a, b) => a - b);
  return `median ${(sorted[Math.floor(sorted.length / 2)]! / 1000).toFixed(2)} s, slowest ${(sorted.at(-1)! / 1000).toFixed(2)} s`;
};

console.log(
  `load average before: ${(await import('node:os'))
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
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
  console.log(
    `first start (initialises the embedded PostgreSQL): ${(first.wall / 1000).toFixed(2)} s wall, ${(first.cpu / 1000).toFixed(2)} s CPU`,
  );
  for (const [name, command] of [
    ['npm start', npmStart],
    ['node build/current/src/main.js', unit],
  ] as const) {
    const times: Array<{ wall: number; cpu: number }> = [];
    for (let i = 0; i < runs; i++) times.push(await startOnce([...command], env, port));
    console.log(
      `${name} (${runs} runs): wall ${stats(times.map((t) => t.wall))}; CPU ${stats(times.map((t) => t.cpu))}`,
    );
  }
} finally {
  await rm(dataDir, { recursive: true, force: true });
}
