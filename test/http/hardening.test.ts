import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import {
  bearer,
  createOrganization,
  createTenant,
  startTestService,
  waitForState,
  type TestService,
} from '../support/service.js';
import { realisticDocuments } from '../domain/document/fixtures/realisticDocuments.js';
import { belgianNumber } from '../support/peppol.js';
import { decodeDocumentInput } from '../../src/http/codecs/documentCodec.js';
import { checkDocument } from '../../src/domain/document/rules/documentCheck.js';

const invoice = (invoiceId = `H-${randomUUID().slice(0, 8)}`) => ({
  ...(structuredClone(realisticDocuments()[0]!.body) as Record<string, unknown>),
  invoice_id: invoiceId,
});

/** What a 422's detail names: each problem's loc joined with dots. */
const locs = (body: { detail: Array<{ loc: Array<string | number> }> }) => body.detail.map((p) => p.loc.join('.'));

describe('Hardening: lifecycle, idempotency, duplicates, text hygiene, limits (real app, real PostgreSQL)', function () {
  this.timeout(120_000);
  let t: TestService;
  let adminKey: string;
  let tenant: { id: string; key: string };
  let testMode: { id: string; key: string };

  before(async () => {
    t = await startTestService({ documentLimits: { maxLines: 40, maxAttachments: 2, maxRenderedLines: 30 } });
    adminKey = (await createOrganization(t)).adminKey;
    tenant = await createTenant(t, adminKey);
    // Sends the fixture seller's documents (BE0403013026): it holds that id.
    testMode = await createTenant(t, adminKey, undefined, { peppol_ids: ['0208:0403013026'] });
    expect(
      (
        await t.http
          .put(`/api/operator/tenants/${testMode.id}/test-mode`)
          .set(bearer(t.operatorKey))
          .send({ test_mode: true, email: 'qa@tenant.test' })
      ).status,
    ).to.equal(200);
  });
  after(async () => {
    await t?.stop();
  });

  const count = async (key: string) => (await t.http.get('/api/documents').set(bearer(key))).body.total as number;

  describe('the service owns the lifecycle', () => {
    it('refuses a body that sets another state or direction (422 naming it), records nothing, and accepts DRAFT/OUTBOUND', async () => {
      const before = await count(tenant.key);
      for (const [field, value] of [
        ['state', 'RECEIVED'],
        ['state', 'SENT'],
        ['state', 'TRANSIT'],
        ['direction', 'INBOUND'],
      ] as const) {
        const res = await t.http
          .post('/api/documents/')
          .set(bearer(tenant.key))
          .send({ ...invoice(), [field]: value });
        expect(res.status, `${field}=${value}`).to.equal(422);
        expect(locs(res.body)).to.deep.equal([`body.${field}`]);
      }
      expect(await count(tenant.key)).to.equal(before);
      const ok = await t.http
        .post('/api/documents/')
        .set(bearer(tenant.key))
        .send({ ...invoice(), state: 'DRAFT', direction: 'OUTBOUND' });
      expect(ok.status).to.equal(200);
      expect(ok.body).to.include({ state: 'DRAFT', direction: 'OUTBOUND' });
      // A document the tenant created is not in its inbox, so it cannot be accepted or rejected.
      expect((await t.http.post(`/api/inbox/${ok.body.id}/accept`).set(bearer(tenant.key)).send({})).status).to.equal(
        404,
      );
    });
  });

  describe('Idempotency-Key', () => {
    it('answers a repeated create with the first result and records one document; another body with the key is a 422', async () => {
      const key = `create-${randomUUID()}`;
      const body = invoice();
      const before = await count(tenant.key);
      const first = await t.http.post('/api/documents/').set(bearer(tenant.key)).set('Idempotency-Key', key).send(body);
      const again = await t.http.post('/api/documents/').set(bearer(tenant.key)).set('Idempotency-Key', key).send(body);
      expect(first.status).to.equal(200);
      expect(again.status).to.equal(200);
      expect(again.body.id).to.equal(first.body.id);
      expect(again.headers['idempotent-replayed']).to.equal('true');
      expect(await count(tenant.key)).to.equal(before + 1);
      const other = await t.http
        .post('/api/documents/')
        .set(bearer(tenant.key))
        .set('Idempotency-Key', key)
        .send(invoice());
      expect(other.status).to.equal(422);
      expect(locs(other.body)).to.deep.equal(['header.Idempotency-Key']);
      expect(await count(tenant.key)).to.equal(before + 1);
      // Keys are per tenant: another tenant's same key is its own.
      const theirs = await t.http
        .post('/api/documents/')
        .set(bearer(testMode.key))
        .set('Idempotency-Key', key)
        .send(body);
      expect(theirs.status).to.equal(200);
      expect(theirs.body.id).to.not.equal(first.body.id);
    });

    it('records one document for concurrent repeats of a request: each answer is its result or a 409 while it is worked on', async () => {
      const key = `race-${randomUUID()}`;
      const body = invoice();
      const before = await count(tenant.key);
      const answers = await Promise.all(
        Array.from({ length: 5 }, () =>
          t.http.post('/api/documents/').set(bearer(tenant.key)).set('Idempotency-Key', key).send(body),
        ),
      );
      for (const answer of answers) expect([200, 409]).to.include(answer.status);
      const created = answers.filter((a) => a.status === 200);
      expect(created.length).to.be.greaterThan(0);
      expect(new Set(created.map((a) => a.body.id)).size).to.equal(1);
      expect(await count(tenant.key)).to.equal(before + 1);
    });

    it('replays a refusal too, for raw UBL uploads as for JSON', async () => {
      const key = `ubl-${randomUUID()}`;
      const xml = '<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"><broken></Invoice>';
      const first = await t.http
        .post('/api/documents/ubl')
        .set(bearer(tenant.key))
        .set('Idempotency-Key', key)
        .set('Content-Type', 'application/xml')
        .send(xml);
      const again = await t.http
        .post('/api/documents/ubl')
        .set(bearer(tenant.key))
        .set('Idempotency-Key', key)
        .set('Content-Type', 'application/xml')
        .send(xml);
      expect(first.status).to.equal(400);
      expect(again.status).to.equal(400);
      expect(again.body).to.deep.equal(first.body);
      expect(again.headers['idempotent-replayed']).to.equal('true');
    });

    it('answers a retry of a create and a send whose process died before keeping the result from what their events say', async () => {
      // What a process killed between its append and keeping the result leaves: the claim (a
      // session lock) died with it, the key's row has no result, the events carry the key.
      const pool = new pg.Pool({ connectionString: t.databaseUrl, max: 1 });
      const forget = (key: string) =>
        pool.query('UPDATE idempotency_keys SET status = NULL, body = NULL WHERE key = $1', [key]);
      try {
        const createKey = `lost-create-${randomUUID()}`;
        const body = invoice();
        const before = await count(testMode.key);
        const post = () =>
          t.http.post('/api/documents/').set(bearer(testMode.key)).set('Idempotency-Key', createKey).send(body);
        const first = await post();
        expect(first.status).to.equal(200);
        expect((await forget(createKey)).rowCount).to.equal(1);
        const again = await post();
        expect(again.status).to.equal(200);
        expect(again.body).to.deep.equal(first.body);
        expect(await count(testMode.key)).to.equal(before + 1);
        // Another request with the key is still refused: the key keeps the request it was first used with.
        await forget(createKey);
        const other = await t.http
          .post('/api/documents/')
          .set(bearer(testMode.key))
          .set('Idempotency-Key', createKey)
          .send(invoice());
        expect(other.status).to.equal(422);

        const sendKey = `lost-send-${randomUUID()}`;
        const send = () =>
          t.http.post(`/api/documents/${first.body.id}/send`).set(bearer(testMode.key)).set('Idempotency-Key', sendKey);
        const sent = await send();
        expect(sent.status).to.equal(200);
        expect(sent.body.state).to.equal('TRANSIT');
        await waitForState(t, testMode.key, first.body.id, ['SENT']);
        await forget(sendKey);
        // Not "A SENT document cannot be sent": the send's own result.
        const resent = await send();
        expect(resent.status, JSON.stringify(resent.body)).to.equal(200);
        expect(resent.body).to.deep.equal(sent.body);
        const report = (
          await t.http.get(`/api/documents/${first.body.id}/transmission-report`).set(bearer(testMode.key))
        ).body;
        expect(report.deliveries).to.have.length(1);
        // Without the key, sending it again is what it is.
        expect((await t.http.post(`/api/documents/${first.body.id}/send`).set(bearer(testMode.key))).status).to.equal(
          409,
        );
      } finally {
        await pool.end();
      }
    });

    it('sends once for a repeated send, and refuses a malformed key', async () => {
      const doc = (await t.http.post('/api/documents/').set(bearer(testMode.key)).send(invoice())).body;
      const key = randomUUID();
      const first = await t.http
        .post(`/api/documents/${doc.id}/send`)
        .set(bearer(testMode.key))
        .set('Idempotency-Key', key);
      const again = await t.http
        .post(`/api/documents/${doc.id}/send`)
        .set(bearer(testMode.key))
        .set('Idempotency-Key', key);
      expect(first.status).to.equal(200);
      expect(again.status).to.equal(200);
      expect(again.body.state).to.equal(first.body.state);
      await waitForState(t, testMode.key, doc.id, ['SENT']);
      const report = (await t.http.get(`/api/documents/${doc.id}/transmission-report`).set(bearer(testMode.key))).body;
      expect(report.deliveries).to.have.length(1);
      const bad = await t.http
        .post('/api/documents/')
        .set(bearer(tenant.key))
        .set('Idempotency-Key', 'has space')
        .send(invoice());
      expect(bad.status).to.equal(422);
    });
  });

  describe('one number, one receiver', () => {
    it('refuses to send a number this tenant already sent to the same receiver (409 naming the earlier document); another number goes', async () => {
      const first = (await t.http.post('/api/documents/').set(bearer(testMode.key)).send(invoice('DUP-1'))).body;
      expect((await t.http.post(`/api/documents/${first.id}/send`).set(bearer(testMode.key))).status).to.equal(200);
      const second = (await t.http.post('/api/documents/').set(bearer(testMode.key)).send(invoice('DUP-1'))).body;
      const refused = await t.http.post(`/api/documents/${second.id}/send`).set(bearer(testMode.key));
      expect(refused.status).to.equal(409);
      expect(refused.body.detail).to.include(first.id).and.to.include('DUP-1');
      expect((await t.http.get(`/api/documents/${second.id}`).set(bearer(testMode.key))).body.state).to.equal('DRAFT');
      const other = (await t.http.post('/api/documents/').set(bearer(testMode.key)).send(invoice('DUP-2'))).body;
      expect((await t.http.post(`/api/documents/${other.id}/send`).set(bearer(testMode.key))).status).to.equal(200);
      // The same number to another receiver is another document.
      const elsewhere = (
        await t.http
          .post('/api/documents/')
          .set(bearer(testMode.key))
          .send({ ...invoice('DUP-1'), customer_peppol_id: `0208:${belgianNumber()}` })
      ).body;
      expect((await t.http.post(`/api/documents/${elsewhere.id}/send`).set(bearer(testMode.key))).status).to.equal(200);
    });
  });

  it('lets one of two concurrent sends of one number to one receiver through; the other is a 409 and stays a DRAFT', async () => {
    const number = `RACE-${randomUUID().slice(0, 8)}`;
    const docs = await Promise.all(
      [0, 1].map(
        async () => (await t.http.post('/api/documents/').set(bearer(testMode.key)).send(invoice(number))).body,
      ),
    );
    const sends = await Promise.all(
      docs.map((d) => t.http.post(`/api/documents/${d.id}/send`).set(bearer(testMode.key))),
    );
    expect(sends.map((r) => r.status).sort()).to.deep.equal([200, 409]);
    const loser = docs[sends.findIndex((r) => r.status === 409)]!;
    expect((await t.http.get(`/api/documents/${loser.id}`).set(bearer(testMode.key))).body.state).to.equal('DRAFT');
  });

  describe('no leaks between organizations', () => {
    it('lets two organizations each have a tenant of the same name; a similar name within one is a 409', async () => {
      const other = await createOrganization(t, 'Other reseller');
      const name = `shared-${randomUUID().slice(0, 6)}`;
      const similar = name.replace('-', '');
      expect((await t.http.post('/api/admin/tenants').set(bearer(adminKey)).send({ name })).status).to.equal(201);
      expect((await t.http.post('/api/admin/tenants').set(bearer(other.adminKey)).send({ name })).status).to.equal(201);
      expect(
        (await t.http.post('/api/admin/tenants').set(bearer(other.adminKey)).send({ name: similar })).status,
      ).to.equal(409);
    });
  });

  describe('text no field may hold', () => {
    it('refuses NUL, lone surrogates and U+FFFF in the path, the query and the body with a 422 naming the field', async () => {
      const inPath = await t.http.get(`/api/documents/${encodeURIComponent('abc\u0000def')}`).set(bearer(tenant.key));
      expect(inPath.status, JSON.stringify(inPath.body)).to.equal(422);
      expect(locs(inPath.body)).to.deep.equal(['path.documentId']);
      // A URL's percent-decoding turns a lone surrogate's bytes into U+FFFD: only JSON can carry one.
      for (const raw of ['x%00y', 'x%EF%BF%BFy']) {
        const inQuery = await t.http.get(`/api/outbox/drafts?search=${raw}`).set(bearer(tenant.key));
        expect(inQuery.status, raw).to.equal(422);
        expect(locs(inQuery.body)).to.deep.equal(['query.search']);
      }
      for (const [field, bad] of [
        ['vendor_name', 'Acme\u0000'],
        ['note', '\uDC00'],
        ['customer_address', 'x\uFFFF'],
      ] as const) {
        const res = await t.http
          .post('/api/validate/json')
          .set(bearer(tenant.key))
          .send({ ...invoice(), [field]: bad });
        expect(res.status, field).to.equal(422);
        expect(locs(res.body), field).to.deep.equal([`body.${field}`]);
      }
      const inLine = await t.http
        .post('/api/documents/')
        .set(bearer(tenant.key))
        .send({ ...invoice(), items: [{ description: 'a\u0001b', quantity: 1, unit_price: 1, tax_rate: '21.00' }] });
      expect(locs(inLine.body)).to.deep.equal(['body.items.0.description']);
    });

    it('checks a large document body (parsed on a worker process) the same way: bad text is a 422 naming the field, bad JSON a 400', async () => {
      const padding = 'x'.repeat(9_000);
      const large = {
        ...invoice(),
        items: Array.from({ length: 10 }, (_, i) => ({
          description: i === 7 ? 'bad\u0000' : padding,
          quantity: 1,
          unit_price: 1,
          tax_rate: '21.00',
          unit: 'C62',
        })),
      };
      const text = JSON.stringify(large);
      expect(text.length).to.be.greaterThan(64 * 1024);
      const bad = await t.http
        .post('/api/validate/json')
        .set(bearer(tenant.key))
        .set('Content-Type', 'application/json')
        .send(text);
      expect(bad.status).to.equal(422);
      expect(locs(bad.body)).to.deep.equal(['body.items.7.description']);
      const broken = await t.http
        .post('/api/documents/')
        .set(bearer(tenant.key))
        .set('Content-Type', 'application/json')
        .send(`${text.slice(0, -1)},`);
      expect(broken.status).to.equal(400);
      expect(broken.body.detail).to.equal('Malformed JSON in request body');
      const fine = await t.http
        .post('/api/validate/json')
        .set(bearer(tenant.key))
        .set('Content-Type', 'application/json')
        .send(text.replace('bad\\u0000', 'good'));
      expect(fine.status, JSON.stringify(fine.body).slice(0, 300)).to.equal(200);
    });

    it('refuses over-long strings and over-deep JSON, naming the limit', async () => {
      const long = await t.http
        .post('/api/validate/json')
        .set(bearer(tenant.key))
        .send({ ...invoice(), invoice_id: 'x'.repeat(1_000_000) });
      expect(long.status).to.equal(422);
      expect(locs(long.body)).to.deep.equal(['body.invoice_id']);
      expect(long.body.detail[0].msg).to.include('MAX_STRING_LENGTH');
      const id = await t.http
        .post('/api/validate/json')
        .set(bearer(tenant.key))
        .send({ ...invoice(), invoice_id: 'x'.repeat(201) });
      expect(id.status).to.equal(422);
      expect(locs(id.body)).to.deep.equal(['body.invoice_id']);
      let deep: unknown = 'bottom';
      for (let i = 0; i < 100; i++) deep = [deep];
      const nested = await t.http
        .post('/api/validate/json')
        .set(bearer(tenant.key))
        .send({ ...invoice(), note: deep });
      expect(nested.status).to.equal(422);
      expect(nested.body.detail[0].msg).to.include('MAX_JSON_DEPTH');
    });
  });

  describe('document size limits', () => {
    it('refuses more lines than MAX_DOCUMENT_LINES, naming the limit, and more attachments than MAX_DOCUMENT_ATTACHMENTS', async () => {
      const line = { description: 'Item', quantity: 1, unit_price: 10, tax_rate: '21.00', unit: 'C62' };
      const res = await t.http
        .post('/api/documents/')
        .set(bearer(tenant.key))
        .send({ ...invoice(), items: Array.from({ length: 41 }, () => line) });
      expect(res.status).to.equal(422);
      expect(res.body.detail[0]).to.deep.include({ loc: ['body', 'items'], type: 'limit_exceeded' });
      expect(res.body.detail[0].msg).to.include('MAX_DOCUMENT_LINES');
      // Uploaded UBL is held to the same number of lines.
      const decoded = decodeDocumentInput(
        { ...invoice(), items: Array.from({ length: 41 }, () => line) },
        { maxLines: 100, maxAttachments: 10, maxRenderedLines: 10 },
      );
      if (!decoded.ok) throw new Error(JSON.stringify(decoded.errors));
      const ubl = checkDocument(decoded.value).ubl;
      const uploaded = await t.http
        .post('/api/documents/ubl')
        .set(bearer(tenant.key))
        .set('Content-Type', 'application/xml')
        .send(ubl);
      expect(uploaded.status).to.equal(422);
      expect(uploaded.body.detail[0].msg).to.include('MAX_DOCUMENT_LINES');
      const doc = (await t.http.post('/api/documents/').set(bearer(tenant.key)).send(invoice())).body;
      const attach = (name: string) =>
        t.http
          .post(`/api/documents/${doc.id}/attachments`)
          .set(bearer(tenant.key))
          .attach('file', Buffer.from('%PDF-1.4 test'), { filename: name, contentType: 'application/pdf' });
      expect((await attach('a.pdf')).status).to.equal(200);
      expect((await attach('b.pdf')).status).to.equal(200);
      const third = await attach('c.pdf');
      expect(third.status).to.equal(422);
      expect(third.body.detail[0].msg).to.include('MAX_DOCUMENT_ATTACHMENTS');
      expect((await t.http.get(`/api/documents/${doc.id}/attachments`).set(bearer(tenant.key))).body).to.have.length(2);
    });

    it('renders PDFs of documents up to PDF_RENDER_MAX_LINES lines; longer ones are a 422 naming the limit, and nothing is recorded', async () => {
      const line = { description: 'Item', quantity: 1, unit_price: 10, tax_rate: '21.00', unit: 'C62' };
      const long = { ...invoice(), items: Array.from({ length: 31 }, () => line) };
      const before = await count(tenant.key);
      const refused = await t.http.post('/api/documents/?construct_pdf=true').set(bearer(tenant.key)).send(long);
      expect(refused.status).to.equal(422);
      expect(refused.body.detail[0].loc).to.deep.equal(['query', 'construct_pdf']);
      expect(refused.body.detail[0].msg).to.include('PDF_RENDER_MAX_LINES');
      expect(await count(tenant.key)).to.equal(before);
      const created = await t.http.post('/api/documents/').set(bearer(tenant.key)).send(long);
      expect(created.status).to.equal(200);
      const pdf = await t.http.get(`/api/documents/${created.body.id}/pdf`).set(bearer(tenant.key));
      expect(pdf.status).to.equal(422);
      expect(pdf.body.detail[0].msg).to.include('PDF_RENDER_MAX_LINES');
      const short = (await t.http.post('/api/documents/').set(bearer(tenant.key)).send(invoice())).body;
      expect((await t.http.get(`/api/documents/${short.id}/pdf`).set(bearer(tenant.key))).status).to.equal(200);
    });
  });
});
