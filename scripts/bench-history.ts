/**
 * What the hash chain costs over a large log: EVENTS (1,000,000) document-sized events are written
 * straight into the event table (one SQL statement, no service), then chained by the chainer as the
 * service runs it, checkpointed, and the whole log verified as `npm run verify-history` does
 * (without reading blobs: the generated events name blobs that are not stored).
 *   npm run bench:history            (embedded PostgreSQL in a temporary folder)
 *   DATABASE_URL=... npm run bench:history   (an empty database)
 * Options (env): EVENTS (1000000).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { generateKeyPairSync } from 'node:crypto';
import pg from 'pg';
import { pino } from 'pino';
import { startEmbeddedPostgres } from '../src/infrastructure/postgres/embeddedPostgres.js';
import { ensureDatabase } from '../src/infrastructure/postgres/database.js';
import { applyPostgresSchema } from '../src/infrastructure/postgres/pgSchema.js';
import { PgEventStore } from '../src/infrastructure/postgres/pgEventStore.js';
import { PgHistoryChainStore } from '../src/infrastructure/postgres/pgHistoryChain.js';
import { PgBlobStore } from '../src/infrastructure/blobs/pgBlobStore.js';
import { KeyCheckpointSigner } from '../src/infrastructure/history/checkpointSigner.js';
import { noCheckpointFile } from '../src/infrastructure/history/checkpointFile.js';
import { HistoryChainer } from '../src/application/history/historyChainer.js';
import { HistoryCheckpoints } from '../src/application/history/historyCheckpoints.js';
import { HistoryVerification } from '../src/application/history/historyVerification.js';
import { postgresCpuMs } from './benchCpu.js';
import { WorkerRangeWalker } from '../src/infrastructure/history/workerRangeWalker.js';
import { VERIFICATION } from '../src/composition/history.js';
import { loadConfig } from '../src/infrastructure/config.js';

const events = Number(process.env.EVENTS ?? 1_000_000);

async function main() {
  let stopServer = async () => undefined as void;
  let dataDir: string | null = null;
  let url = process.env.DATABASE_URL;
  if (!url) {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-history-'));
    const server = await startEmbeddedPostgres({
      dataDir,
      port: 54_900 + Math.floor(Math.random() * 90),
      logger: pino({ level: 'warn' }),
    });
    stopServer = () => server.stop();
    await ensureDatabase(server.connectionString('postgres'), 'bench');
    url = server.connectionString('bench');
  }
  const pool = new pg.Pool({ connectionString: url, max: 8 });
  await applyPostgresSchema(pool);
  const store = new PgEventStore(pool, url);
  const chain = new PgHistoryChainStore(pool);
  const logger = pino({ level: 'warn' });

  // Events shaped like a document's: ids, a few facts, a blob reference, and who did it.
  let started = performance.now();
  await pool.query(
    `INSERT INTO es_events (global_position, event_id, stream_name, stream_revision, type, data, metadata, recorded_at)
     SELECT g, gen_random_uuid(), 'document-' || md5((g / 5)::text), g % 5, 'DocumentValidated',
            jsonb_build_object('document_id', md5((g / 5)::text), 'validation_id', md5(g::text), 'is_valid', true,
              'fatal', 0, 'warnings', g % 3, 'validated_at', now(), 'rule_set', 'peppol-bis-3.0.20',
              'report_ref', jsonb_build_object('sha256', encode(sha256(g::text::bytea), 'hex'), 'size', 1234,
                'media_type', 'application/json')),
            jsonb_build_object('tenantId', md5((g / 1000)::text), 'organizationId', md5('org'),
              'requestId', md5(g::text), 'correlationId', md5(g::text),
              'actor', jsonb_build_object('kind', 'api_key', 'key_id', md5((g / 1000)::text)::uuid, 'key_name', 'erp',
                'tenant_id', md5((g / 1000)::text))),
            now() + g * interval '1 millisecond'
       FROM generate_series(0, $1::bigint - 1) AS g`,
    [events],
  );
  await pool.query('UPDATE es_global SET position = $1 - 1', [events]);
  const generateSeconds = (performance.now() - started) / 1000;

  // CPU time (this process, and PostgreSQL's when it is the embedded server here) is steadier
  // than the wall clock on a shared machine.
  const cpu = async () => ({
    node: (process.cpuUsage().user + process.cpuUsage().system) / 1000,
    postgres: dataDir ? await postgresCpuMs(dataDir) : 0,
  });
  const chainer = new HistoryChainer(store, chain, logger, { paceMs: 0, batchSize: 2000 });
  let cpuBefore = await cpu();
  const chainCpuBefore = cpuBefore;
  started = performance.now();
  await chainer.start();
  while (!(await chainer.catchUp(60_000))) process.stderr.write('.');
  const chainSeconds = (performance.now() - started) / 1000;
  const chainCpu = await cpu();
  await chainer.stop();

  const signer = new KeyCheckpointSigner(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey, null, 'bench');
  await new HistoryCheckpoints(
    chain,
    chainer,
    signer,
    noCheckpointFile,
    { intervalMs: 0, everyEvents: 0 },
    logger,
  ).checkpointNow();

  // For scale: reading the log alone, as a replay does (the same machine, the same moment).
  started = performance.now();
  for (let after = -1n; ;) {
    const batch = await store.readAll({ after, maxCount: 2000 });
    if (batch.length === 0) break;
    after = batch[batch.length - 1]!.globalPosition;
  }
  const readSeconds = (performance.now() - started) / 1000;

  // As `npm run verify-history` walks it: in ranges, in worker threads (HISTORY_VERIFY_WORKERS).
  const walker = new WorkerRangeWalker(
    { databaseUrl: url, eventStoreUrl: null, blobStore: { kind: 'postgres' } },
    loadConfig().history.verifyWorkers,
  );
  const verification = new HistoryVerification(store, chain, new PgBlobStore(pool), signer, walker, VERIFICATION);
  cpuBefore = await cpu();
  // Said on stderr as it starts: the step that matters is minutes into the run.
  console.error(`verifying ${events} events…`);
  started = performance.now();
  const report = await verification.verify({ blobs: false });
  const verifySeconds = (performance.now() - started) / 1000;
  const verifyCpu = await cpu();
  if (!report.ok) throw new Error(`the generated log does not verify: ${JSON.stringify(report.first_problem)}`);

  console.log(
    JSON.stringify(
      {
        events,
        generate_seconds: round(generateSeconds),
        chain_seconds: round(chainSeconds),
        chained_events_per_second: Math.round(events / chainSeconds),
        chain_cpu_seconds: cpuSeconds(chainCpu, chainCpuBefore),
        read_all_seconds: round(readSeconds),
        verify_seconds: round(verifySeconds),
        verified_events_per_second: Math.round(events / verifySeconds),
        verify_cpu_seconds: cpuSeconds(verifyCpu, cpuBefore),
        checkpoints_checked: report.checkpoints_checked,
      },
      null,
      2,
    ),
  );
  await store.close();
  await pool.end();
  await stopServer();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}

const round = (n: number) => Math.round(n * 10) / 10;

type Cpu = { node: number; postgres: number };
const cpuSeconds = (after: Cpu, before: Cpu) => ({
  node: round((after.node - before.node) / 1000),
  postgres: round((after.postgres - before.postgres) / 1000),
});

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
