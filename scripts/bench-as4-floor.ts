/**
 * What receiving an AS4 message costs at the least on this machine: a bare receiver
 * (as4FloorReceiver.ts: node:http, no framework, no XML) posted an AS4 message like those of
 * `bench:as4`'s phase 2 (one of ours for a 10-line invoice, 16 clients, closed loop), one step of
 * the work every receiver must do added per mode: `http` (read, answer), `keys` (the two RSA-2048
 * private-key operations), `store` (one durable INSERT), `rules` (the invoice's reading and business
 * rules). The figures are the receiver's and PostgreSQL's CPU per message, read the way `bench:as4`
 * reads B's, so the two compare: what the service spends beyond `rules` is its AS4 and XML work
 * (MIME, parsing, canonicalization, verification, decryption, SBDH), its storage (sealing, blobs,
 * the event, the chain) and its projections.
 *   npm run bench:as4-floor    Options (env): MESSAGES (2000), WARMUP (500), CONNECTIONS (16),
 *                              MODES (http,keys,store,rules)
 */
import { spawn } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { once } from 'node:events';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBenchPostgres } from './benchPostgres.js';
import { tenLineInvoiceUbl } from './benchDocuments.js';
import { closedLoop } from './openLoop.js';
import { postgresCpuMs, treeCpuMs } from './benchCpu.js';
import { makeTestPki } from '../test/support/testPki.js';
import { buildAs4, invoiceSbdh, signingKeyOf } from '../test/support/as4Sender.js';
import { freePort } from '../test/support/postgres.js';

const messages = Number(process.env.MESSAGES ?? 2000);
const warmup = Number(process.env.WARMUP ?? 500);
const connections = Number(process.env.CONNECTIONS ?? 16);
const modes = (process.env.MODES ?? 'http,keys,store,rules').split(',');
const receiverScript = fileURLToPath(new URL('./as4FloorReceiver.js', import.meta.url));

async function main() {
  const pki = await makeTestPki({ instances: 2 });
  const { dataDir, server: pg } = await startBenchPostgres('bench-as4-floor', ['bench_as4_floor']);
  const ubl = tenLineInvoiceUbl();
  const ublFile = path.join(dataDir, 'invoice.xml');
  await writeFile(ublFile, ubl);
  const message = await buildAs4({
    sbdh: invoiceSbdh('0208:0451234595', '0208:0987654394'),
    businessDocument: ubl,
    from: { ...signingKeyOf(pki.instance(1)), seatId: pki.instance(1).seatId },
    toSeatId: pki.instance(2).seatId,
    receiverCertificate: new X509Certificate(await readFile(pki.instance(2).certificateFile)),
  });

  const results: Record<string, unknown> = {};
  for (const mode of modes) {
    const port = await freePort();
    const receiver = spawn(process.execPath, [receiverScript], {
      env: {
        ...process.env,
        MODE: mode,
        PORT: String(port),
        DATABASE_URL: pg.connectionString('bench_as4_floor'),
        UBL_FILE: ublFile,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await once(receiver.stdout!, 'data');
    const post = (count: number) =>
      closedLoop({
        base: `http://127.0.0.1:${port}`,
        count,
        connections,
        request: () => ({
          method: 'POST',
          path: '/as4',
          headers: { 'Content-Type': message.contentType },
          body: message.body,
        }),
      });
    // Cold code (JIT) and new connections first, not counted.
    await post(warmup);
    const before = { receiver: await treeCpuMs(receiver.pid!), postgres: await postgresCpuMs(dataDir) };
    const posted = await post(messages);
    const after = { receiver: await treeCpuMs(receiver.pid!), postgres: await postgresCpuMs(dataDir) };
    const failed = Object.entries(posted.statusCounts).filter(([status]) => status !== '200');
    if (failed.length > 0) throw new Error(`${mode}: the receiver answered ${JSON.stringify(posted.statusCounts)}`);
    results[mode] = {
      messages_per_second: Math.round((messages / posted.elapsedMs) * 1000),
      cpu_ms_per_message: {
        receiver: +((after.receiver - before.receiver) / messages).toFixed(2),
        postgres: +((after.postgres - before.postgres) / messages).toFixed(2),
      },
    };
    receiver.kill();
    await once(receiver, 'exit');
  }
  console.log(JSON.stringify({ message_bytes: message.body.length, messages, connections, floor: results }, null, 2));
  await pg.stop();
  await rm(dataDir, { recursive: true, force: true });
  await pki.dispose();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
