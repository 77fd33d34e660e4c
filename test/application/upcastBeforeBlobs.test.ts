import { expect } from 'chai';
import pg from 'pg';
import { writeUbl } from '../../src/domain/document/ubl/ublWriter.js';
import { fromDocumentJson, type DocumentJson } from '../../src/domain/document/invoice/documentJson.js';
import { PgReadModelStore } from '../../src/infrastructure/postgres/pgReadModelStore.js';
import { allProjections } from '../../src/projections/index.js';
import { resetProjection } from '../../src/projections/projectionRunner.js';
import { DocumentContent } from '../../src/application/documents/documentContent.js';
import { allReadModelRows, documentAnswers, listAnswers, readModelRows } from '../support/documentAnswers.js';
import { databaseWithEvents, readFixture, type RawEvent } from '../support/recordedStreams.js';
import { bearer, eventually, startTestService, waitForState, type TestService } from '../support/service.js';

interface Recorded {
  events: RawEvent[];
}

/** What the API answered for one document (recorded as JSON): the PDF's facts are read by name. */
type Answers = Record<string, unknown> & {
  ubl_xml?: string;
  pdf?: { carried?: boolean; content_type?: string; disposition?: string };
};

/**
 * Fields answers gained after the fixture was recorded, compared apart: see "what answers gained
 * since" (a delivery's `mls`: the Message Level Status its receiver's provider sent, none then).
 */
const LATER_FIELDS = new Set(['send_blocked', 'actor_detail', 'mls']);
const withoutLater = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(withoutLater)
    : value !== null && typeof value === 'object'
      ? Object.fromEntries(
          Object.entries(value)
            .filter(([field]) => !LATER_FIELDS.has(field))
            .map(([field, v]) => [field, withoutLater(v)]),
        )
      : value;

/**
 * Who did what was answered as recorded then ('key:<id>', 'delivery'); it is answered in words now,
 * each key by the name it had (every key of the fixture is 'app').
 */
const IN_WORDS: Record<string, string> = {
  delivery: 'delivery job',
  'response-router': 'response router',
  fixture: 'unknown',
};
const saidNow = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(saidNow)
    : value !== null && typeof value === 'object'
      ? Object.fromEntries(
          Object.entries(value).map(([field, v]) =>
            (field === 'actor' || field === 'requested_by') && typeof v === 'string'
              ? [field, v.startsWith('key:') ? `API key 'app' (${v.slice(4)})` : (IN_WORDS[v] ?? v)]
              : [field, saidNow(v)],
          ),
        )
      : value;

interface Expected {
  keys: Record<'seller' | 'buyer' | 'mailer', string>;
  read_models: Record<string, Array<{ id: string; doc: string }>>;
  documents: Record<string, { id: string; tenant: 'seller' | 'buyer' | 'mailer'; answers: Answers }>;
  lists: Record<'seller' | 'buyer' | 'mailer', Record<string, unknown>>;
}

/**
 * A history recorded by the service before payloads left the events (commit c92d852, see
 * test/fixtures/streams/recordBeforeBlobs.ts), loaded as it was stored into a fresh database, and
 * today's service started on it: the upcaster reads the old events in today's shape, storing their
 * payloads in the blob store, and every read model and answer is what that service gave.
 */
describe("A history recorded before payloads left the events, replayed by today's code (real PostgreSQL)", function () {
  // Every answer about every recorded document, PDFs included: minutes on a busy machine.
  this.timeout(300_000);
  let recorded: Recorded;
  let expected: Expected;
  let t: TestService;
  let pool: pg.Pool;
  const key = (tenant: keyof Expected['keys']) => expected.keys[tenant];
  const doc = (name: string) => expected.documents[name]!;

  before(async () => {
    recorded = await readFixture<Recorded>('before-blobs.json');
    expected = await readFixture<Expected>('before-blobs.expected.json');
    const url = await databaseWithEvents(recorded.events);
    t = await startTestService({}, url, { deliveryRetryUnitMs: 5 });
    pool = new pg.Pool({ connectionString: url });
    expect(await t.service.projections.catchUp(30_000)).to.equal(true);
  });
  after(async () => {
    await pool?.end();
    await t?.stop();
  });

  it('rebuilds the documents read models byte for byte', async () => {
    const rows = await readModelRows(pool);
    for (const table of ['documents', 'document_contents'] as const) {
      expect(
        rows[table].map((r) => r.id),
        table,
      ).to.deep.equal(expected.read_models[table]!.map((r) => r.id));
      rows[table].forEach((row, i) =>
        expect(row.doc, `${table} ${row.id}`).to.equal(expected.read_models[table]![i]!.doc),
      );
    }
  });

  it('answers every call about every document as it did: JSON, UBL, attachments and their bytes, PDF, history, transmission report', async () => {
    for (const [name, { id, tenant, answers: before }] of Object.entries(expected.documents)) {
      const now = withoutLater(await documentAnswers(t, key(tenant), id, name.endsWith('_received'))) as Answers;
      // The UBL and the files byte for byte; the JSON answers as values.
      if (before.ubl_xml !== undefined) expect(now.ubl_xml, `${name} UBL`).to.equal(before.ubl_xml);
      const { pdf, ...rest } = now;
      const { pdf: pdfBefore, ...restBefore } = saidNow(before) as Answers;
      expect(rest, name).to.deep.equal(restBefore);
      if (pdfBefore?.carried) expect(pdf, `${name} PDF`).to.deep.equal(pdfBefore);
      else if (pdfBefore) {
        // A rendering made on demand carries the time it was made: the same kind of file, not the same bytes.
        expect(pdf, `${name} PDF`).to.deep.include({
          status: 200,
          content_type: pdfBefore.content_type,
          disposition: pdfBefore.disposition,
          carried: false,
        });
      }
    }
  });

  it('answers the lists as it did', async () => {
    for (const tenant of ['seller', 'buyer', 'mailer'] as const)
      expect(withoutLater(await listAnswers(t, key(tenant))), tenant).to.deep.equal(expected.lists[tenant]);
  });

  it('reads the old events into what answers gained since: who did what as whom, and whether a draft can be sent', async () => {
    let sends = 0;
    for (const { id, tenant } of Object.values(expected.documents)) {
      const history = (await t.http.get(`/api/documents/${id}/history`).set(bearer(key(tenant)))).body as {
        events: Array<{ actor: string; actor_detail: Record<string, string | null> }>;
      };
      // Recorded before key names were kept: the key's name as its own record said then.
      for (const e of history.events)
        if (e.actor_detail.kind === 'api_key') expect(e.actor_detail.key_name, e.actor).to.equal('app');
      const timeline = (await t.http.get(`/api/documents/${id}/timeline`).set(bearer(key(tenant)))).body as {
        items: Array<{ type: string; summary: string | null; details: { sender_peppol_id?: string } }>;
      };
      for (const step of timeline.items.filter((s) => s.type === 'send_requested')) {
        sends++;
        expect(step.summary).to.match(
          new RegExp(`^sent by API key 'app' \\([0-9a-f-]{36}\\) as ${step.details.sender_peppol_id}[ ,]`),
        );
      }
      const report = await t.http.get(`/api/documents/${id}/transmission-report`).set(bearer(key(tenant)));
      for (const delivery of (report.body.deliveries ?? []) as Array<{ mls: unknown }>)
        expect(delivery.mls, 'no MLS was received then').to.equal(null);
      const document = await t.http.get(`/api/documents/${id}`).set(bearer(key(tenant)));
      if (document.status === 200) expect(document.body).to.have.property('send_blocked');
    }
    expect(sends).to.be.greaterThan(0);
  });

  it('only reads the history: no event was added or changed', async () => {
    const { rows } = await pool.query<{ event_id: string; data: string }>(
      'SELECT event_id::text AS event_id, data::text AS data FROM es_events ORDER BY global_position',
    );
    expect(rows.map((r) => r.event_id)).to.deep.equal(recorded.events.map((e) => e.event_id));
    // Stored as text by jsonb both times: the same data, key for key.
    const { rows: original } = await pool.query<{ data: string }>(
      'SELECT data::text AS data FROM jsonb_array_elements($1::jsonb) AS e(data)',
      [JSON.stringify(recorded.events.map((e) => e.data))],
    );
    expect(rows.map((r) => r.data)).to.deep.equal(original.map((r) => r.data));
  });

  it('keeps the payloads once in the blob store: every attachment of the old events is a blob, the content and UBLs too', async () => {
    const content = t.service.resolve<DocumentContent>(DocumentContent);
    const a = doc('A');
    const stream = await t.service.eventStore.readStream(`document-${a.id}`);
    const created = stream[0]!.data as {
      document_ref: { sha256: string };
      ubl_ref: { skeleton: { sha256: string }; embeds: unknown[] };
      attachments: Array<{ content: { sha256: string } }>;
    };
    expect(created.ubl_ref.embeds).to.have.length(1);
    const { rows } = await pool.query<{ sha256: string; size: string }>('SELECT sha256, size::text AS size FROM blobs');
    const stored = new Set(rows.map((r) => r.sha256));
    for (const ref of [
      created.document_ref.sha256,
      created.ubl_ref.skeleton.sha256,
      created.attachments[0]!.content.sha256,
    ])
      expect(stored.has(ref)).to.equal(true);
    // The UBL put back together is the UBL the event recorded.
    const old = recorded.events.find((e) => e.stream_name === `document-${a.id}` && e.type === 'DocumentCreated')!
      .data as { ubl: string };
    expect(await content.ubl(created.ubl_ref as never)).to.equal(old.ubl);
  });

  it('takes commands on old streams: an attachment added to an old draft is written into the UBL as before, and the draft is sent', async () => {
    const f = doc('F');
    const seller = key('seller');
    const hours = Buffer.from('day;hours\n2025-03-01;8\n');
    const added = await t.http
      .post(`/api/documents/${f.id}/attachments`)
      .set(bearer(seller))
      .attach('file', hours, { filename: 'hours.csv', contentType: 'text/csv' });
    expect(added.status, JSON.stringify(added.body)).to.equal(200);
    const ubl = (await t.http.get(`/api/documents/${f.id}/ubl?format=xml`).set(bearer(seller))).text;
    // What the code before wrote: the document as created, with the attachment of the oldest
    // shape (which had left the UBL as it was) and the new one.
    const events = recorded.events.filter((e) => e.stream_name === `document-${f.id}`);
    const created = events.find((e) => e.type === 'DocumentCreated')!.data.document as DocumentJson;
    const old = events.find((e) => e.type === 'AttachmentAdded')!.data
      .attachment as DocumentJson['attachments'][number];
    const fresh = {
      id: added.body.id,
      file_name: 'hours.csv',
      file_type: 'text/csv',
      file_size: hours.length,
      file_data: hours.toString('base64'),
      file_url: null,
    };
    expect(ubl).to.equal(
      writeUbl(
        fromDocumentJson({ ...created, attachments: [...created.attachments, { ...old, file_url: null }, fresh] }),
      ),
    );

    expect((await t.http.post(`/api/documents/${f.id}/send`).set(bearer(seller))).status).to.equal(200);
    await waitForState(t, seller, f.id, ['SENT']);
    const inbound = await eventually(async () => {
      const items = (await t.http.get('/api/inbox?search=BLOBS-F').set(bearer(key('buyer')))).body.items as Array<{
        id: string;
      }>;
      return items.length === 1 && items[0];
    }, 'the receiver has it');
    expect((await t.http.get(`/api/documents/${inbound.id}/ubl?format=xml`).set(bearer(key('buyer')))).text).to.equal(
      ubl,
    );
  });

  it('sends an old uploaded UBL exactly as uploaded, its wrapped base64 included', async () => {
    const c = doc('C');
    const seller = key('seller');
    expect((await t.http.post(`/api/documents/${c.id}/send`).set(bearer(seller))).status).to.equal(200);
    await waitForState(t, seller, c.id, ['SENT']);
    const inbound = await eventually(async () => {
      const items = (await t.http.get('/api/inbox?search=BLOBS-C').set(bearer(key('buyer')))).body.items as Array<{
        id: string;
      }>;
      return items.length === 1 && items[0];
    }, 'the receiver has it');
    const received = (await t.http.get(`/api/documents/${inbound.id}/ubl?format=xml`).set(bearer(key('buyer')))).text;
    expect(received).to.equal(c.answers.ubl_xml);
    expect(received).to.match(/[A-Za-z0-9+/]{76}\n[A-Za-z0-9+/]/);
  });

  it('rebuilds every read model from scratch byte for byte, old events and new alike', async () => {
    expect(await t.service.projections.catchUp(30_000)).to.equal(true);
    const before = await allReadModelRows(pool);
    expect(before.rm_documents!.length).to.be.greaterThan(expected.read_models.documents!.length);
    const url = t.databaseUrl;
    await t.stop();
    const readModels = new PgReadModelStore(pool);
    for (const projection of allProjections({ document: () => Promise.reject(new Error('not read while resetting')) }))
      await resetProjection(readModels, projection);
    expect((await allReadModelRows(pool)).rm_documents).to.deep.equal([]);
    t = await startTestService({}, url, { deliveryRetryUnitMs: 5 });
    expect(await t.service.projections.catchUp(30_000)).to.equal(true);
    expect(await allReadModelRows(pool)).to.deep.equal(before);
  });
});
