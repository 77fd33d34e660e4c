/**
 * Benchmark of the Peppol SMP and lookup, on loopback:
 *   1. GET of a signed ServiceMetadata from our SMP (autocannon): signing every response is the cost;
 *   2. GET /api/lookup of a participant of another instance: SML DNS (a DNS server on a loopback
 *      port) → ServiceGroup → two signed ServiceMetadata (verified) → business card, sequentially;
 *   3. GET /api/lookup of a participant of this instance (answered from the registry).
 *   npm run bench:peppol          Options (env): SECONDS (10), CONNECTIONS (8), LOOKUPS (100)
 * It uses the tests' DNS server and openssl-made certificates (test/support).
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { pino } from 'pino';
import { loadConfig, type Config } from '../src/infrastructure/config.js';
import { loadPeppolConfig, type PeppolConfig } from '../src/infrastructure/peppolConfig.js';
import { startBenchPostgres } from './benchPostgres.js';
import { Service } from '../src/service.js';
import { smlDnsName } from '../src/application/peppol/smlDnsName.js';
import { startDnsServer } from '../test/support/dnsServer.js';
import { makeTestCertificate } from '../test/support/testCertificate.js';

const seconds = Number(process.env.SECONDS ?? 10);
const connections = Number(process.env.CONNECTIONS ?? 8);
const lookups = Number(process.env.LOOKUPS ?? 100);
const ZONE = 'sml.bench.test';

async function startService(dataDir: string, databaseUrl: string, peppol: Partial<PeppolConfig>) {
  const config: Config = {
    ...loadConfig({}),
    dataDir,
    operatorKey: 'op_bench_peppol_key',
    rateLimitStandardPerMinute: 0,
    rateLimitPremiumPerMinute: 0,
    rateLimitAdminPerMinute: 0,
    rateLimitAdminPerHour: 0,
    peppol: { ...loadPeppolConfig({}), ...peppol },
  };
  const service = await Service.create({ config, logger: pino({ level: 'silent' }), databaseUrl });
  await service.start();
  const server = await service.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const call = async (method: string, route: string, key: string, payload?: unknown) =>
    (await fetch(`${base}${route}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      ...(payload === undefined ? {} : { body: JSON.stringify(payload) }),
    }).then((r) => r.json())) as Record<string, any>;
  /** A tenant registered as `peppolId`; returns its key. */
  const registered = async (peppolId: string | null) => {
    const org = await call('POST', '/api/operator/organizations', config.operatorKey!, { name: 'bench' });
    const tenant = await call('POST', '/api/admin/tenants', org.admin_key.key, {
      name: `bench-${Math.random().toString(36).slice(2)}`,
    });
    if (peppolId)
      await call('POST', `/api/admin/tenants/${tenant.id}/peppol/register`, org.admin_key.key, {
        peppol_id: peppolId,
        company_name: 'Bench NV',
      });
    return (await call('POST', `/api/admin/tenants/${tenant.id}/api-keys`, org.admin_key.key, { name: 'bench' }))
      .key as string;
  };
  return { service, base, call, registered };
}

function summary(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => +sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(1);
  return {
    lookups: samples.length,
    mean_ms: +(samples.reduce((a, b) => a + b, 0) / samples.length).toFixed(1),
    p50_ms: at(0.5),
    p99_ms: at(0.99),
  };
}

async function main() {
  const { dataDir, server: pg } = await startBenchPostgres('bench-peppol', ['bench_remote', 'bench_local']);
  const dns = await startDnsServer();
  const [signing, ap] = await Promise.all([
    makeTestCertificate('smp.bench.test'),
    makeTestCertificate('ap.bench.test'),
  ]);
  const signed = {
    smpSigningKeyFile: signing.keyFile,
    smpSigningCertificateFile: signing.certificateFile,
    as4CertificateFile: ap.certificateFile,
  };
  const remote = await startService(path.join(dataDir, 'remote'), pg.connectionString('bench_remote'), signed);
  const local = await startService(path.join(dataDir, 'local'), pg.connectionString('bench_local'), {
    ...signed,
    smlDnsZone: ZONE,
    smlDnsServer: dns.address,
  });

  const remoteId = '0208:0123456749';
  await remote.registered(remoteId);
  dns.pointToSmp(smlDnsName({ scheme: '0208', identifier: '0123456749' }, ZONE), remote.base);
  const localId = '0208:0202239951';
  const key = await local.registered(localId);
  await remote.service.projections.catchUp();
  await local.service.projections.catchUp();

  const metadataUrl = `${remote.base}/${encodeURIComponent(`iso6523-actorid-upis::${remoteId}`)}/services/${encodeURIComponent(
    'busdox-docid-qns::urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1',
  )}`;
  const smp = await autocannon({ url: metadataUrl, connections, duration: seconds });

  const timed = async (peppolId: string, expectSource: string) => {
    const samples: number[] = [];
    for (let i = 0; i < lookups; i++) {
      const started = performance.now();
      const result = await local.call('GET', `/api/lookup?peppol_id=${encodeURIComponent(peppolId)}`, key);
      samples.push(performance.now() - started);
      if (result.status !== 'success' || result.queryMetadata.source !== expectSource)
        throw new Error(JSON.stringify(result.errors));
    }
    return summary(samples);
  };
  await timed(remoteId, 'sml'); // warm-up
  const results = {
    smp_signed_service_metadata: {
      requests_per_second: Math.round(smp.requests.average),
      latency_ms: { p50: smp.latency.p50, p99: smp.latency.p99 },
      non_2xx: smp.non2xx,
    },
    lookup_remote_via_dns_and_smp: await timed(remoteId, 'sml'),
    lookup_local_registry: await timed(localId, 'local'),
  };
  console.log(JSON.stringify(results, null, 2));

  await local.service.stop();
  await remote.service.stop();
  await dns.close();
  await signing.dispose();
  await ap.dispose();
  await pg.stop();
  await rm(dataDir, { recursive: true, force: true });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
