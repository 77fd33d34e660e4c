/**
 * What a document with many attachments, added one by one, costs in storage: the bytes of each
 * event of its stream, and the blobs (docs/internals/blob-store.md, "Payloads by reference"). Not a timing: sizes only.
 *   npm run measure:attachments       Options (env): ATTACHMENTS (20), MIN_KB (50), MAX_KB (200)
 */
import { rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { pino } from 'pino';
import { startBenchPostgres } from './benchPostgres.js';
import { loadConfig } from '../src/infrastructure/config.js';
import { Service } from '../src/service.js';
import { invoiceWithLines } from './benchDocuments.js';

const attachments = Number(process.env.ATTACHMENTS ?? 20);
const minKb = Number(process.env.MIN_KB ?? 50);
const maxKb = Number(process.env.MAX_KB ?? 200);

/** Sizes spread evenly between MIN_KB and MAX_KB, the same on every run; contents are random (incompressible). */
const sizeOf = (i: number) => Math.round((minKb + ((maxKb - minKb) * i) / Math.max(1, attachments - 1)) * 1024);

async function main() {
  const { dataDir: dir, server } = await startBenchPostgres('measure-attachments', ['measure']);
  const databaseUrl = server.connectionString('measure');
  const operatorKey = `op_measure_${randomBytes(16).toString('hex')}`;
  const config = {
    ...loadConfig({}),
    dataDir: dir,
    operatorKey,
    rateLimitStandardPerMinute: 0,
    rateLimitPremiumPerMinute: 0,
    rateLimitAdminPerMinute: 0,
    rateLimitAdminPerHour: 0,
  };
  const service = await Service.create({ config, logger: pino({ level: 'warn' }), databaseUrl });
  await service.start();
  const http = service.app.listen(0, '127.0.0.1');
  await new Promise((resolve) => http.once('listening', resolve));
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const pool = new pg.Pool({ connectionString: databaseUrl });
  try {
    const call = async (method: string, url: string, key: string, body?: unknown) => {
      const res = await fetch(`${base}${url}`, {
        method,
        headers: {
          Authorization: `Bearer ${key}`,
          ...(body instanceof FormData ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
      return (await res.json()) as Record<string, any>;
    };
    const org = await call('POST', '/api/operator/organizations', operatorKey, { name: 'Measure' });
    const tenant = await call('POST', '/api/admin/tenants', org.admin_key.key, { name: 'measure' });
    const key = (await call('POST', `/api/admin/tenants/${tenant.id}/api-keys`, org.admin_key.key, { name: 'app' }))
      .key as string;
    const doc = await call('POST', '/api/documents', key, invoiceWithLines(10));
    let fileBytes = 0;
    for (let i = 0; i < attachments; i++) {
      const content = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(sizeOf(i) - 9)]);
      fileBytes += content.length;
      const form = new FormData();
      form.append(
        'file',
        new Blob([content], { type: 'application/pdf' }),
        `attachment-${String(i + 1).padStart(2, '0')}.pdf`,
      );
      await call('POST', `/api/documents/${doc.id}/attachments`, key, form);
    }
    const { rows: events } = await pool.query<{ type: string; bytes: string; stored: string }>(
      `SELECT type, octet_length(data::text)::text AS bytes, pg_column_size(data)::text AS stored FROM es_events WHERE stream_name = $1 ORDER BY stream_revision`,
      [`document-${doc.id}`],
    );
    const added = events.filter((e) => e.type === 'AttachmentAdded').map((e) => Number(e.bytes));
    const blobs = (await pool.query<{ to_regclass: string | null }>(`SELECT to_regclass('blobs')`)).rows[0]?.to_regclass
      ? (
          await pool.query<{ n: string; bytes: string | null }>(
            'SELECT count(*)::text AS n, sum(size)::text AS bytes FROM blobs',
          )
        ).rows[0]!
      : { n: '0', bytes: '0' };
    console.log(
      JSON.stringify(
        {
          attachments,
          attachment_bytes: fileBytes,
          event_store: {
            document_stream_bytes: events.reduce((n, e) => n + Number(e.bytes), 0),
            document_stream_bytes_after_toast: events.reduce((n, e) => n + Number(e.stored), 0),
            created_bytes: Number(events[0]!.bytes),
            attachment_event_bytes: {
              min: Math.min(...added),
              mean: Math.round(added.reduce((a, b) => a + b, 0) / added.length),
              max: Math.max(...added),
            },
          },
          blobs: { count: Number(blobs.n), bytes: Number(blobs.bytes ?? 0) },
        },
        null,
        2,
      ),
    );
  } finally {
    await new Promise<void>((resolve) => http.close(() => resolve()));
    await pool.end();
    await service.stop();
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
