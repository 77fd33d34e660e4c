import { createHash } from 'node:crypto';
import type pg from 'pg';
import { bearer, type TestService } from './service.js';
import { binary } from './pdfFiles.js';

/*
 * What the API and the document read models answer about documents, gathered the same way when
 * the before-blobs fixture was recorded (test/fixtures/streams/recordBeforeBlobs.ts) and when
 * today's code replays it (test/application/upcastBeforeBlobs.test.ts).
 */

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Every GET answer about one document, as the fixture keeps them. */
export async function documentAnswers(
  t: TestService,
  key: string,
  id: string,
  inbound: boolean,
): Promise<Record<string, unknown>> {
  const get = (p: string) => t.http.get(p).set(bearer(key));
  const doc = await get(`/api/documents/${id}`);
  const answers: Record<string, unknown> = { document: { status: doc.status, body: doc.body } };
  // A deleted document's history stays readable, for audit.
  answers.history = (await get(`/api/documents/${id}/history`)).body;
  answers.transmission_report = (await get(`/api/documents/${id}/transmission-report`)).body;
  if (doc.status !== 200) return answers;
  answers.ubl = (await get(`/api/documents/${id}/ubl`)).body;
  answers.ubl_xml = (await get(`/api/documents/${id}/ubl?format=xml`)).text;
  answers.attachments = (await get(`/api/documents/${id}/attachments`)).body;
  const files: Record<string, unknown> = {};
  for (const a of answers.attachments as Array<{ id: string }>) {
    const meta = (await get(`/api/documents/${id}/attachments/${a.id}`)).body;
    const content = await get(`/api/documents/${id}/attachments/${a.id}?download=true`).buffer(true).parse(binary);
    files[a.id] = {
      meta,
      content_type: content.headers['content-type'],
      base64: (content.body as Buffer).toString('base64'),
    };
  }
  answers.attachment_files = files;
  const pdf = await get(`/api/documents/${id}/pdf`).buffer(true).parse(binary);
  const bytes = pdf.body as Buffer;
  // A PDF rendered on demand carries the time it was made: only a carried one has fixed bytes.
  const carried = (doc.body.attachments as Array<{ file_name: string; file_type: string }>).some(
    (a) =>
      a.file_type === 'application/pdf' &&
      a.file_name === `${(doc.body.invoice_id as string).replace(/[^A-Za-z0-9._-]/g, '_')}.pdf`,
  );
  answers.pdf = {
    status: pdf.status,
    content_type: pdf.headers['content-type'],
    disposition: pdf.headers['content-disposition'],
    carried,
    sha256: carried ? sha(bytes) : null,
    size: carried ? bytes.length : null,
  };
  if (inbound) answers.inbox = (await get(`/api/inbox/${id}`)).body;
  return answers;
}

/** The list answers of one tenant. */
export async function listAnswers(t: TestService, key: string): Promise<Record<string, unknown>> {
  const get = async (p: string) => (await t.http.get(p).set(bearer(key))).body;
  return {
    documents: await get('/api/documents'),
    outbox: await get('/api/outbox'),
    drafts: await get('/api/outbox/drafts'),
    inbox: await get('/api/inbox'),
    inbox_invoices: await get('/api/inbox/invoices'),
  };
}

/** The document read models' rows, as PostgreSQL holds them (jsonb text is canonical). */
export async function readModelRows(pool: pg.Pool): Promise<Record<string, Array<{ id: string; doc: string }>>> {
  const rows = async (table: string) =>
    (await pool.query<{ id: string; doc: string }>(`SELECT id, doc::text AS doc FROM ${table} ORDER BY id`)).rows;
  return { documents: await rows('rm_documents'), document_contents: await rows('rm_document_contents') };
}

/** Every read model's rows (the checkpoints aside), table by table, as PostgreSQL holds them. */
export async function allReadModelRows(pool: pg.Pool): Promise<Record<string, Array<{ id: string; doc: string }>>> {
  const { rows: tables } = await pool.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_name LIKE 'rm\\_%' AND table_name <> 'rm_checkpoints' ORDER BY table_name`,
  );
  const all: Record<string, Array<{ id: string; doc: string }>> = {};
  for (const { name } of tables)
    all[name] = (
      await pool.query<{ id: string; doc: string }>(`SELECT id, doc::text AS doc FROM ${name} ORDER BY id`)
    ).rows;
  return all;
}
