import { expect } from 'chai';
import pg from 'pg';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PgReadModelStore } from '../../src/infrastructure/postgres/pgReadModelStore.js';
import { allProjections } from '../../src/projections/index.js';
import { resetProjection } from '../../src/projections/projectionRunner.js';
import { allReadModelRows } from '../support/documentAnswers.js';
import { databaseWithEvents, readFixture, type RawEvent } from '../support/recordedStreams.js';
import { bearer, startTestService, type TestService } from '../support/service.js';

/** test/fixtures/upgrade/history.json (recordUpgradeFixture.ts says how it was made). */
interface UpgradeFixture {
  recorded_by: string;
  keys: Record<string, string>;
  documents: Record<string, { id: string; tenant: string }>;
  events: RawEvent[];
  blobs: Array<{ sha256: string; base64: string }>;
  read_models: Record<string, Array<Record<string, unknown>>>;
}

interface BeforeBlobs {
  keys: Record<string, string>;
  documents: Record<string, { id: string; tenant: string; answers: { document: { status: number } } }>;
}

const EXPECTED = path.resolve('test/fixtures/upgrade/expected-read-models.json');

/**
 * Today's service started on the event log, blob store and read models two earlier versions left
 * (c92d852, whose events carried their payloads, then db9bd17, which added the blob store, AS4
 * and Invoice Responses over AS4): it starts, every document is readable, the old events go
 * through the upcaster, and rebuilding every projection from the first event gives the read
 * models db9bd17 had built, row for row.
 */
describe('Upgrade: the data of earlier versions on today’s code (real PostgreSQL)', function () {
  this.timeout(180_000);
  let fixture: UpgradeFixture;
  let oldHistory: BeforeBlobs;
  let oldEvents: RawEvent[];
  let url: string;
  let pool: pg.Pool;
  let t: TestService;

  /** Rows as PostgreSQL writes jsonb back (canonical text), by id. */
  async function canonical(db: pg.Pool, tables: UpgradeFixture['read_models']) {
    const out: Record<string, Array<{ id: string; doc: string }>> = {};
    for (const [table, rows] of Object.entries(tables))
      out[table] = (
        await db.query<{ id: string; doc: string }>(
          `SELECT r.id, r.doc::text AS doc FROM json_to_recordset($1::json) AS r(id text, doc jsonb) ORDER BY r.id`,
          [JSON.stringify(rows.map((row) => ({ id: String(row.id), doc: row.doc })))],
        )
      ).rows;
    return out;
  }

  before(async () => {
    fixture = JSON.parse(await readFile(path.resolve('test/fixtures/upgrade/history.json'), 'utf8')) as UpgradeFixture;
    oldHistory = await readFixture<BeforeBlobs>('before-blobs.expected.json');
    oldEvents = (await readFixture<{ events: RawEvent[] }>('before-blobs.json')).events;
    // The database as db9bd17 left it: the log, the blobs, the read models and their checkpoints.
    url = await databaseWithEvents([...oldEvents, ...fixture.events]);
    pool = new pg.Pool({ connectionString: url });
    for (const blob of fixture.blobs)
      await pool.query('INSERT INTO blobs (sha256, size, content) VALUES ($1, $2, $3)', [
        blob.sha256,
        Buffer.from(blob.base64, 'base64').length,
        Buffer.from(blob.base64, 'base64'),
      ]);
    for (const [table, rows] of Object.entries(fixture.read_models)) {
      if (table !== 'rm_checkpoints')
        await pool.query(`CREATE TABLE IF NOT EXISTS ${table} (id text PRIMARY KEY, doc jsonb NOT NULL)`);
      if (rows.length > 0)
        await pool.query(`INSERT INTO ${table} SELECT * FROM json_populate_recordset(NULL::${table}, $1::json)`, [
          JSON.stringify(rows),
        ]);
    }
    t = await startTestService({}, url, { deliveryRetryUnitMs: 5 });
    expect(await t.service.projections.catchUp(60_000)).to.equal(true);
  });
  after(async () => {
    await t?.stop();
    await pool?.end();
  });

  const allDocuments = () => [
    ...Object.entries(oldHistory.documents).map(([name, d]) => ({ name, id: d.id, key: oldHistory.keys[d.tenant]! })),
    ...Object.entries(fixture.documents).map(([name, d]) => ({ name, id: d.id, key: fixture.keys[d.tenant]! })),
  ];

  it('reads every document of both versions: the document, its UBL, PDF, history, timeline and transmission report', async () => {
    // L was deleted by db9bd17, E by c92d852.
    const deleted = new Set([
      fixture.documents.L!.id,
      ...Object.values(oldHistory.documents)
        .filter((d) => d.answers.document.status === 404)
        .map((d) => d.id),
    ]);
    expect(deleted.size).to.equal(2);
    for (const { name, id, key } of allDocuments()) {
      const get = (route: string) => t.http.get(`/api/documents/${id}${route}`).set(bearer(key));
      const doc = await get('');
      expect(doc.status, `${name}: ${JSON.stringify(doc.body)}`).to.equal(deleted.has(id) ? 404 : 200);
      for (const route of ['/history', '/transmission-report'])
        expect((await get(route)).status, `${name}${route}`).to.equal(200);
      if (deleted.has(id)) continue;
      for (const route of ['/timeline', '/ubl?format=xml', '/pdf', '/attachments'])
        expect((await get(route)).status, `${name}${route}`).to.equal(200);
    }
  });

  it('reads the oldest events through the upcaster: their payloads inline in the log, references when read', async () => {
    const a = oldHistory.documents.A!.id;
    const stored = oldEvents.find((e) => e.stream_name === `document-${a}` && e.type === 'DocumentCreated')!;
    expect(stored.data).to.have.property('ubl');
    const read = (await t.service.eventStore.readStream(`document-${a}`))[0]!;
    expect(read.data).to.not.have.property('ubl');
    expect(read.data).to.have.nested.property('ubl_ref.skeleton.sha256');
  });

  it('rebuilds every projection from the first event to the stored read models; those db9bd17 built differ only in the documents list rows', async () => {
    await t.stop();
    const readModels = new PgReadModelStore(pool);
    for (const projection of allProjections({ document: () => Promise.reject(new Error('not read while resetting')) }))
      await resetProjection(readModels, projection);
    t = await startTestService({}, url, { deliveryRetryUnitMs: 5 });
    expect(await t.service.projections.catchUp(60_000)).to.equal(true);
    const rebuilt = await allReadModelRows(pool);
    // Recorded once from today's code (UPGRADE_RECORD_EXPECTED=1); a change to what the projections
    // write shows here, and needs its line in CHANGELOG.md (a rebuild on upgrade).
    if (process.env.UPGRADE_RECORD_EXPECTED === '1') await writeFile(EXPECTED, `${JSON.stringify(rebuilt, null, 1)}\n`);
    const expected = JSON.parse(await readFile(EXPECTED, 'utf8')) as typeof rebuilt;
    expect(Object.keys(rebuilt)).to.deep.equal(Object.keys(expected));
    for (const [table, rows] of Object.entries(expected)) {
      expect(
        rebuilt[table]!.map((r) => r.id),
        table,
      ).to.deep.equal(rows.map((r) => r.id));
      rebuilt[table]!.forEach((row, i) => expect(row.doc, `${table} ${row.id}`).to.equal(rows[i]!.doc));
    }
    // What db9bd17 had built: the same rows, but for the documents list rows, which have since
    // gained currency, invoice_total and customer_peppol_id (the stats and the customer filter read
    // them): an upgrade from before 2026-11-26's parity work rebuilds the read models.
    const old = await canonical(pool, fixture.read_models);
    for (const [table, rows] of Object.entries(old)) {
      if (table === 'rm_checkpoints') continue;
      const same = JSON.stringify(rebuilt[table]) === JSON.stringify(rows);
      expect(same, table).to.equal(table !== 'rm_documents');
    }
  });
});
