import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import supertest from 'supertest';
import type { AddressInfo } from 'node:net';
import EInvoice from 'e-invoice-api';
import { expect } from 'chai';
import { loadConfig, type Config } from '../../src/infrastructure/config.js';
import { Service } from '../../src/service.js';
import { freshDatabase } from './postgres.js';
import type { CompositionOptions } from '../../src/composition/options.js';

export interface TestService {
  service: Service;
  http: ReturnType<typeof supertest>;
  operatorKey: string;
  databaseUrl: string;
  stop(): Promise<void>;
}

/** The real service (real PostgreSQL, real projections and jobs) on a fresh database. */
export async function startTestService(
  overrides: Partial<Config> = {},
  databaseUrl?: string,
  wiring: Pick<
    CompositionOptions,
    'deliveryRetryUnitMs' | 'webhookTimeoutMs' | 'webhookResolveHost' | 'ruleSetClock'
  > & {
    /** Where the service logs (tests that read the log give one); silent by default. */
    logger?: CompositionOptions['logger'];
    /** A job's lock lifetime must exceed its longest run: longer for jobs that wait on a JVM peer. */
    jobLockLifetimeMs?: number;
  } = {},
): Promise<TestService> {
  const url = databaseUrl ?? (await freshDatabase('api'));
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'invoicing-data-'));
  const operatorKey = `op_test_${randomBytes(16).toString('hex')}`;
  // Suites that are not about rate limits send many requests with one key: unlimited (0) unless
  // a test sets limits.
  const unlimited = {
    rateLimitStandardPerMinute: 0,
    rateLimitPremiumPerMinute: 0,
    rateLimitAdminPerMinute: 0,
    rateLimitAdminPerHour: 0,
  };
  // Webhook subscribers in tests listen on loopback.
  const config = {
    ...loadConfig({}),
    dataDir,
    operatorKey,
    ...unlimited,
    webhookAllowPrivateNetworks: true,
    ...overrides,
  };
  const { logger, jobLockLifetimeMs, ...rest } = wiring;
  const service = await Service.create({
    config,
    logger: logger ?? pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    databaseUrl: url,
    jobs: { processEveryMs: 100, lockLifetimeMs: jobLockLifetimeMs ?? 2000 },
    ...rest,
  });
  await service.start();
  return {
    service,
    http: supertest(service.app),
    operatorKey,
    databaseUrl: url,
    stop: async () => {
      await service.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

/** Operator creates an organization; returns its id and admin key. */
export async function createOrganization(t: TestService, name = 'Reseller'): Promise<{ id: string; adminKey: string }> {
  const res = await t.http.post('/api/operator/organizations').set(bearer(t.operatorKey)).send({ name });
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  return { id: res.body.id, adminKey: res.body.admin_key.key };
}

/** Organization creates a tenant with a key; returns ids and the tenant key. */
export async function createTenant(
  t: TestService,
  adminKey: string,
  name = `tenant-${randomBytes(4).toString('hex')}`,
  profile: { peppol_ids?: string[]; company_tax_id?: string } = {},
): Promise<{ id: string; key: string; keyId: string }> {
  const tenant = await t.http
    .post('/api/admin/tenants')
    .set(bearer(adminKey))
    .send({ name, ...profile });
  expect(tenant.status, JSON.stringify(tenant.body)).to.equal(201);
  const key = await t.http
    .post(`/api/admin/tenants/${tenant.body.id}/api-keys`)
    .set(bearer(adminKey))
    .send({ name: 'app' });
  expect(key.status, JSON.stringify(key.body)).to.equal(201);
  return { id: tenant.body.id, key: key.body.key, keyId: key.body.id };
}

/** Polls a document until it reaches one of the states (deliveries run as background jobs). */
export async function waitForState(
  t: TestService,
  key: string,
  documentId: string,
  states: string[],
  timeoutMs = 30_000,
  path = `/api/documents/${documentId}`,
): Promise<Record<string, unknown>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await t.http.get(path).set(bearer(key));
    if (res.status === 200 && states.includes(res.body.state)) return res.body;
    if (Date.now() > deadline)
      throw new Error(
        `document ${documentId} did not reach ${states.join('/')}; last: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`,
      );
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Polls until `check` returns a value (not undefined/false). */
export async function eventually<T>(
  check: () => Promise<T | undefined | false>,
  what: string,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The public e-invoice-api client against the app listening on a loopback port. */
export async function publicClient(
  t: TestService,
  apiKey: string,
): Promise<{ client: EInvoice; close(): Promise<void> }> {
  const server = t.service.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const client = new EInvoice({
    apiKey,
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    maxRetries: 0,
  });
  return { client, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** A logger whose records (at `level` and above) are kept in `records`, parsed: for tests that read the log. */
export function capturingLogger(level = 'warn'): {
  logger: CompositionOptions['logger'];
  records: Array<Record<string, unknown>>;
} {
  const records: Array<Record<string, unknown>> = [];
  const logger: CompositionOptions['logger'] = pino(
    { level },
    {
      write(line: string) {
        records.push(JSON.parse(line) as Record<string, unknown>);
      },
    },
  );
  return { logger, records };
}
