/**
 * Fills an instance with documents for measuring backups and restores:
 *   npm run generate-documents -- <count> [concurrency]
 * Same settings as `npm start` (DATA_DIR or DATABASE_URL; BLOB_STORE), with no service running on
 * them. One document is created through the API (checked, its UBL written), then `count` copies
 * of it, each with a number of its own in its content and its UBL, are recorded through the
 * application's createDraft (what a PDF upload records: the content and the UBL go to the blob
 * store, a DocumentCreated to the event log) without checking each again; the projections run
 * as in the service, and the script waits for them to catch up. Each document is two blobs (its
 * content and its UBL, ~2 and ~6 KB) and one event (~1 KB).
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { loadConfig } from '../src/infrastructure/config.js';
import { createLogger } from '../src/infrastructure/logger.js';
import { Service } from '../src/service.js';
import { DocumentCommands } from '../src/application/documents/documentCommands.js';
import type { DocumentJson } from '../src/domain/document/invoice/documentJson.js';
import { PG_POOL } from '../src/infrastructure/postgres/tokens.js';
import type pg from 'pg';
import { invoiceWithLines } from './benchDocuments.js';
import { OPERATOR } from '../src/application/actor.js';

async function main(): Promise<void> {
  const count = Number(process.argv[2] ?? 100_000);
  const concurrency = Number(process.argv[3] ?? 32);
  if (!Number.isInteger(count) || count < 1 || !Number.isInteger(concurrency) || concurrency < 1) {
    console.error('usage: npm run generate-documents -- <count> [concurrency]');
    process.exit(2);
  }
  const operatorKey = `op_generate_${Date.now()}_0123456789`;
  const config = { ...loadConfig(), operatorKey, rateLimitAdminPerMinute: 0, rateLimitStandardPerMinute: 0 };
  const logger = createLogger(config.logLevel);
  const service = await Service.create({ config, logger });
  await service.start();
  const server: Server = await service.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const call = async (method: string, route: string, key: string, body?: unknown) => {
    const res = await fetch(`${base}${route}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, unknown>;
  };
  try {
    const org = await call('POST', '/api/operator/organizations', operatorKey, { name: 'Generated' });
    const adminKey = (org.admin_key as { key: string }).key;
    const tenant = await call('POST', '/api/admin/tenants', adminKey, { name: `generated-${Date.now()}` });
    const key = (await call('POST', `/api/admin/tenants/${String(tenant.id)}/api-keys`, adminKey, { name: 'app' }))
      .key as string;
    const template = await call('POST', '/api/documents', key, { ...invoiceWithLines(5), invoice_id: 'GEN-TEMPLATE' });
    const ubl = await (
      await fetch(`${base}/api/documents/${String(template.id)}/ubl?format=xml`, {
        headers: { Authorization: `Bearer ${key}` },
      })
    ).text();
    const document = (await service.resolve(DocumentCommands).get(String(tenant.id), String(template.id))).document;
    const { state: _state, direction: _direction, ...content } = document as DocumentJson & Record<string, unknown>;

    const commands = service.resolve(DocumentCommands);
    const started = Date.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < count) {
          const n = next++;
          const number = `GEN-${String(n).padStart(9, '0')}`;
          await commands.createDraft(
            String(tenant.id),
            'json',
            { ...(content as DocumentJson), invoice_id: number },
            ubl.replaceAll('GEN-TEMPLATE', number),
            `${number}.xml`,
            // Run by the operator (a load test's data).
            { actor: OPERATOR, tenantId: String(tenant.id) },
          );
          if ((n + 1) % 10_000 === 0)
            console.log(`${n + 1} documents, ${((Date.now() - started) / 1000).toFixed(0)} s`);
        }
      }),
    );
    const recorded = Date.now();
    const head = await service.eventStore.headPosition();
    while (!(await service.projections.waitFor(head, 60_000))) console.log('projections catching up');
    const { rows } = await service
      .resolve<pg.Pool>(PG_POOL)
      .query<{ size: string }>('SELECT pg_size_pretty(pg_database_size(current_database())) AS size');
    console.log(
      `${count} documents recorded in ${((recorded - started) / 1000).toFixed(0)} s, projected ${((Date.now() - recorded) / 1000).toFixed(0)} s later; ` +
        `log head ${head}, database ${rows[0]!.size}`,
    );
  } finally {
    await service.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
