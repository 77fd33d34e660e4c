import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { pino } from 'pino';
import { startEmbeddedPostgres } from '../src/infrastructure/postgres/embeddedPostgres.js';
import { ensureDatabase } from '../src/infrastructure/postgres/database.js';
import { startBenchService, type BenchService } from './benchService.js';
import { invoiceWithLines } from './benchDocuments.js';

/**
 * `npm run measure:connections [-- <processes>]`: starts that many service processes (3 by
 * default) on one PostgreSQL server (a temporary embedded one, or DATABASE_URL's server) and
 * counts the connections they hold, by what holds them: right after start, after some
 * requests, and once idle. Each process names its connections (application_name) so they can be
 * told apart. Settings (DATABASE_POOL_SIZE, …) are passed through from the environment.
 */
const processes = Number(process.argv[2] ?? 3);
const IDLE_WAIT_MS = Number(process.env.IDLE_WAIT_MS ?? 15_000);

const freePort = async (): Promise<number> => {
  const { createServer } = await import('node:net');
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
};

/** What a connection is for, from what it last ran. */
function purposeOf(row: { application_name: string; query: string; state: string }): string {
  if (row.application_name.endsWith(' claims')) return 'idempotency claim session';
  if (/^LISTEN es_events/i.test(row.query)) return 'event store LISTEN';
  if (/^LISTEN/i.test(row.query)) return 'Agenda LISTEN';
  return `pool (${row.state})`;
}

async function main(): Promise<void> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'invoicing-connections-'));
  // The embedded server runs as the user postgres when started by root: it must reach its folder.
  await chmod(root, 0o755);
  const logger = pino({ level: 'warn' });
  let server: { connectionString(db?: string): string; stop(): Promise<void> } | null = null;
  let baseUrl = process.env.DATABASE_URL ?? null;
  if (!baseUrl) {
    server = await startEmbeddedPostgres({ dataDir: path.join(root, 'pg'), port: await freePort(), logger });
    baseUrl = server.connectionString('postgres');
  }
  const name = `connections_${Date.now()}`;
  await ensureDatabase(baseUrl, name);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const services: BenchService[] = [];
  const observer = new pg.Client({ connectionString: url.toString() });
  await observer.connect();
  const count = async (when: string) => {
    const { rows } = await observer.query<{ application_name: string; query: string; state: string }>(
      `SELECT application_name, coalesce(query, '') AS query, coalesce(state, '') AS state FROM pg_stat_activity
        WHERE datname = $1 AND pid <> pg_backend_pid()`,
      [name],
    );
    const byPurpose = new Map<string, number>();
    const byProcess = new Map<string, number>();
    for (const row of rows) {
      byPurpose.set(purposeOf(row), (byPurpose.get(purposeOf(row)) ?? 0) + 1);
      const owner = /process-\d+/.exec(row.application_name)?.[0] ?? 'other';
      byProcess.set(owner, (byProcess.get(owner) ?? 0) + 1);
    }
    console.log(`${when}: ${rows.length} connections`);
    for (const [purpose, n] of [...byPurpose].sort()) console.log(`  ${purpose}: ${n}`);
    console.log(`  by process: ${[...byProcess].map(([p, n]) => `${p} ${n}`).join(', ')}`);
  };
  try {
    const operatorKey = `op_connections_${Date.now()}_0123456789`;
    for (let i = 1; i <= processes; i++) {
      const processUrl = new URL(url);
      processUrl.searchParams.set('application_name', `invoicing process-${i}`);
      services.push(
        await startBenchService({
          databaseUrl: processUrl.toString(),
          dataDir: path.join(root, `process-${i}`),
          port: await freePort(),
          operatorKey,
        }),
      );
    }
    await count(`${processes} processes just started`);
    // Some work on each: an organization, tenants, a document.
    for (const service of services) {
      const post = (route: string, key: string, body: unknown) =>
        fetch(`${service.base}${route}`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        }).then((r) => r.json() as Promise<Record<string, unknown>>);
      const org = await post('/api/operator/organizations', operatorKey, { name: 'Connections' });
      const admin = (org.admin_key as { key: string }).key;
      const tenants = await Promise.all(
        Array.from({ length: 20 }, (_, i) => post('/api/admin/tenants', admin, { name: `connections-${i}` })),
      );
      const key = (await post(`/api/admin/tenants/${String(tenants[0]!.id)}/api-keys`, admin, { name: 'app' }))
        .key as string;
      // A create with an Idempotency-Key opens the process's claim session.
      await fetch(`${service.base}/api/documents`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', 'Idempotency-Key': 'one' },
        body: JSON.stringify(invoiceWithLines(3)),
      });
    }
    await count('after 20 concurrent requests and an idempotent create on each');
    await new Promise((r) => setTimeout(r, IDLE_WAIT_MS));
    await count(`idle for ${IDLE_WAIT_MS / 1000} s`);
  } finally {
    await observer.end();
    for (const service of services) await service.stop();
    await server?.stop();
    await rm(root, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
