import { expect } from 'chai';
import pg from 'pg';
import { PgReadModelStore } from '../../src/infrastructure/postgres/pgReadModelStore.js';
import { documentsProjection } from '../../src/projections/documentsProjection.js';
import { DOCUMENTS, type DocumentView } from '../../src/application/readModels/documentView.js';
import { sentAsFilter } from '../../src/application/inbox/receivedMls.js';
import { freshDatabase } from '../support/postgres.js';

/**
 * The lookups that run once per received message read one row through an index, not the whole
 * documents table: each is run as the store sends it, then its plan is asked of PostgreSQL on a
 * table of 3,000 documents.
 */
describe('Document read model: per-message lookups are served by an index (PostgreSQL)', function () {
  this.timeout(60_000);
  let pool: pg.Pool;
  let store: PgReadModelStore;
  const sent: Array<{ text: string; values: unknown[] }> = [];

  before(async () => {
    pool = new pg.Pool({ connectionString: await freshDatabase('doc_indexes'), max: 2 });
    // The store's queries, recorded as it sends them.
    const recording = {
      query: (text: string, values: unknown[]) => {
        sent.push({ text, values });
        return pool.query(text, values);
      },
    } as unknown as pg.Pool;
    store = new PgReadModelStore(recording);
    await store.ensureCollections(
      documentsProjection({ document: () => Promise.reject(new Error('no content is read here')) }).collections,
    );
    await pool.query(
      `INSERT INTO rm_documents (id, doc)
       SELECT 'doc-' || i, jsonb_build_object('id', 'doc-' || i,
         'tenant_id', 't-' || (i % 7), 'direction', CASE WHEN i % 2 = 0 THEN 'OUTBOUND' ELSE 'INBOUND' END,
         'state', 'SENT', 'created_at', '2026-11-29T00:00:00Z',
         'summary', jsonb_build_object('delivery', jsonb_build_object('message_id', 'msg-' || i || '@as4')))
       FROM generate_series(1, 3000) AS i`,
    );
    await pool.query('ANALYZE rm_documents');
  });
  after(async () => pool?.end());

  it('a received MLS finds the outbound document its MessageId went out with, by the message id index', async () => {
    sent.length = 0;
    const { items } = await store
      .collection<DocumentView>(DOCUMENTS)
      .find({ filter: sentAsFilter('msg-1500@as4'), limit: 1 });
    expect(items.map((d) => d.id)).to.deep.equal(['doc-1500']);
    const { items: none } = await store
      .collection<DocumentView>(DOCUMENTS)
      .find({ filter: sentAsFilter('msg-1501@as4'), limit: 1 });
    expect(none, 'an inbound document is not the one an MLS is about').to.deep.equal([]);

    const select = sent.find((q) => q.text.startsWith('SELECT doc FROM rm_documents'))!;
    const { rows } = await pool.query(`EXPLAIN (FORMAT JSON) ${select.text}`, select.values);
    const plan = JSON.stringify(rows[0]['QUERY PLAN']);
    expect(plan).to.contain('"Index Name":"rm_documents_summary_delivery_message_id"');
    expect(plan).not.to.contain('"Node Type":"Seq Scan"');
  });
});
