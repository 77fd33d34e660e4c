/**
 * End-to-end sending benchmark in test mode with real SMTP: documents are created first, then
 * every one is sent (POST /api/documents/{id}/send over HTTP), and the clock runs
 * until the last one is SENT, i.e. its mail was accepted by the SMTP server and the outcome
 * recorded. Reports documents/s from the first send request to the last SENT, the send call's
 * latency, and each document's send-to-SENT time.
 * The send calls arrive open loop at a mean RATE per second (Poisson arrivals, at most CONNECTIONS
 * in flight; see openLoop.ts), as a steady stream of independent clients would send them, so the
 * latency figures are those of a service sustaining that rate rather than of a queue filled as
 * fast as possible. Latency is counted from when each call was due.
 * It also reports the CPU time each process spent per document (service, PostgreSQL, SMTP server,
 * this process), which is steadier than latency on a shared machine.
 *   npm run bench:send        Options (env): DOCUMENTS (3000), RATE (120), CONNECTIONS (16),
 *                             SERVICE_NODE_ARGS (flags for the service's node, e.g. --cpu-prof),
 *                             PG_STATS=1 (PostgreSQL's per-statement account of the send phase)
 */
import { rm } from 'node:fs/promises';
import { fork } from 'node:child_process';
import pgClient from 'pg';
import { fileURLToPath } from 'node:url';
import { startBenchPostgres } from './benchPostgres.js';
import { PgEventStore } from '../src/infrastructure/postgres/pgEventStore.js';
import { invoiceWithLines } from './benchDocuments.js';
import { openLoop, percentile } from './openLoop.js';
import { cpuMs, postgresCpuMs } from './benchCpu.js';
import { startBenchService } from './benchService.js';

const documents = Number(process.env.DOCUMENTS ?? 3000);
const rate = Number(process.env.RATE ?? 120);
const connections = Number(process.env.CONNECTIONS ?? 16);

async function main() {
  const sink = fork(fileURLToPath(new URL('./smtpSink.js', import.meta.url)));
  const fromSink = <T>() => new Promise<T>((resolve) => sink.once('message', (m) => resolve(m as T)));
  const smtpUrl = `smtp://127.0.0.1:${(await fromSink<{ port: number }>()).port}`;

  // PG_STATS=1: PostgreSQL's own account of the send phase (pg_stat_statements), printed at the end.
  const pgStats = process.env.PG_STATS === '1';
  const { dataDir, server: pg } = await startBenchPostgres(
    'bench-send',
    ['bench'],
    pgStats ? { shared_preload_libraries: 'pg_stat_statements' } : {},
  );
  const operatorKey = 'op_bench_send_key';
  // The service runs as `npm start` does, in a process of its own: the load generator and the
  // measuring subscription below do not share its event loop.
  const port = 18_000 + Math.floor(Math.random() * 1000);
  const running = await startBenchService({
    databaseUrl: pg.connectionString('bench'),
    dataDir,
    port,
    operatorKey,
    env: { SMTP_URL: smtpUrl },
  });
  const service = running.process;
  const base = running.base;
  const pool = new pgClient.Pool({ connectionString: pg.connectionString('bench'), max: 4 });
  const events = new PgEventStore(pool, pg.connectionString('bench'));
  const call = async (method: string, route: string, key: string, payload?: unknown) =>
    (
      await fetch(`${base}${route}`, {
        method,
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: payload ? JSON.stringify(payload) : undefined,
      })
    ).json() as Promise<Record<string, any>>;

  const org = await call('POST', '/api/operator/organizations', operatorKey, { name: 'bench' });
  // It sends as the documents' seller (benchDocuments: BE0897223670), an id it must hold.
  const tenant = await call('POST', '/api/admin/tenants', org.admin_key.key, {
    name: 'bench-sender',
    peppol_ids: ['0208:0897223670'],
  });
  const key = (await call('POST', `/api/admin/tenants/${tenant.id}/api-keys`, org.admin_key.key, { name: 'bench' }))
    .key as string;
  await call('PUT', `/api/operator/tenants/${tenant.id}/test-mode`, operatorKey, {
    test_mode: true,
    email: 'bench@receiver.test',
  });

  process.stdout.write(`creating ${documents} documents…\n`);
  const ids: string[] = [];
  const body = invoiceWithLines(10);
  for (let i = 0; i < documents; i += 50) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(50, documents - i) }, (_, j) =>
        call('POST', '/api/documents/', key, { ...body, invoice_id: `SEND-${i + j}` }),
      ),
    );
    ids.push(...batch.map((d) => d.id as string));
  }

  // Every DocumentSent, with its delivery's request time, straight from the log.
  const requestedAt = new Map<string, number>();
  const sentAt = new Map<string, number>();
  const attemptStarted = new Map<string, number>();
  const attemptMs: number[] = [];
  let allSent: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (allSent = resolve));
  const head = await events.headPosition();
  const subscription = events.subscribeToAll({
    after: head,
    onEvents: async (events) => {
      for (const e of events) {
        const data = e.data as { document_id: string };
        if (e.type === 'SendRequested') requestedAt.set(data.document_id, Date.parse(e.recordedAt));
        if (e.type === 'DocumentSent') sentAt.set(data.document_id, Date.parse(e.recordedAt));
        if (e.type === 'DeliveryAttempted') {
          const attempt = e.data as { started_at: string; duration_ms: number };
          attemptStarted.set(data.document_id, Date.parse(attempt.started_at));
          attemptMs.push(attempt.duration_ms);
        }
        if (e.type === 'DocumentFailed') throw new Error(`a document failed: ${JSON.stringify(e.data)}`);
      }
      if (sentAt.size >= documents) allSent();
    },
    onError: (error) => {
      console.error(error);
      process.exit(1);
    },
  });

  process.stdout.write(`sending ${rate}/s over ${connections} connections…\n`);
  if (pgStats) await pool.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements; SELECT pg_stat_statements_reset()');
  const cpuNow = async () => ({
    service: await cpuMs(service.pid!, false),
    postgres: await postgresCpuMs(dataDir),
    smtp_server: await cpuMs(sink.pid!, false),
    load_generator_and_measurement: await cpuMs(process.pid, false),
  });
  const cpuBefore = await cpuNow();
  const started = Date.now();
  const result = await openLoop({
    base,
    rate,
    count: documents,
    connections,
    request: (i) => ({
      method: 'POST',
      path: `/api/documents/${ids[i]}/send`,
      headers: { Authorization: `Bearer ${key}` },
    }),
  });
  const sendCallsDone = Date.now();
  const sendLatency = [...result.latencies].sort((a, b) => a - b);
  await done;
  const finished = Math.max(...sentAt.values());
  const cpuAfter = await cpuNow();
  await subscription.stop();
  const counted = fromSink<{ accepted: number }>();
  sink.send('count');
  const mails = (await counted).accepted;

  const endToEnd = [...sentAt.entries()].map(([id, at]) => at - (requestedAt.get(id) ?? at)).sort((a, b) => a - b);
  const waiting = [...attemptStarted.entries()]
    .map(([id, at]) => at - (requestedAt.get(id) ?? at))
    .sort((a, b) => a - b);
  attemptMs.sort((a, b) => a - b);
  console.log(
    JSON.stringify(
      {
        documents,
        offered_rate_per_second: rate,
        connections,
        mails_accepted_by_smtp: mails,
        send_requests: {
          statuses: result.statusCounts,
          errors: result.errors,
          requests_per_second: Math.round((documents / (sendCallsDone - started)) * 1000),
          latency_ms: Object.fromEntries(
            [50, 90, 99, 99.9, 100].map((p) => [p === 100 ? 'max' : `p${p}`, +percentile(sendLatency, p).toFixed(1)]),
          ),
        },
        documents_per_second_send_to_sent: Math.round((documents / (finished - started)) * 1000),
        send_to_sent_ms: {
          p50: percentile(endToEnd, 50),
          p99: percentile(endToEnd, 99),
          max: endToEnd[endToEnd.length - 1],
        },
        // Where that time goes: waiting for the delivery job to start, then the SMTP exchange.
        send_to_attempt_start_ms: { p50: percentile(waiting, 50), p99: percentile(waiting, 99) },
        smtp_attempt_ms: { p50: percentile(attemptMs, 50), p99: percentile(attemptMs, 99) },
        // From the first send call to the last SENT: what one document costs the machine.
        cpu_ms_per_document: Object.fromEntries(
          Object.entries(cpuAfter).map(([k, v]) => [
            k,
            +((v - cpuBefore[k as keyof typeof cpuBefore]) / documents).toFixed(2),
          ]),
        ),
      },
      null,
      2,
    ),
  );
  if (pgStats) {
    const { rows } = await pool.query(
      `SELECT calls, round(total_exec_time) AS total_ms, round(total_exec_time::numeric / calls, 3) AS ms_per_call, left(regexp_replace(query, '\\s+', ' ', 'g'), 100) AS query
         FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 15`,
    );
    console.table(rows);
  }
  await running.stop();
  await events.close();
  await pool.end();
  await pg.stop();
  sink.send('stop');
  await rm(dataDir, { recursive: true, force: true });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
