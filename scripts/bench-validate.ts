/**
 * Benchmark of JSON → UBL → validation (EN 16931 + Peppol rules):
 *   1. in-process: decode, totals, UBL writing and every rule, per document (what
 *      POST /api/validate/json and POST /api/documents do; uploaded UBL also meets the XSD);
 *   2. over HTTP: POST /api/validate/json against the real service (autocannon).
 *   npm run bench:validate        Options (env): SECONDS (10), CONNECTIONS (8)
 */
import { rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { pino } from 'pino';
import { decodeDocumentInput } from '../src/http/codecs/documentCodec.js';
import { checkDocument } from '../src/domain/document/rules/documentCheck.js';
import { loadConfig } from '../src/infrastructure/config.js';
import { startBenchPostgres } from './benchPostgres.js';
import { Service } from '../src/service.js';
import { invoiceWithLines } from './benchDocuments.js';

const seconds = Number(process.env.SECONDS ?? 10);
const connections = Number(process.env.CONNECTIONS ?? 8);

function inProcess(body: Record<string, unknown>, minMs = 3000) {
  const run = () => {
    const decoded = decodeDocumentInput(body);
    if (!decoded.ok) throw new Error(JSON.stringify(decoded.errors));
    const check = checkDocument(decoded.value);
    if (!check.isValid) throw new Error(JSON.stringify(check.issues.slice(0, 3)));
  };
  for (let i = 0; i < 20; i++) run(); // warm-up (JIT)
  let n = 0;
  const started = process.hrtime.bigint();
  let elapsed = 0;
  while (elapsed < minMs) {
    run();
    n++;
    elapsed = Number(process.hrtime.bigint() - started) / 1e6;
  }
  return {
    documents: n,
    ms_per_document: +(elapsed / n).toFixed(3),
    documents_per_second: Math.round((n / elapsed) * 1000),
  };
}

async function overHttp(body: Record<string, unknown>) {
  const { dataDir, server: pg } = await startBenchPostgres('bench-validate', ['bench']);
  // Rate limits are for tenants' fair use, not for this measurement.
  for (const name of [
    'RATE_LIMIT_STANDARD_PER_MINUTE',
    'RATE_LIMIT_PREMIUM_PER_MINUTE',
    'RATE_LIMIT_ADMIN_PER_MINUTE',
    'RATE_LIMIT_ADMIN_PER_HOUR',
  ]) {
    process.env[name] = '100000000';
  }
  const operatorKey = 'op_bench_validate_key';
  const service = await Service.create({
    config: { ...loadConfig(process.env), dataDir, operatorKey },
    logger: pino({ level: 'silent' }),
    databaseUrl: pg.connectionString('bench'),
  });
  await service.start();
  const server = await service.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const post = async (route: string, key: string, payload: unknown) =>
    (
      await fetch(`${base}${route}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(payload),
      })
    ).json() as Promise<Record<string, any>>;
  const org = await post('/api/operator/organizations', operatorKey, { name: 'bench' });
  const tenant = await post('/api/admin/tenants', org.admin_key.key, { name: 'bench-tenant' });
  const key = await post(`/api/admin/tenants/${tenant.id}/api-keys`, org.admin_key.key, { name: 'bench' });

  const result = await autocannon({
    url: `${base}/api/validate/json`,
    method: 'POST',
    connections,
    duration: seconds,
    headers: { Authorization: `Bearer ${key.key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  await service.stop();
  await pg.stop();
  await rm(dataDir, { recursive: true, force: true });
  return {
    requests_per_second: Math.round(result.requests.average),
    latency_ms: { p50: result.latency.p50, p99: result.latency.p99 },
    non_2xx: result.non2xx,
    errors: result.errors,
  };
}

async function main() {
  const results = {
    in_process: {
      invoice_10_lines: inProcess(invoiceWithLines(10)),
      invoice_500_lines: inProcess(invoiceWithLines(500)),
    },
    http_validate_json_10_lines: await overHttp(invoiceWithLines(10)),
  };
  console.log(JSON.stringify(results, null, 2));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
