import { expect } from 'chai';
import pg from 'pg';
import { pino } from 'pino';
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
import { PgReadModelStore } from '../../src/infrastructure/postgres/pgReadModelStore.js';
import { applyPostgresSchema } from '../../src/infrastructure/postgres/pgSchema.js';
import { documentsProjection } from '../../src/projections/documentsProjection.js';
import { documentVersionsProjection } from '../../src/projections/documentVersionsProjection.js';
import { ProjectionRunner } from '../../src/projections/projectionRunner.js';

const invoice = () =>
  structuredClone(realisticDocuments().find((f) => f.name === 'BE consulting invoice, one rate')!.body) as Record<
    string,
    unknown
  >;
const BUYER_ID = '0208:0451234595';
const SELLER_ID = '0208:0403013026';
const ERASED = '[erased]';
/** The fixture's personal values: the parties' e-mail addresses and the seller's contact. */
const PERSONAL = ['billing@acme.be', 'ap@dezwaan.be', 'Finance department', 'inbox@seller.test'];

/**
 * Personal data at rest and its erasure (crypto-shredding), end to end on the real service: what
 * PostgreSQL holds, what the API shows before and after, what erasure leaves, and how the
 * organization's retention period governs it.
 */
describe('Personal data: encrypted at rest, erased on request within the rules of retention (real app, PostgreSQL)', function () {
  this.timeout(120_000);
  let t: TestService;
  let smtp: TestSmtp;
  let pool: pg.Pool;
  let organization: { id: string; adminKey: string };
  let seller: { id: string; key: string };
  let buyer: { id: string; key: string };
  /** The seller's documents: sent in test mode, sent over Peppol to the buyer, a draft with an attachment. */
  let mailed: string;
  let delivered: string;
  let draft: string;
  let attachmentId: string;

  const get = (key: string, path: string) => t.http.get(path).set(bearer(key));
  const operator = () => bearer(t.operatorKey);
  /** Rows (as text) of a table that mention `needle`. */
  const rowsWith = async (sql: string, needle: string) =>
    (await pool.query<{ n: string }>(`SELECT count(*) AS n FROM (${sql}) AS r WHERE r.text LIKE $1`, [`%${needle}%`]))
      .rows[0]!.n;

  before(async () => {
    smtp = await startSmtpServer();
    t = await startTestService({ smtpUrl: smtp.url }, undefined, { deliveryRetryUnitMs: 2 });
    pool = new pg.Pool({ connectionString: t.databaseUrl, max: 2 });
    organization = await createOrganization(t);
    const b = await createTenant(t, organization.adminKey, 'erasure-buyer', { peppol_ids: [BUYER_ID] });
    const registered = await t.http
      .post(`/api/admin/tenants/${b.id}/peppol/register`)
      .set(bearer(organization.adminKey))
      .send({ peppol_id: BUYER_ID, company_name: 'Brouwerij De Zwaan NV' });
    expect(registered.status, JSON.stringify(registered.body)).to.equal(200);
    buyer = b;
    seller = await createTenant(t, organization.adminKey, 'erasure-seller', { peppol_ids: [SELLER_ID] });

    const create = async (body: Record<string, unknown>) => {
      const res = await t.http.post('/api/documents/').set(bearer(seller.key)).send(body);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body.id as string;
    };
    delivered = await create({ ...invoice(), invoice_id: 'PD-PEPPOL' });
    expect((await t.http.post(`/api/documents/${delivered}/send`).set(bearer(seller.key))).status).to.equal(200);
    await waitForState(t, seller.key, delivered, ['SENT']);
    await setTestMode(seller.id, true, 'inbox@seller.test');
    mailed = await create({ ...invoice(), invoice_id: 'PD-MAILED' });
    expect((await t.http.post(`/api/documents/${mailed}/send`).set(bearer(seller.key))).status).to.equal(200);
    await waitForState(t, seller.key, mailed, ['SENT']);
    draft = await create({ ...invoice(), invoice_id: 'PD-DRAFT' });
    const attached = await t.http
      .post(`/api/documents/${draft}/attachments`)
      .set(bearer(seller.key))
      .attach('file', Buffer.from('Jan Peeters, 0470 12 34 56'), {
        filename: 'contact.csv',
        contentType: 'text/csv',
      });
    expect(attached.status, JSON.stringify(attached.body)).to.equal(200);
    attachmentId = attached.body.id;
  });
  after(async () => {
    await pool?.end();
    await t?.stop();
    await smtp?.stop();
  });

  async function setTestMode(tenantId: string, on: boolean, email?: string) {
    const res = await t.http
      .put(`/api/operator/tenants/${tenantId}/test-mode`)
      .set(operator())
      .send({ test_mode: on, ...(email ? { email } : {}) });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
  }

  it('keeps personal values and payloads encrypted in the event log and the blob store, and shows them through the API', async () => {
    for (const value of PERSONAL) {
      expect(await rowsWith('SELECT data::text || metadata::text AS text FROM es_events', value), value).to.equal('0');
      expect(
        await rowsWith("SELECT encode(content, 'escape') AS text FROM blobs", value),
        `${value} in the blobs`,
      ).to.equal('0');
    }
    expect(await rowsWith("SELECT encode(content, 'escape') AS text FROM blobs", 'Jan Peeters')).to.equal('0');
    // Each tenant has a key, wrapped: the master key's AES-GCM of 32 bytes (nonce, key, tag).
    const keys = await pool.query<{ tenant_id: string; n: number }>(
      'SELECT tenant_id, length(wrapped) AS n FROM personal_data_keys WHERE wrapped IS NOT NULL',
    );
    expect(keys.rows.map((r) => r.tenant_id)).to.include.members([seller.id, buyer.id]);
    expect(keys.rows.every((r) => r.n === 60)).to.equal(true);

    // The API opens them.
    const doc = (await get(seller.key, `/api/documents/${mailed}`)).body;
    expect(doc).to.include({
      customer_email: 'ap@dezwaan.be',
      vendor_email: 'billing@acme.be',
      vendor_address_recipient: 'Finance department',
    });
    const report = (await get(seller.key, `/api/documents/${mailed}/transmission-report`)).body;
    expect(report.deliveries[0]).to.include({ email: 'inbox@seller.test' });
    expect(report.deliveries[0].attempts[0]).to.include({ receiver: 'inbox@seller.test' });
    const ubl = (await get(seller.key, `/api/documents/${mailed}/ubl?format=xml`)).text;
    expect(ubl).to.contain('ap@dezwaan.be');
    const file = await get(seller.key, `/api/documents/${draft}/attachments/${attachmentId}?download=true`).buffer(
      true,
    );
    expect(file.status).to.equal(200);
    expect(file.text).to.equal('Jan Peeters, 0470 12 34 56');
    // The buyer's copy is sealed with the buyer's own key.
    const inbox = (await get(buyer.key, '/api/inbox?search=PD-PEPPOL')).body.items[0];
    expect(inbox).to.include({ customer_email: 'ap@dezwaan.be', vendor_email: 'billing@acme.be' });
  });

  it("sets an organization's retention period (operator), which decides when its tenants' documents may lose their personal data", async () => {
    const retention = (await get(t.operatorKey, `/api/operator/tenants/${seller.id}/retention`)).body;
    const year = Number(String(retention.latest_document_date).slice(0, 4));
    expect(retention).to.include({
      tenant_id: seller.id,
      organization_id: organization.id,
      retention_years: 10,
      retention_until: `${year + 11}-01-01`,
      retention_over: false,
      personal_data_erased_at: null,
    });
    expect(year).to.be.at.least(new Date().getUTCFullYear());

    for (const [body, loc] of [
      [{ retention_years: 0, reason: 'x' }, 'retention_years'],
      [{ retention_years: 51, reason: 'x' }, 'retention_years'],
      [{ retention_years: 7.5, reason: 'x' }, 'retention_years'],
      [{ retention_years: 7, reason: '  ' }, 'reason'],
      [{ retention_years: 7 }, 'reason'],
    ] as const) {
      const res = await t.http
        .put(`/api/operator/organizations/${organization.id}/retention`)
        .set(operator())
        .send(body);
      expect(res.status, JSON.stringify(body)).to.equal(422);
      expect(res.body.detail[0].loc, JSON.stringify(body)).to.deep.equal(['body', loc]);
    }
    const set = await t.http
      .put(`/api/operator/organizations/${organization.id}/retention`)
      .set(operator())
      .send({ retention_years: 7, reason: 'Dutch tenants: AWR art. 52(4), seven years' });
    expect(set.status, JSON.stringify(set.body)).to.equal(200);
    expect(set.body).to.include({ id: organization.id, retention_years: 7 });
    expect(
      (
        await t.http
          .put('/api/operator/organizations/no-such-org/retention')
          .set(operator())
          .send({ retention_years: 7, reason: 'x' })
      ).status,
    ).to.equal(404);
    // The admin key of the organization may not change it.
    expect(
      (
        await t.http
          .put(`/api/operator/organizations/${organization.id}/retention`)
          .set(bearer(organization.adminKey))
          .send({ retention_years: 1, reason: 'x' })
      ).status,
    ).to.equal(401);
    const listed = await eventually(async () => {
      const res = await get(t.operatorKey, `/api/operator/organizations/${organization.id}`);
      return res.body.retention_years === 7 && res.body;
    }, 'the organization with its retention');
    expect(listed.retention_years).to.equal(7);
    const after = (await get(t.operatorKey, `/api/operator/tenants/${seller.id}/retention`)).body;
    expect(after).to.include({ retention_years: 7, retention_until: `${year + 8}-01-01`, retention_over: false });
    // Back to the default rule for what follows.
    expect(
      (
        await t.http
          .put(`/api/operator/organizations/${organization.id}/retention`)
          .set(operator())
          .send({ retention_years: 10, reason: 'Belgian VAT Code art. 60 §4' })
      ).status,
    ).to.equal(200);
  });

  it('refuses erasure within the retention period (409, nothing recorded), and a tenant without accounting documents is erased without a legal basis', async () => {
    const history = async () => Number((await pool.query('SELECT count(*) AS n FROM es_events')).rows[0].n);
    const before = await history();
    const refused = await t.http
      .post(`/api/operator/tenants/${seller.id}/erasure`)
      .set(operator())
      .send({ reason: 'Customer asked (GDPR art. 17)' });
    expect(refused.status, JSON.stringify(refused.body)).to.equal(409);
    expect(refused.body.detail)
      .to.match(/must be kept until \d{4}-01-01/)
      .and.contain('legal_basis');
    const noReason = await t.http
      .post(`/api/operator/tenants/${seller.id}/erasure`)
      .set(operator())
      .send({ reason: '' });
    expect(noReason.status).to.equal(422);
    expect(noReason.body.detail[0].loc).to.deep.equal(['body', 'reason']);
    expect(
      (await t.http.post('/api/operator/tenants/nobody/erasure').set(operator()).send({ reason: 'x' })).status,
    ).to.equal(404);
    expect(
      (
        await t.http
          .post(`/api/operator/tenants/${seller.id}/erasure`)
          .set(bearer(organization.adminKey))
          .send({ reason: 'x' })
      ).status,
    ).to.equal(401);
    expect(await history()).to.equal(before);
    expect((await get(seller.key, `/api/documents/${mailed}`)).body.customer_email).to.equal('ap@dezwaan.be');

    // Drafts are not accounting documents: a tenant with only drafts has no retention to wait for.
    const fresh = await createTenant(t, organization.adminKey, 'erasure-drafts-only');
    const created = await t.http
      .post('/api/documents/')
      .set(bearer(fresh.key))
      .send({ ...invoice(), invoice_id: 'D-1' });
    expect(created.status).to.equal(200);
    const retention = (await get(t.operatorKey, `/api/operator/tenants/${fresh.id}/retention`)).body;
    expect(retention).to.include({ retention_until: null, retention_over: true });
    const erased = await t.http
      .post(`/api/operator/tenants/${fresh.id}/erasure`)
      .set(operator())
      .send({ reason: 'Account closed, no invoice ever issued' });
    expect(erased.status, JSON.stringify(erased.body)).to.equal(200);
    expect(erased.body).to.include({ retention_until: null, retention_overridden: false, legal_basis: null });
    expect((await get(fresh.key, `/api/documents/${created.body.id}`)).body.customer_email).to.equal(ERASED);
  });

  it('erases with a legal basis: personal values read as erased everywhere, payloads are gone, the rest works and the log is untouched', async () => {
    const log = async () =>
      (
        await pool.query<{ p: string; e: string }>(
          'SELECT global_position::text AS p, row_to_json(es_events)::text AS e FROM es_events ORDER BY global_position',
        )
      ).rows;
    // The blobs' keys and bytes (the digests the history chain covers).
    const blobs = async () =>
      (
        await pool.query<{ sha256: string; digest: string }>(
          "SELECT sha256, encode(sha256(content), 'hex') AS digest FROM blobs ORDER BY sha256",
        )
      ).rows;
    const logBefore = await log();
    const blobsBefore = await blobs();
    const asOfBefore = logBefore.at(-1)!.p;
    const res = await t.http.post(`/api/operator/tenants/${seller.id}/erasure`).set(operator()).send({
      reason: 'Request of the data subject (GDPR art. 17)',
      legal_basis: 'The tenant archives its invoices itself since 2025-01-01 and released us from keeping them',
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.include({ tenant_id: seller.id, retention_overridden: true });
    expect(res.body.keys_destroyed).to.deep.equal([1]);

    // The log: every event before is exactly as it was; one event more records the erasure.
    const logAfter = await log();
    expect(logAfter.slice(0, logBefore.length)).to.deep.equal(logBefore);
    expect(logAfter.slice(logBefore.length).map((r) => JSON.parse(r.e).type)).to.deep.equal([
      'TenantPersonalDataErased',
    ]);
    // Every blob is still there with the same bytes: the ciphertext stays, only the key is gone.
    expect(blobsBefore.every((b) => b.digest === b.sha256)).to.equal(true);
    expect(await blobs()).to.include.deep.members(blobsBefore);
    const key = await pool.query('SELECT wrapped, destroyed_at FROM personal_data_keys WHERE tenant_id = $1', [
      seller.id,
    ]);
    expect(key.rows).to.have.length(1);
    expect(key.rows[0].wrapped).to.equal(null);
    expect(key.rows[0].destroyed_at).to.be.instanceOf(Date);

    // The documents: personal values erased, everything else as it was.
    const doc = await eventually(async () => {
      const d = (await get(seller.key, `/api/documents/${mailed}`)).body;
      return d.customer_email === ERASED && d;
    }, 'the document read model rewritten');
    expect(doc).to.include({
      customer_email: ERASED,
      vendor_email: ERASED,
      vendor_address_recipient: ERASED,
      vendor_name: 'Acme Solutions BV',
      customer_name: 'Brouwerij De Zwaan NV',
      invoice_id: 'PD-MAILED',
      invoice_total: '3384.98',
      state: 'SENT',
    });
    expect(doc.items).to.have.length(2);
    for (const id of [mailed, delivered, draft]) {
      const asOf = (await get(seller.key, `/api/documents/${id}?as_of=${asOfBefore}`)).body;
      expect(asOf.customer_email, `${id} as of before the erasure`).to.equal(ERASED);
    }
    const outbox = (await get(seller.key, '/api/outbox')).body;
    expect(outbox.total).to.equal(2);
    expect(outbox.items.every((d: { customer_email: string }) => d.customer_email === ERASED)).to.equal(true);
    expect((await get(seller.key, `/api/outbox?as_of=${asOfBefore}`)).body.items[0].customer_email).to.equal(ERASED);
    expect((await get(seller.key, '/api/outbox?receiver=dezwaan.be')).body.total).to.equal(0);
    expect((await get(seller.key, '/api/outbox?receiver=Zwaan')).body.total).to.equal(2);
    expect((await get(seller.key, '/api/stats?from=2024-01-01&to=2030-12-31')).body.totals.count).to.equal(3);
    const report = (await get(seller.key, `/api/documents/${mailed}/transmission-report`)).body;
    expect(report.deliveries[0]).to.include({ email: ERASED, status: 'sent' });
    expect(report.deliveries[0].attempts[0]).to.include({ receiver: ERASED, outcome: 'delivered' });
    const history = (await get(seller.key, `/api/documents/${mailed}/history`)).body.events;
    expect(history.find((e: { type: string }) => e.type === 'SendRequested').data.email).to.equal(ERASED);
    const tenant = (await get(t.operatorKey, `/api/operator/tenants/${seller.id}`)).body;
    expect(tenant.test_mode_email).to.equal(ERASED);

    // The payloads recorded before are gone; the draft cannot be sent any more.
    for (const path of [
      `/api/documents/${mailed}/ubl?format=xml`,
      `/api/documents/${mailed}/pdf`,
      `/api/documents/${draft}/attachments/${attachmentId}?download=true`,
    ]) {
      const gone = await get(seller.key, path);
      expect(gone.status, path).to.equal(410);
      expect(gone.body.detail, path).to.contain('erased');
    }
    await setTestMode(seller.id, true, 'fresh@seller.test');
    const send = await t.http.post(`/api/documents/${draft}/send`).set(bearer(seller.key));
    expect(send.status, JSON.stringify(send.body)).to.equal(409);
    expect(send.body.detail).to.contain('erased');

    // No read model keeps the seller's erased values (the buyer's own copy is the buyer's).
    for (const value of PERSONAL) {
      const sql = `SELECT doc::text AS text FROM rm_documents WHERE doc->>'tenant_id' = '${seller.id}'
                   UNION ALL SELECT doc::text FROM rm_document_contents WHERE doc->>'tenant_id' = '${seller.id}'
                   UNION ALL SELECT doc::text FROM rm_document_versions WHERE doc->>'tenant_id' = '${seller.id}'
                   UNION ALL SELECT doc::text FROM rm_tenants WHERE id = '${seller.id}'`;
      expect(await rowsWith(sql, value), value).to.equal('0');
    }
    const inbox = (await get(buyer.key, '/api/inbox?search=PD-PEPPOL')).body.items[0];
    expect(inbox).to.include({ customer_email: 'ap@dezwaan.be' });
    expect((await get(buyer.key, `/api/documents/${inbox.id}/ubl?format=xml`)).status).to.equal(200);

    // What comes after has a key of its own: a new document keeps and shows its personal values.
    const later = await t.http
      .post('/api/documents/')
      .set(bearer(seller.key))
      .send({ ...invoice(), invoice_id: 'PD-AFTER' });
    expect(later.status).to.equal(200);
    expect(later.body.customer_email).to.equal('ap@dezwaan.be');
    expect((await t.http.post(`/api/documents/${later.body.id}/send`).set(bearer(seller.key))).status).to.equal(200);
    await waitForState(t, seller.key, later.body.id, ['SENT']);
    expect((await get(seller.key, `/api/documents/${later.body.id}/ubl?format=xml`)).text).to.contain('ap@dezwaan.be');
    expect(
      (await get(t.operatorKey, `/api/operator/tenants/${seller.id}/retention`)).body.personal_data_erased_at,
    ).to.be.a('string');
  });

  it('leaves the read models as a rebuild from the log makes them now', async () => {
    const runner = t.service.resolve<ProjectionRunner>(ProjectionRunner);
    await runner.catchUp(10_000);
    const rows = async (db: pg.Pool, table: string) =>
      (
        await db.query<{ id: string; doc: string }>(
          `SELECT id, doc::text AS doc FROM ${table} WHERE doc->>'tenant_id' = $1 ORDER BY id`,
          [seller.id],
        )
      ).rows;
    const rebuildPool = new pg.Pool({ connectionString: await freshDatabase('erasure_rebuild'), max: 2 });
    try {
      await applyPostgresSchema(rebuildPool);
      const projections = [documentsProjection(t.service.resolve(DocumentContent)), documentVersionsProjection];
      const rebuild = new ProjectionRunner(
        t.service.resolve<EventStore>(EVENT_STORE),
        new PgReadModelStore(rebuildPool),
        projections,
        pino({ level: 'silent' }),
      );
      await rebuild.start();
      expect(await rebuild.catchUp(30_000)).to.equal(true);
      await rebuild.stop();
      for (const table of ['rm_documents', 'rm_document_contents', 'rm_document_versions'])
        expect(await rows(rebuildPool, table), table).to.deep.equal(await rows(pool, table));
    } finally {
      await rebuildPool.end();
    }
  });
});
