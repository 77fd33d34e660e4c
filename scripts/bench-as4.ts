/**
 * AS4 between two instances on loopback, A (POP000001) sending to B (POP000002), found through a
 * local SML (DNS) and B's signed SMP, as on the Peppol network; each instance a process of its own
 * (as `npm start`), both on one embedded PostgreSQL cluster (a database each).
 *
 * Phase 1, end to end: N documents are created on A, then sent (POST /api/documents/{id}/send)
 * open loop at RATE per second. Reports documents/s from the first send call to the last
 * document in B's inbox, send → SENT on A (p50/p99: resolution, AS4 build, B's verification,
 * storage and receipt, A's receipt check and record), send → received on B, and the CPU time per
 * document of A, B and PostgreSQL.
 * Phase 2, the receiving endpoint alone: M distinct AS4 messages, signed and encrypted by A's key
 * beforehand (in this process, not timed), are posted to B's /as4 by CONNECTIONS_AS4 clients, each
 * posting its next as soon as its last is answered (a closed loop: the most B sustains). Reports
 * messages/s, receipts, each request's latency and B's CPU per message.
 *
 * Before phase 1, WARMUP documents are sent the same way and delivered, not counted: the figures
 * are those of a running access point, not of code the JIT has not compiled yet.
 *
 *   npm run bench:as4     Options (env): DOCUMENTS (2000), WARMUP (500), RATE (100), CONNECTIONS (16),
 *                         MESSAGES (2000), CONNECTIONS_AS4 (16), PG_STATS=1 (PostgreSQL's
 *                         per-statement account of phase 1), SERVICE_NODE_ARGS (flags for both
 *                         instances' node, e.g. --cpu-prof)
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import pgClient from 'pg';
import { startEmbeddedPostgres } from '../src/infrastructure/postgres/embeddedPostgres.js';
import { ensureDatabase } from '../src/infrastructure/postgres/database.js';
import { PgEventStore } from '../src/infrastructure/postgres/pgEventStore.js';
import { X509Certificate } from 'node:crypto';
import { invoiceWithLines } from './benchDocuments.js';
import { closedLoop, openLoop, percentile } from './openLoop.js';
import { cpuMs, postgresCpuMs, treeCpuMs } from './benchCpu.js';
import { startBenchService, type BenchService } from './benchService.js';
import { makeTestPki } from '../test/support/testPki.js';
import { startTestSml } from '../test/support/testSml.js';
import { accessPointEnv } from '../test/support/peppolNetwork.js';
import { belgianNumber } from '../test/support/peppol.js';
import { buildAs4, invoiceSbdh, signingKeyOf } from '../test/support/as4Sender.js';

const documents = Number(process.env.DOCUMENTS ?? 2000);
const warmup = Number(process.env.WARMUP ?? 500);
const rate = Number(process.env.RATE ?? 100);
const connections = Number(process.env.CONNECTIONS ?? 16);
const messages = Number(process.env.MESSAGES ?? 2000);
const connectionsAs4 = Number(process.env.CONNECTIONS_AS4 ?? 16);
const pgStats = process.env.PG_STATS === '1';

const figures = (sorted: number[]) => ({
  p50: Math.round(percentile(sorted, 50)),
  p99: Math.round(percentile(sorted, 99)),
  max: Math.round(sorted[sorted.length - 1] ?? NaN),
});

async function main() {
  const pki = await makeTestPki({ instances: 2 });
  const sml = await startTestSml();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'bench-as4-'));
  const pg = await startEmbeddedPostgres({
    dataDir,
    port: 54_700 + Math.floor(Math.random() * 90),
    logger: pino({ level: 'warn' }),
    // PG_STATS=1: PostgreSQL's own account of phase 1 (pg_stat_statements, both databases), printed after it.
    settings: pgStats ? { shared_preload_libraries: 'pg_stat_statements' } : {},
  });
  const operatorKey = 'op_bench_as4_key';
  const instances: Array<{ service: BenchService; events: PgEventStore; pool: pgClient.Pool }> = [];
  for (const i of [1, 2]) {
    const database = `bench_as4_${i}`;
    await ensureDatabase(pg.connectionString('postgres'), database);
    const port = 18_000 + i * 500 + Math.floor(Math.random() * 400);
    const base = `http://127.0.0.1:${port}`;
    const instanceDir = path.join(dataDir, `instance-${i}`);
    const service = await startBenchService({
      databaseUrl: pg.connectionString(database),
      dataDir: instanceDir,
      port,
      operatorKey,
      env: accessPointEnv(pki, sml, i, base),
    });
    const pool = new pgClient.Pool({ connectionString: pg.connectionString(database), max: 4 });
    instances.push({ service, pool, events: new PgEventStore(pool, pg.connectionString(database)) });
  }
  const [a, b] = instances as [(typeof instances)[0], (typeof instances)[0]];

  const call = async (base: string, method: string, route: string, key: string, payload?: unknown) => {
    const res = await fetch(`${base}${route}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: payload ? JSON.stringify(payload) : undefined,
    });
    const body = (await res.json()) as Record<string, any>;
    if (res.status >= 300) throw new Error(`${method} ${route}: ${res.status} ${JSON.stringify(body)}`);
    return body;
  };
  const tenant = async (base: string, name: string, peppolId: string) => {
    const org = await call(base, 'POST', '/api/operator/organizations', operatorKey, { name });
    const created = await call(base, 'POST', '/api/admin/tenants', org.admin_key.key, { name, peppol_ids: [peppolId] });
    const key = (await call(base, 'POST', `/api/admin/tenants/${created.id}/api-keys`, org.admin_key.key, { name }))
      .key as string;
    await call(base, 'POST', `/api/admin/tenants/${created.id}/peppol/register`, org.admin_key.key, {
      peppol_id: peppolId,
      company_name: name,
    });
    return key;
  };
  const sellerId = `0208:${belgianNumber()}`;
  const buyerId = `0208:${belgianNumber()}`;
  const sellerKey = await tenant(a.service.base, 'bench-seller', sellerId);
  const buyerKey = await tenant(b.service.base, 'bench-buyer', buyerId);

  process.stdout.write(`creating ${warmup} + ${documents} documents on A…\n`);
  const body = { ...invoiceWithLines(10), vendor_peppol_id: sellerId, customer_peppol_id: buyerId };
  const create = async (count: number, prefix: string) => {
    const created: string[] = [];
    for (let i = 0; i < count; i += 50) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(50, count - i) }, (_, j) =>
          call(a.service.base, 'POST', '/api/documents/', sellerKey, { ...body, invoice_id: `${prefix}-${i + j}` }),
        ),
      );
      created.push(...batch.map((d) => d.id as string));
    }
    return created;
  };
  const warmupIds = await create(warmup, 'WARMUP');
  const ids = await create(documents, 'AS4');
  const sendAll = (which: string[]) =>
    openLoop({
      base: a.service.base,
      rate,
      count: which.length,
      connections,
      request: (i) => ({
        method: 'POST',
        path: `/api/documents/${which[i]}/send`,
        headers: { Authorization: `Bearer ${sellerKey}` },
      }),
    });

  // The first sends run cold code (JIT) on both sides and open the connections: they are sent and
  // delivered first, and not counted, so the figures are those of a running access point.
  process.stdout.write(`warm-up: sending ${warmup} at ${rate}/s…\n`);
  await sendAll(warmupIds);
  for (let inInbox = 0; inInbox < warmup;) {
    await new Promise((r) => setTimeout(r, 500));
    inInbox = (await call(b.service.base, 'GET', '/api/inbox/?search=WARMUP-&page_size=1', buyerKey)).total as number;
  }

  // The log of each side: when each send was requested and SENT on A, and received on B.
  const requestedAt = new Map<string, number>();
  const messageOf = new Map<string, string>();
  const sentAt = new Map<string, number>();
  const receivedAt = new Map<string, number>();
  let failed = 0;
  let settle: () => void = () => undefined;
  const settled = new Promise<void>((resolve) => (settle = resolve));
  const check = () => sentAt.size + failed >= documents && receivedAt.size >= documents - failed && settle();
  const subscriptions = [
    a.events.subscribeToAll({
      after: await a.events.headPosition(),
      onEvents: async (events) => {
        for (const e of events) {
          const data = e.data as { document_id: string; message_id: string };
          if (e.type === 'SendRequested') {
            requestedAt.set(data.document_id, Date.parse(e.recordedAt));
            messageOf.set(data.document_id, data.message_id);
          }
          if (e.type === 'DocumentSent') sentAt.set(data.document_id, Date.parse(e.recordedAt));
          if (e.type === 'DocumentFailed') {
            failed++;
            console.error('failed:', JSON.stringify(e.data));
          }
        }
        check();
      },
      onError: (error) => {
        console.error(error);
        process.exit(1);
      },
    }),
    b.events.subscribeToAll({
      after: await b.events.headPosition(),
      onEvents: async (events) => {
        for (const e of events)
          if (e.type === 'DocumentReceived')
            receivedAt.set((e.data as { message_id: string }).message_id, Date.parse(e.recordedAt));
        check();
      },
      onError: (error) => {
        console.error(error);
        process.exit(1);
      },
    }),
  ];

  process.stdout.write(`phase 1: sending ${documents} at ${rate}/s over ${connections} connections…\n`);
  const cpuNow = async () => ({
    instance_a: await treeCpuMs(a.service.process.pid!),
    instance_b: await treeCpuMs(b.service.process.pid!),
    load_generator_and_measurement: await cpuMs(process.pid, false),
    postgres: await postgresCpuMs(dataDir),
  });
  if (pgStats)
    for (const { pool } of instances)
      await pool.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements; SELECT pg_stat_statements_reset()');
  const cpuBefore = await cpuNow();
  const started = Date.now();
  const sends = await sendAll(ids);
  await settled;
  const cpuAfter = await cpuNow();
  const lastInInbox = Math.max(...receivedAt.values());
  const sendToSent = [...sentAt.entries()].map(([id, at]) => at - requestedAt.get(id)!).sort((x, y) => x - y);
  const sendToReceived = [...requestedAt.entries()]
    .filter(([id]) => receivedAt.has(messageOf.get(id)!))
    .map(([id, at]) => receivedAt.get(messageOf.get(id)!)! - at)
    .sort((x, y) => x - y);
  const perDocument = (key: keyof typeof cpuAfter) => +((cpuAfter[key] - cpuBefore[key]) / documents).toFixed(2);
  const endToEnd = {
    documents,
    failed,
    offered_rate_per_second: rate,
    send_calls: { statuses: sends.statusCounts, errors: sends.errors },
    documents_per_second_send_call_to_b_inbox: Math.round((documents / (lastInInbox - started)) * 1000),
    send_to_sent_ms: figures(sendToSent),
    send_to_received_on_b_ms: figures(sendToReceived),
    cpu_ms_per_document: {
      a: perDocument('instance_a'),
      b: perDocument('instance_b'),
      postgres: perDocument('postgres'),
      load_generator_and_measurement: perDocument('load_generator_and_measurement'),
    },
  };
  console.log(JSON.stringify({ end_to_end: endToEnd }, null, 2));
  if (pgStats) {
    const { rows } = await a.pool.query(
      `SELECT d.datname AS db, calls, round(total_exec_time) AS total_ms, round(total_exec_time::numeric / calls, 3) AS ms_per_call, left(regexp_replace(query, '\\s+', ' ', 'g'), 90) AS query
         FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid ORDER BY total_exec_time DESC LIMIT 25`,
    );
    console.table(rows);
  }
  await Promise.all(subscriptions.map((s) => s.stop()));

  process.stdout.write(`phase 2: building ${messages} AS4 messages as POP000001…\n`);
  const ubl = await (
    await fetch(`${a.service.base}/api/documents/${ids[0]}/ubl?format=xml`, {
      headers: { Authorization: `Bearer ${sellerKey}` },
    })
  ).text();
  const from = { ...signingKeyOf(pki.instance(1)), seatId: pki.instance(1).seatId };
  const receiverCertificate = new X509Certificate(await readFile(pki.instance(2).certificateFile));
  const built: Array<{ contentType: string; body: Buffer }> = [];
  for (let i = 0; i < messages; i++)
    built.push(
      await buildAs4({
        sbdh: invoiceSbdh(sellerId, buyerId),
        businessDocument: ubl,
        from,
        toSeatId: pki.instance(2).seatId,
        receiverCertificate,
      }),
    );
  process.stdout.write(`phase 2: posting them to B's /as4 over ${connectionsAs4} connections…\n`);
  let receipts = 0;
  const bBefore = await treeCpuMs(b.service.process.pid!);
  const pgBefore = (await cpuNow()).postgres;
  const posted = await closedLoop({
    base: b.service.base,
    count: messages,
    connections: connectionsAs4,
    request: (i) => ({
      method: 'POST',
      path: '/as4',
      headers: { 'Content-Type': built[i]!.contentType },
      body: built[i]!.body,
    }),
    onResponse: (_i: number, text: string) => {
      if (text.includes('Receipt')) receipts++;
    },
  });
  const bCpu = (await treeCpuMs(b.service.process.pid!)) - bBefore;
  const pgCpu = (await cpuNow()).postgres - pgBefore;
  const latency = [...posted.latencies].sort((x, y) => x - y);
  console.log(
    JSON.stringify(
      {
        endpoint: {
          messages,
          connections: connectionsAs4,
          statuses: posted.statusCounts,
          receipts,
          messages_per_second: Math.round((messages / posted.elapsedMs) * 1000),
          latency_ms: { p50: Math.round(percentile(latency, 50)), p99: Math.round(percentile(latency, 99)) },
          cpu_ms_per_message: { b: +(bCpu / messages).toFixed(2), postgres: +(pgCpu / messages).toFixed(2) },
        },
      },
      null,
      2,
    ),
  );

  for (const instance of instances) {
    await instance.service.stop();
    await instance.events.close();
    await instance.pool.end();
  }
  await pg.stop();
  await sml.close();
  await pki.dispose();
  await rm(dataDir, { recursive: true, force: true });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
