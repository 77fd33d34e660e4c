/**
 * Benchmark of the PostgreSQL event store adapter.
 *   npm run bench:eventstore            (embedded PostgreSQL in a temporary folder)
 *   DATABASE_URL=... npm run bench:eventstore
 * Options (env): WRITERS (16), APPENDS (30000), READ_BATCH (1000), CHAIN (1: the history chainer
 * follows the log while the writers append, as in the service; 0: the appends alone).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { pino } from 'pino';
import { startEmbeddedPostgres } from '../src/infrastructure/postgres/embeddedPostgres.js';
import { ensureDatabase } from '../src/infrastructure/postgres/database.js';
import { applyPostgresSchema } from '../src/infrastructure/postgres/pgSchema.js';
import { PgEventStore } from '../src/infrastructure/postgres/pgEventStore.js';
import { PgHistoryChainStore } from '../src/infrastructure/postgres/pgHistoryChain.js';
import { ThreadedHistoryChainer } from '../src/infrastructure/history/threadedHistoryChainer.js';
import { loadConfig } from '../src/infrastructure/config.js';
import { postgresCpuMs } from './benchCpu.js';

const writers = Number(process.env.WRITERS ?? 16);
const appends = Number(process.env.APPENDS ?? 30_000);
const readBatch = Number(process.env.READ_BATCH ?? 1000);
const chained = process.env.CHAIN !== '0';

async function main() {
  let stopServer = async () => undefined as void;
  let dataDir: string | null = null;
  let url = process.env.DATABASE_URL;
  if (!url) {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-es-'));
    const server = await startEmbeddedPostgres({
      dataDir,
      port: 54_400 + Math.floor(Math.random() * 500),
      logger: pino({ level: 'warn' }),
    });
    stopServer = () => server.stop();
    const name = `bench_${Date.now()}`;
    await ensureDatabase(server.connectionString('postgres'), name);
    url = server.connectionString(name);
  }
  const pool = new pg.Pool({ connectionString: url, max: writers + 4 });
  await applyPostgresSchema(pool);
  const store = new PgEventStore(pool, url);

  // A realistic event body: a document-sized JSON payload with metadata.
  const data = {
    document_id: randomUUID(),
    state: 'DRAFT',
    invoice_total: '1234.56',
    items: Array.from({ length: 5 }, (_, i) => ({ i, amount: '10.00' })),
  };
  const tenantId = randomUUID();
  const metadata = {
    tenantId,
    actor: { kind: 'api_key' as const, keyId: randomUUID(), keyName: 'erp', tenantId },
    requestId: randomUUID(),
  };

  // Warm-up, so connection set-up is not measured.
  await Promise.all(
    Array.from({ length: writers }, () =>
      store.append(`warm-${randomUUID()}`, [{ type: 'Warm', data, metadata }], 'no_stream'),
    ),
  );

  // The chainer as the service runs it (its default pace), following the appends as they commit.
  const chainer = chained
    ? new ThreadedHistoryChainer(
        store,
        new PgHistoryChainStore(pool),
        pino({ level: 'warn' }),
        { paceMs: loadConfig({}).history.chainPaceMs, batchSize: 1000 },
        { databaseUrl: url, eventStoreUrl: null },
      )
    : null;
  await chainer?.start();

  const perWriter = Math.ceil(appends / writers);
  const latencies: number[] = [];
  // CPU of this process (the writers and the chainer) and of PostgreSQL, from the first append to
  // the chain's catch-up: steadier than the rate on a shared machine, and it counts the chain's
  // work done after the last append too.
  const cpuBefore = { self: process.cpuUsage(), postgres: dataDir ? await postgresCpuMs(dataDir) : 0 };
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: writers }, async () => {
      const stream = `bench-${randomUUID()}`;
      for (let i = 0; i < perWriter; i++) {
        const t0 = process.hrtime.bigint();
        await store.append(stream, [{ type: 'Appended', data, metadata }], i === 0 ? 'no_stream' : i - 1);
        latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
      }
    }),
  );
  const writeSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  // How far behind the last append the chain was, and how long it took to catch up.
  const lagStarted = process.hrtime.bigint();
  const lag = chainer ? (await store.headPosition()) - (chainer.chainHead()?.position ?? -1n) : 0n;
  if (chainer) while (!(await chainer.catchUp(60_000)));
  const catchUpMs = Number(process.hrtime.bigint() - lagStarted) / 1e6;
  const selfCpu = process.cpuUsage(cpuBefore.self);
  const postgresCpu = dataDir ? (await postgresCpuMs(dataDir)) - cpuBefore.postgres : null;
  await chainer?.stop();
  const total = perWriter * writers;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!.toFixed(2);

  const readStarted = process.hrtime.bigint();
  let after = -1n;
  let read = 0;
  for (;;) {
    const events = await store.readAll({ after, maxCount: readBatch });
    if (events.length === 0) break;
    read += events.length;
    after = events[events.length - 1]!.globalPosition;
  }
  const readSeconds = Number(process.hrtime.bigint() - readStarted) / 1e9;

  const results = {
    writers,
    appends: total,
    appends_per_second: Math.round(total / writeSeconds),
    append_latency_ms: { p50: pct(50), p99: pct(99) },
    cpu_us_per_append: {
      process: Math.round((selfCpu.user + selfCpu.system) / total),
      postgres: postgresCpu === null ? null : Math.round((postgresCpu * 1000) / total),
    },
    read_all_events: read,
    read_all_events_per_second: Math.round(read / readSeconds),
    ...(chainer ? { chain: { unchained_at_end: Number(lag), caught_up_ms: Math.round(catchUpMs) } } : {}),
  };
  console.log(JSON.stringify(results, null, 2));

  await store.close();
  await pool.end();
  await stopServer();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
