import { expect } from 'chai';
import pg from 'pg';
import {
  bearer,
  createOrganization,
  createTenant,
  eventually,
  startTestService,
  waitForState,
  type TestService,
} from '../support/service.js';
import { freshDatabase } from '../support/postgres.js';
import { startSmtpServer, type TestSmtp } from '../support/smtp.js';
import { realisticDocuments } from '../domain/document/fixtures/realisticDocuments.js';
import { EVENT_STORE, type EventStore } from '../../src/application/ports/eventStore.js';
import { DocumentContent } from '../../src/application/documents/documentContent.js';
import { DocumentQueries, type DocumentListQuery } from '../../src/application/documents/documentQueries.js';
import { DocumentStats } from '../../src/application/documents/documentStats.js';
import { PgReadModelStore } from '../../src/infrastructure/postgres/pgReadModelStore.js';
import { applyPostgresSchema } from '../../src/infrastructure/postgres/pgSchema.js';
import { documentsProjection } from '../../src/projections/documentsProjection.js';
import { ProjectionRunner } from '../../src/projections/projectionRunner.js';
import { withSendBlock } from '../../src/application/readModels/documentView.js';
import { loadState } from '../../src/application/commandHandler.js';
import { tenantDecider, tenantStream } from '../../src/domain/tenant/tenant.js';

const fixture = (name: string) =>
  structuredClone(realisticDocuments().find((f) => f.name === name)!.body) as Record<string, unknown>;
const invoice = () => fixture('BE consulting invoice, one rate');
const creditNote = () => fixture('BE credit note for returned goods');
/** The fixture's buyer (BE0451234595) as a Peppol participant, and its seller. */
const BUYER_ID = '0208:0451234595';
const SELLER_ID = '0208:0403013026';
const UNIT_MS = 2;
/** Fixed stats bounds: the default ("the 30 days to today") would move with the clock. */
const STATS = '/api/stats?from=2024-01-01&to=2030-12-31&group_by=day';
const LISTS = [
  '/api/documents',
  '/api/documents?skip=1&limit=2',
  '/api/outbox',
  '/api/outbox/drafts',
  '/api/outbox/drafts?state=FAILED',
  '/api/outbox?sort_by=invoice_id&sort_order=asc&page_size=2&page=2',
  '/api/inbox',
  '/api/inbox/invoices',
  '/api/inbox/credit-notes',
  STATS,
];

interface Party {
  id: string;
  key: string;
  /** Every document this tenant has had, deleted ones too. */
  documents: string[];
}
type Answers = Record<string, { status: number; body: unknown }>;

/**
 * `as_of` on the document reads, their history, the lists and the stats, against two references at
 * several positions of a realistic history (created, sent over Peppol to a tenant of this instance,
 * received, accepted; a delivery retried until it failed; a draft deleted; a credit note):
 * - what the API answered live when the log stood at that position, and
 * - a rebuild of the documents read model from scratch (the real projection, a fresh database)
 *   stopped at that position, asked with the real queries.
 */
describe('Answers as of a moment (as_of): documents, history, lists, stats (real app, PostgreSQL)', function () {
  this.timeout(180_000);
  let t: TestService;
  let smtp: TestSmtp;
  let pool: pg.Pool;
  let seller: Party;
  let buyer: Party;
  const snapshots: Array<{ position: bigint; name: string; answers: Record<string, Answers> }> = [];

  const head = async () =>
    BigInt((await pool.query<{ position: string }>('SELECT position FROM es_global WHERE id = 1')).rows[0]!.position);

  async function answersOf(party: Party, asOf?: string): Promise<Answers> {
    const at = (path: string) => (asOf === undefined ? path : `${path}${path.includes('?') ? '&' : '?'}as_of=${asOf}`);
    const answers: Answers = {};
    const get = async (path: string) => {
      const res = await t.http.get(at(path)).set(bearer(party.key));
      answers[path] = { status: res.status, body: res.body };
    };
    for (const path of LISTS) await get(path);
    for (const id of party.documents) {
      await get(`/api/documents/${id}`);
      await get(`/api/inbox/${id}`);
      await get(`/api/documents/${id}/history`);
      await get(`/api/documents/${id}/timeline`);
      await get(`/api/documents/${id}/transmission-report`);
    }
    return answers;
  }

  /** What the API answers now, once nothing moves (the answers are taken between two equal heads). */
  async function snapshot(name: string): Promise<void> {
    for (;;) {
      const before = await head();
      await t.service.resolve<ProjectionRunner>(ProjectionRunner).waitFor(before);
      const answers = { seller: await answersOf(seller), buyer: await answersOf(buyer) };
      if ((await head()) === before) {
        snapshots.push({ position: before, name, answers });
        return;
      }
    }
  }

  const create = async (party: Party, body: Record<string, unknown>) => {
    const res = await t.http.post('/api/documents/').set(bearer(party.key)).send(body);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    party.documents.push(res.body.id);
    return res.body.id as string;
  };
  const send = async (party: Party, id: string) =>
    expect((await t.http.post(`/api/documents/${id}/send`).set(bearer(party.key))).status).to.equal(200);
  const receivedCopy = async (invoiceId: string) => {
    const found = await eventually(async () => {
      const res = await t.http.get(`/api/inbox/?search=${invoiceId}`).set(bearer(buyer.key));
      return res.body.total === 1 && (res.body.items[0].id as string);
    }, `the buyer's copy of ${invoiceId}`);
    if (!buyer.documents.includes(found)) buyer.documents.push(found);
    return found;
  };

  before(async () => {
    smtp = await startSmtpServer();
    t = await startTestService({ smtpUrl: smtp.url }, undefined, { deliveryRetryUnitMs: UNIT_MS });
    pool = new pg.Pool({ connectionString: t.databaseUrl, max: 2 });
    const { adminKey } = await createOrganization(t);
    const b = await createTenant(t, adminKey, 'the-buyer', { peppol_ids: [BUYER_ID] });
    const registered = await t.http
      .post(`/api/admin/tenants/${b.id}/peppol/register`)
      .set(bearer(adminKey))
      .send({ peppol_id: BUYER_ID, company_name: 'Brouwerij De Zwaan NV' });
    expect(registered.status, JSON.stringify(registered.body)).to.equal(200);
    buyer = { id: b.id, key: b.key, documents: [] };
    const s = await createTenant(t, adminKey, 'the-seller', { peppol_ids: [SELLER_ID] });
    seller = { id: s.id, key: s.key, documents: [] };

    // A realistic history, with the answers taken at several positions of it.
    await snapshot('before any document');
    const a = await create(seller, { ...invoice(), invoice_id: 'ASOF-A' });
    const lost = await create(seller, { ...invoice(), invoice_id: 'ASOF-LOST', customer_peppol_id: '0208:0202239951' });
    const dropped = await create(seller, { ...invoice(), invoice_id: 'ASOF-DROPPED' });
    await snapshot('three drafts');
    expect((await t.http.delete(`/api/documents/${dropped}`).set(bearer(seller.key))).status).to.equal(200);
    await send(seller, a);
    await waitForState(t, seller.key, a, ['SENT']);
    const inA = await receivedCopy('ASOF-A');
    await snapshot('sent, received, a draft deleted');
    await send(seller, lost);
    await waitForState(t, seller.key, lost, ['FAILED'], 60_000);
    expect((await t.http.post(`/api/inbox/${inA}/accept`).set(bearer(buyer.key)).send({})).status).to.equal(200);
    await eventually(async () => {
      const res = await t.http.get(`/api/documents/${a}`).set(bearer(seller.key));
      return res.body.invoice_response?.status === 'accepted';
    }, 'the acceptance on the seller side');
    await snapshot('failed after retries, accepted');
    const cn = await create(seller, { ...creditNote(), invoice_id: 'ASOF-CN', purchase_order: 'ASOF-A' });
    await send(seller, cn);
    await waitForState(t, seller.key, cn, ['SENT']);
    await receivedCopy('ASOF-CN');
    await snapshot('a credit note sent and received');
  });
  after(async () => {
    await pool?.end();
    await t?.stop();
    await smtp?.stop();
  });

  it('answers every read as the API answered it live at each position', async () => {
    expect(snapshots.map((s) => s.position)).to.satisfy((ps: bigint[]) =>
      ps.every((p, i) => i === 0 || p > ps[i - 1]!),
    );
    for (const { position, name, answers } of snapshots) {
      for (const [who, party] of [
        ['seller', seller],
        ['buyer', buyer],
      ] as const) {
        // Every list answered (a refusal would compare equal and prove nothing).
        for (const path of LISTS) expect(answers[who]![path]!.status, `${who} ${path} (${name})`).to.equal(200);
        const asOf = await answersOf(party, String(position));
        for (const [path, live] of Object.entries(answers[who]!)) {
          expect(asOf[path], `${who} ${path} as of ${position} (${name})`).to.deep.equal(live);
        }
        // Documents created later did not exist then.
        for (const id of party.documents.filter((d) => !(`/api/documents/${d}` in answers[who]!)))
          expect(asOf[`/api/documents/${id}`]!.status, `${id} as of ${position}`).to.equal(404);
      }
    }
  });

  it('answers as a rebuild of the read models from scratch, stopped at the position, does', async () => {
    const events = t.service.resolve<EventStore>(EVENT_STORE);
    const content = t.service.resolve(DocumentContent);
    const rebuildPool = new pg.Pool({ connectionString: await freshDatabase('asof_rebuild'), max: 2 });
    await applyPostgresSchema(rebuildPool);
    const readModels = new PgReadModelStore(rebuildPool);
    const projection = documentsProjection(content);
    try {
      for (const { position, name } of snapshots) {
        await readModels.ensureCollections(projection.collections);
        await readModels.clearCollections(projection.collections.map((c) => c.name));
        // The real projection, fed the log from the first event up to the position, in batches.
        let after = -1n;
        for (;;) {
          const batch = (await events.readAll({ after, maxCount: 100 })).filter((e) => e.globalPosition <= position);
          if (batch.length === 0) break;
          const relevant = batch.filter((e) => projection.handles.includes(e.type));
          const to = batch[batch.length - 1]!.globalPosition;
          await readModels.commitWithCheckpoint('rebuild', after === -1n ? null : after, to, (session) =>
            projection.handleBatch!(relevant, session),
          );
          after = to;
        }
        await readModels.resetCheckpoint('rebuild');
        const queries = new DocumentQueries(readModels, 10_000, content);
        const stats = new DocumentStats(readModels);
        const json = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;
        for (const [who, party] of [
          ['seller', seller],
          ['buyer', buyer],
        ] as const) {
          const tenantId = party.id;
          // The API adds to each document why its tenant cannot send it (from the tenant's ids now).
          const tenant = await loadState(events, tenantDecider, tenantStream(tenantId));
          if (tenant.status === 'absent') throw new Error(`tenant ${tenantId} is not recorded`);
          const blocked = <D extends Parameters<typeof withSendBlock>[0]>(d: D) => withSendBlock(d, tenant);
          const asOf = async (path: string) =>
            (await t.http.get(`${path}${path.includes('?') ? '&' : '?'}as_of=${position}`).set(bearer(party.key))).body;
          const where = `${who} as of ${position} (${name})`;
          const list = await queries.list(tenantId, 0, 100);
          expect(await asOf('/api/documents'), `list, ${where}`).to.deep.equal(
            json({ ...list, documents: list.documents.map(blocked) }),
          );
          for (const [path, q] of [
            ['/api/outbox', { direction: 'OUTBOUND', states: ['TRANSIT', 'SENT', 'FAILED'] }],
            ['/api/outbox/drafts', { direction: 'OUTBOUND', states: ['DRAFT'] }],
            ['/api/inbox', { direction: 'INBOUND' }],
            ['/api/inbox/credit-notes', { direction: 'INBOUND', types: ['CREDIT_NOTE', 'SELFBILLING_CREDIT_NOTE'] }],
          ] as Array<[string, DocumentListQuery]>)
            expect(await asOf(path), `${path}, ${where}`).to.deep.equal(
              await queries.page(tenantId, q, 1, 20).then((page) => json({ ...page, items: page.items.map(blocked) })),
            );
          expect(await asOf(STATS), `stats, ${where}`).to.deep.equal(
            json(await stats.stats(tenantId, '2024-01-01', '2030-12-31', 'day')),
          );
          for (const id of party.documents) {
            const rebuilt = await queries.get(tenantId, id).then(
              (d) => ({ status: 200, body: json(blocked(d)) }),
              () => ({ status: 404, body: { detail: 'Document not found' } }),
            );
            const res = await t.http.get(`/api/documents/${id}?as_of=${position}`).set(bearer(party.key));
            expect({ status: res.status, body: res.body }, `document ${id}, ${where}`).to.deep.equal(rebuilt);
          }
        }
      }
    } finally {
      await rebuildPool.end();
    }
  });

  it('maps a timestamp to the last position recorded at or before it', async () => {
    const { rows } = await pool.query<{ position: string; at: Date }>(
      'SELECT global_position AS position, recorded_at AS at FROM es_events ORDER BY global_position',
    );
    // A snapshot whose last event was recorded a whole millisecond before the next one.
    const snap = snapshots.find((s) => {
      const i = rows.findIndex((r) => BigInt(r.position) === s.position);
      return i >= 0 && i + 1 < rows.length && rows[i + 1]!.at.getTime() > rows[i]!.at.getTime();
    })!;
    expect(snap, 'a snapshot followed by a later event').to.not.equal(undefined);
    const at = rows.find((r) => BigInt(r.position) === snap.position)!.at.toISOString();
    for (const path of ['/api/outbox', '/api/documents', STATS]) {
      const byTime = await t.http.get(`${path}${path.includes('?') ? '&' : '?'}as_of=${at}`).set(bearer(seller.key));
      expect({ status: byTime.status, body: byTime.body }, `${path} as of ${at}`).to.deep.equal(
        snap.answers.seller![path],
      );
    }
    // Before the first event: nothing existed.
    const first = rows[0]!.at.getTime();
    const before = new Date(first - 60_000).toISOString();
    const empty = await t.http.get(`/api/outbox?as_of=${before}`).set(bearer(seller.key));
    expect(empty.status).to.equal(200);
    expect(empty.body.total).to.equal(0);
    expect(
      (await t.http.get(`/api/documents/${seller.documents[0]}?as_of=${before}`).set(bearer(seller.key))).status,
    ).to.equal(404);
  });

  it('refuses a malformed moment or one in the future with a 422 naming as_of, and a document not yet created is a 404', async () => {
    const id = seller.documents[0]!;
    for (const bad of ['yesterday', '-1', '2025-03-01', '2025-03-01T10:00:00', '12abc', '1.5']) {
      for (const path of [`/api/documents/${id}`, '/api/outbox', STATS, `/api/documents/${id}/history`]) {
        const res = await t.http
          .get(`${path}${path.includes('?') ? '&' : '?'}as_of=${encodeURIComponent(bad)}`)
          .set(bearer(seller.key));
        expect(res.status, `${path} as_of=${bad}`).to.equal(422);
        // The spec's error format: {"detail": [{loc, msg, type}]}.
        expect(res.body, `${path} as_of=${bad}`).to.have.all.keys('detail');
        expect(res.body.detail[0], `${path} as_of=${bad}`).to.have.all.keys('loc', 'msg', 'type');
        expect(res.body.detail[0].loc, `${path} as_of=${bad}`).to.deep.equal(['query', 'as_of']);
        expect(res.body.detail[0].msg).to.be.a('string').and.contain('as_of');
      }
    }
    const future = new Date(Date.now() + 3_600_000).toISOString();
    for (const moment of [future, String((await head()) + 1000n)]) {
      const res = await t.http.get(`/api/documents/${id}/timeline?as_of=${moment}`).set(bearer(seller.key));
      expect(res.status, moment).to.equal(422);
      expect(res.body.detail[0]).to.have.all.keys('loc', 'msg', 'type');
      expect(res.body.detail[0].loc).to.deep.equal(['query', 'as_of']);
      expect(res.body.detail[0].msg).to.contain('future');
    }
    // The first snapshot came before any document: each one is not found then, history included.
    const first = snapshots[0]!.position;
    for (const path of ['', '/history', '/timeline', '/transmission-report'])
      expect((await t.http.get(`/api/documents/${id}${path}?as_of=${first}`).set(bearer(seller.key))).status).to.equal(
        404,
      );
    // Another tenant's document stays not found, whatever the moment.
    expect((await t.http.get(`/api/documents/${id}?as_of=${await head()}`).set(bearer(buyer.key))).status).to.equal(
      404,
    );
  });

  it('describes as_of on each of these routes in the OpenAPI document', async () => {
    const spec = (await t.http.get('/api/openapi.json')).body as {
      paths: Record<string, Record<string, { parameters: Array<{ name: string; in: string }> }>>;
    };
    for (const path of [
      '/api/documents',
      '/api/documents/{documentId}',
      '/api/documents/{documentId}/history',
      '/api/documents/{documentId}/timeline',
      '/api/documents/{documentId}/transmission-report',
      '/api/outbox',
      '/api/outbox/drafts',
      '/api/inbox',
      '/api/inbox/{documentId}',
      '/api/inbox/invoices',
      '/api/inbox/credit-notes',
      '/api/stats',
    ]) {
      const parameters = spec.paths[path]!.get!.parameters;
      expect(
        parameters.some((p) => p.name === 'as_of' && p.in === 'query'),
        path,
      ).to.equal(true);
    }
  });
});
