/**
 * AS4 between two instances on loopback, A (POP000001) sending to B (POP000002), found through a
 * local SML (DNS) and B's signed SMP, as on the Peppol network; each instance a process of its own
 * (as `npm start`), both on one embedded PostgreSQL cluster (a database each).
 *
 * Phase 1, end to end: N documents are created on A, then sent (POST /api/documents/{id}/send)
 * open loop at RATE per second. Reports documents/s from the first send call to the last
 * document in B's inbox, send → SENT on A (p50/p99: resolution, AS4 build, B's verification,
 * storage and receipt, A's receipt check and record), send → received on B, and the CPU time per
 * document of A, B and PostgreSQL, counted until A has recorded the MLS B answers each document
 * with (A's SBDH asks for one always, the default; MLS_TYPE=FAILURE_ONLY asks for none for a
 * document that is delivered; each SPID resolves to its provider's SMP).
 * Phase 2, the receiving endpoint alone: M distinct AS4 messages, signed and encrypted by A's key
 * beforehand (in this process, not timed), are posted to B's /as4 by CONNECTIONS_AS4 clients, each
 * posting its next as soon as its last is answered (a closed loop: the most B sustains). Reports
 * messages/s, receipts, each request's latency and B's CPU per message.
 *
 * Phase 3, the same endpoint receiving from phase4 (the reference implementation, Java: the
 * interop harness, test/interop/phase4), as most of an access point's traffic comes from other
 * implementations. (a) phase4-built: M messages phase4 builds, signs and encrypts for B (as a third
 * access point, POP000003, with the same invoice and participants as phase 2) are captured on
 * loopback beforehand, not timed, and posted to B's /as4 exactly as phase 2 posts ours: the two
 * figures compare what B spends on a phase4 message and on ours. (b) live: phase4 sends
 * PHASE4_LIVE messages to B itself (PHASE4_CONCURRENCY at a time); B's CPU per message then also
 * holds what B spends idle between messages at phase4's rate (its idle CPU per second, measured
 * just before, is reported beside it), and phase4's JVM takes the other core meanwhile. (c) as
 * many of our messages, posted open loop at the rate phase4 reached, without phase4 running: what
 * the rate alone costs B, so (b) less (c) is what sharing the machine with phase4 costs.
 *
 * Before phase 1, WARMUP documents are sent the same way and delivered, not counted: the figures
 * are those of a running access point, not of code the JIT has not compiled yet.
 *
 *   npm run bench:as4     Options (env): DOCUMENTS (2000), WARMUP (500), RATE (100), CONNECTIONS (16),
 *                         MESSAGES (2000), CONNECTIONS_AS4 (16), PG_STATS=1 (PostgreSQL's
 *                         per-statement account of phases 1 and 2), SERVICE_NODE_ARGS (flags for both
 *                         instances' node, e.g. --cpu-prof), END_TO_END=0 (phases 2 and 3 only),
 *                         PHASE4=0 (no phase 3; it is skipped with a note when the harness is not
 *                         built), PHASE4_MESSAGES (MESSAGES), PHASE4_LIVE (300), PHASE4_CONCURRENCY (4),
 *                         MLS_TYPE (ALWAYS_SEND)
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pgClient from 'pg';
import { startBenchPostgres } from './benchPostgres.js';
import { PgEventStore } from '../src/infrastructure/postgres/pgEventStore.js';
import { X509Certificate } from 'node:crypto';
import { invoiceWithLines } from './benchDocuments.js';
import { closedLoop, openLoop, percentile } from './openLoop.js';
import { cpuMs, postgresCpuMs, treeCpuMs } from './benchCpu.js';
import { startBenchService, type BenchService } from './benchService.js';
import { makeTestPki } from '../test/support/testPki.js';
import { startTestSml } from '../test/support/testSml.js';
import { accessPointEnv } from '../test/support/peppolNetwork.js';
import { smlNameOf } from '../test/support/as4Peers.js';
import { spidParticipantOfSeat } from '../src/domain/peppol/mls/serviceProviderId.js';
import { belgianNumber } from '../test/support/peppol.js';
import { buildAs4, invoiceSbdh, signingKeyOf } from '../test/support/as4Sender.js';
import { phase4Target } from '../test/support/phase4.js';
import { BIS_BILLING_INVOICE, BIS_BILLING_PROCESS } from '../src/domain/peppol/smpDocuments.js';
import { capturePhase4Messages, sendWithPhase4 } from './benchPhase4.js';

const documents = Number(process.env.DOCUMENTS ?? 2000);
const warmup = Number(process.env.WARMUP ?? 500);
const rate = Number(process.env.RATE ?? 100);
const connections = Number(process.env.CONNECTIONS ?? 16);
const messages = Number(process.env.MESSAGES ?? 2000);
const connectionsAs4 = Number(process.env.CONNECTIONS_AS4 ?? 16);
const pgStats = process.env.PG_STATS === '1';
const endToEnd = process.env.END_TO_END !== '0';
const phase4Messages = Number(process.env.PHASE4_MESSAGES ?? messages);
const phase4Live = Number(process.env.PHASE4_LIVE ?? 300);
const phase4Concurrency = Number(process.env.PHASE4_CONCURRENCY ?? 4);
const mlsType = process.env.MLS_TYPE ?? 'ALWAYS_SEND';

const figures = (sorted: number[]) => ({
  p50: Math.round(percentile(sorted, 50)),
  p99: Math.round(percentile(sorted, 99)),
  max: Math.round(sorted[sorted.length - 1] ?? NaN),
});

async function main() {
  // Instance 3 is phase4's access point in phase 3 (only its keys are used).
  const pki = await makeTestPki({ instances: 3 });
  const sml = await startTestSml();
  const { dataDir, server: pg } = await startBenchPostgres(
    'bench-as4',
    ['bench_as4_1', 'bench_as4_2'],
    // PG_STATS=1: pg_stat_statements, for the account of a phase (below).
    pgStats ? { shared_preload_libraries: 'pg_stat_statements' } : {},
  );
  const operatorKey = 'op_bench_as4_key';
  const instances: Array<{ service: BenchService; events: PgEventStore; pool: pgClient.Pool }> = [];
  for (const i of [1, 2]) {
    const database = `bench_as4_${i}`;
    const port = 18_000 + i * 500 + Math.floor(Math.random() * 400);
    const base = `http://127.0.0.1:${port}`;
    const instanceDir = path.join(dataDir, `instance-${i}`);
    const service = await startBenchService({
      databaseUrl: pg.connectionString(database),
      dataDir: instanceDir,
      port,
      operatorKey,
      // MLS_TYPE (ALWAYS_SEND, the service's default, or FAILURE_ONLY): what A's SBDH asks B for.
      env: { ...accessPointEnv(pki, sml, i, base), ...(i === 1 ? { MLS_TYPE: mlsType } : {}) },
    });
    const pool = new pgClient.Pool({ connectionString: pg.connectionString(database), max: 4 });
    instances.push({ service, pool, events: new PgEventStore(pool, pg.connectionString(database)) });
  }
  const [a, b] = instances as [(typeof instances)[0], (typeof instances)[0]];
  // Each provider's SPID resolves to its own SMP, which publishes it for MLS: B's MLS reach A, as in
  // the network (A's SBDH asks for them, MLS_TYPE ALWAYS_SEND by default).
  for (const [i, instance] of instances.entries())
    sml.dns.pointToSmp(smlNameOf(spidParticipantOfSeat(pki.instance(i + 1).seatId)!, sml.zone), instance.service.base);
  // PG_STATS=1: PostgreSQL's own account (pg_stat_statements, both databases) of the phase it surrounds.
  const resetStatements = async () => {
    for (const { pool } of instances)
      await pool.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements; SELECT pg_stat_statements_reset()');
  };
  const printStatements = async (count: number, per: string) => {
    const { rows } = await a.pool.query(
      `SELECT d.datname AS db, round(calls::numeric / $1, 2) AS calls_each, round(total_exec_time::numeric / $1, 3) AS ms_each,
              left(regexp_replace(query, '\\s+', ' ', 'g'), 90) AS query
       FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid ORDER BY calls DESC, total_exec_time DESC LIMIT 30`,
      [count],
    );
    console.log(`PostgreSQL statements, ${per}:`);
    console.table(rows);
  };

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
  const cpuNow = async () => ({
    instance_a: await treeCpuMs(a.service.process.pid!),
    instance_b: await treeCpuMs(b.service.process.pid!),
    load_generator_and_measurement: await cpuMs(process.pid, false),
    postgres: await postgresCpuMs(dataDir),
  });

  // Phase 1 (END_TO_END=0 leaves it out): the documents' ids.
  const endToEndPhase = async (): Promise<string[]> => {
    process.stdout.write(`creating ${warmup} + ${documents} documents on A…\n`);
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

    // B answers every document with an MLS (A's SBDH asks ALWAYS_SEND): a document's work ends when
    // A has recorded it, so each phase waits for its MLS and the next starts on a quiet pair.
    let mlsOnA = 0;
    const mlsCounter = a.events.subscribeToAll({
      after: await a.events.headPosition(),
      onEvents: async (events) => {
        mlsOnA += events.filter((e) => e.type === 'MlsReceived').length;
      },
      onError: (error) => {
        console.error(error);
        process.exit(1);
      },
    });
    const mlsFor = async (count: number) => {
      while (mlsType === 'ALWAYS_SEND' && mlsOnA < count) await new Promise((r) => setTimeout(r, 200));
    };

    // The first sends run cold code (JIT) on both sides and open the connections: they are sent and
    // delivered first, and not counted, so the figures are those of a running access point.
    process.stdout.write(`warm-up: sending ${warmup} at ${rate}/s…\n`);
    await sendAll(warmupIds);
    for (let inInbox = 0; inInbox < warmup;) {
      await new Promise((r) => setTimeout(r, 500));
      inInbox = (await call(b.service.base, 'GET', '/api/inbox/?search=WARMUP-&page_size=1', buyerKey)).total as number;
    }
    await mlsFor(warmup);

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
            // Only this phase's documents (a warm-up document may be recorded SENT after it began).
            if (e.type === 'DocumentSent' && requestedAt.has(data.document_id))
              sentAt.set(data.document_id, Date.parse(e.recordedAt));
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
    if (pgStats) await resetStatements();
    const cpuBefore = await cpuNow();
    const started = Date.now();
    const sends = await sendAll(ids);
    await settled;
    const lastInInbox = Math.max(...receivedAt.values());
    await mlsFor(warmup + documents - failed);
    const cpuAfter = await cpuNow();
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
    if (pgStats) await printStatements(documents, 'per document of phase 1');
    await Promise.all([...subscriptions, mlsCounter].map((s) => s.stop()));
    return ids;
  };
  const ids = endToEnd ? await endToEndPhase() : await create(1, 'AS4');

  const ubl = await (
    await fetch(`${a.service.base}/api/documents/${ids[0]}/ubl?format=xml`, {
      headers: { Authorization: `Bearer ${sellerKey}` },
    })
  ).text();
  /** Posts `built` to B's /as4 closed loop: B's and PostgreSQL's CPU per message, and what B answered. */
  /** The i-th of `built` posted to B's /as4. */
  const as4Post = (built: Array<{ contentType: string; body: Buffer }>) => (i: number) => ({
    method: 'POST',
    path: '/as4',
    headers: { 'Content-Type': built[i]!.contentType },
    body: built[i]!.body,
  });
  const postToB = async (built: Array<{ contentType: string; body: Buffer }>) => {
    let receipts = 0;
    const bBefore = await treeCpuMs(b.service.process.pid!);
    const pgBefore = await postgresCpuMs(dataDir);
    const posted = await closedLoop({
      base: b.service.base,
      count: built.length,
      connections: connectionsAs4,
      request: as4Post(built),
      onResponse: (_i: number, text: string) => {
        if (text.includes('Receipt')) receipts++;
      },
    });
    const bCpu = (await treeCpuMs(b.service.process.pid!)) - bBefore;
    const pgCpu = (await postgresCpuMs(dataDir)) - pgBefore;
    const latency = [...posted.latencies].sort((x, y) => x - y);
    return {
      messages: built.length,
      connections: connectionsAs4,
      statuses: posted.statusCounts,
      receipts,
      messages_per_second: Math.round((built.length / posted.elapsedMs) * 1000),
      latency_ms: { p50: Math.round(percentile(latency, 50)), p99: Math.round(percentile(latency, 99)) },
      cpu_ms_per_message: { b: +(bCpu / built.length).toFixed(2), postgres: +(pgCpu / built.length).toFixed(2) },
    };
  };
  const from = { ...signingKeyOf(pki.instance(1)), seatId: pki.instance(1).seatId };
  const receiverCertificate = new X509Certificate(await readFile(pki.instance(2).certificateFile));
  const buildOurs = async (count: number) => {
    const built: Array<{ contentType: string; body: Buffer }> = [];
    for (let i = 0; i < count; i++)
      built.push(
        await buildAs4({
          sbdh: invoiceSbdh(sellerId, buyerId),
          businessDocument: ubl,
          from,
          toSeatId: pki.instance(2).seatId,
          receiverCertificate,
        }),
      );
    return built;
  };
  if (!endToEnd) {
    // B has not received anything yet: its first messages run cold code (JIT), not counted.
    process.stdout.write(`phase 2: warm-up, ${warmup} messages to B…\n`);
    await postToB(await buildOurs(warmup));
  }
  process.stdout.write(`phase 2: building ${messages} AS4 messages as POP000001, posting them to B's /as4…\n`);
  const ourMessages = await buildOurs(messages);
  if (pgStats) await resetStatements();
  const selfBuilt = await postToB(ourMessages);
  console.log(JSON.stringify({ endpoint: selfBuilt }, null, 2));
  if (pgStats) await printStatements(messages, 'per message of phase 2');

  const harness = phase4Target();
  if (process.env.PHASE4 === '0' || harness.kind === 'none') {
    console.log(`phase 3 (phase4 as the sender) skipped: ${harness.kind === 'none' ? harness.why : 'PHASE4=0'}`);
  } else {
    const invoiceFile = path.join(dataDir, 'invoice.xml');
    await writeFile(invoiceFile, ubl);
    const phase4 = {
      ap: pki.instance(3),
      receiverCertificateFile: pki.instance(2).certificateFile,
      payloadFile: invoiceFile,
      from: sellerId,
      to: buyerId,
      doctype: BIS_BILLING_INVOICE,
      process: BIS_BILLING_PROCESS,
      concurrency: phase4Concurrency,
    };
    process.stdout.write(`phase 3: phase4 builds ${phase4Messages} messages for B (captured, not timed)…\n`);
    const captured = await capturePhase4Messages({ ...phase4, count: phase4Messages });
    process.stdout.write(`phase 3: posting them to B's /as4 over ${connectionsAs4} connections…\n`);
    const phase4Built = await postToB(captured);
    process.stdout.write(`phase 3: B idle for 10 s, then phase4 sends ${phase4Live} messages to B itself…\n`);
    const idleBefore = { b: await treeCpuMs(b.service.process.pid!), postgres: await postgresCpuMs(dataDir) };
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    const idle = {
      b: ((await treeCpuMs(b.service.process.pid!)) - idleBefore.b) / 10,
      postgres: ((await postgresCpuMs(dataDir)) - idleBefore.postgres) / 10,
    };
    const liveBefore = { b: await treeCpuMs(b.service.process.pid!), postgres: await postgresCpuMs(dataDir) };
    const live = await sendWithPhase4({ ...phase4, endpoint: `${b.service.base}/as4`, count: phase4Live });
    const liveCpu = {
      b: (await treeCpuMs(b.service.process.pid!)) - liveBefore.b,
      postgres: (await postgresCpuMs(dataDir)) - liveBefore.postgres,
    };
    const perMessage = (ms: number) => +(ms / phase4Live).toFixed(2);
    // Ours at phase4's rate, open loop, without phase4's JVM beside B: what the rate alone costs.
    process.stdout.write(`phase 3: our messages at phase4's rate (${live.perSecond}/s)…\n`);
    const ours = await buildOurs(phase4Live);
    const paceBefore = { b: await treeCpuMs(b.service.process.pid!), postgres: await postgresCpuMs(dataDir) };
    const paced = await openLoop({
      base: b.service.base,
      rate: live.perSecond,
      count: ours.length,
      connections: phase4Concurrency,
      request: as4Post(ours),
    });
    const pacedCpu = {
      b: (await treeCpuMs(b.service.process.pid!)) - paceBefore.b,
      postgres: (await postgresCpuMs(dataDir)) - paceBefore.postgres,
    };
    console.log(
      JSON.stringify(
        {
          endpoint_by_sender: {
            self_built: selfBuilt.cpu_ms_per_message,
            phase4_built: phase4Built.cpu_ms_per_message,
          },
          phase4_built: phase4Built,
          phase4_live: {
            messages: phase4Live,
            concurrency: phase4Concurrency,
            receipts_verified_by_phase4: live.verified,
            messages_per_second: live.perSecond,
            cpu_ms_per_message: { b: perMessage(liveCpu.b), postgres: perMessage(liveCpu.postgres) },
            idle_cpu_ms_per_second: { b: +idle.b.toFixed(1), postgres: +idle.postgres.toFixed(1) },
          },
          self_built_at_phase4_rate: {
            messages: ours.length,
            statuses: paced.statusCounts,
            cpu_ms_per_message: { b: perMessage(pacedCpu.b), postgres: perMessage(pacedCpu.postgres) },
          },
        },
        null,
        2,
      ),
    );
  }

  // B first: its last MLS to A are not refused by a stopped A.
  for (const instance of [...instances].reverse()) {
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
