import { expect } from 'chai';
import EInvoice, { toFile } from 'e-invoice-api';
import {
  bearer,
  createOrganization,
  createTenant,
  publicClient,
  startTestService,
  type TestService,
} from '../support/service.js';
import { realisticDocuments } from '../domain/document/fixtures/realisticDocuments.js';

const fixtures = realisticDocuments();
const invoice = () => structuredClone(fixtures[0]!.body);

describe('Documents, validation and lists (real app, real PostgreSQL)', function () {
  let t: TestService;
  let tenant: { id: string; key: string };
  let other: { id: string; key: string };

  before(async () => {
    t = await startTestService();
    const org = await createOrganization(t);
    tenant = await createTenant(t, org.adminKey);
    other = await createTenant(t, org.adminKey);
  });
  after(async () => t?.stop());

  describe('POST /api/documents', () => {
    it('creates a document from JSON, computing totals, with every amount a string', async () => {
      const res = await t.http.post('/api/documents/').set(bearer(tenant.key)).send(invoice());
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.id).to.be.a('string');
      expect(res.body).to.include({
        state: 'DRAFT',
        direction: 'OUTBOUND',
        document_type: 'INVOICE',
        invoice_id: 'ACME-2025-0001',
      });
      // 2 × 1250 + 3.5 × 85 = 2797.50; 21% VAT = 587.48 (rounded half up)
      expect(res.body.subtotal).to.equal('2797.50');
      expect(res.body.total_tax).to.equal('587.48');
      expect(res.body.invoice_total).to.equal('3384.98');
      expect(res.body.items[1].amount).to.equal('297.50');
      expect(res.body.created_at).to.be.a('string');
    });

    it('refuses a document whose line amount does not match quantity × price, with the field path, and records nothing', async () => {
      const before = await t.service.eventStore.headPosition();
      const body = invoice() as { items: Array<Record<string, unknown>> };
      body.items[0]!.amount = 9999;
      const res = await t.http.post('/api/documents/').set(bearer(tenant.key)).send(body);
      expect(res.status).to.equal(422);
      expect(
        res.body.detail.some(
          (d: { loc: unknown[] }) => JSON.stringify(d.loc) === JSON.stringify(['body', 'items', 0, 'amount']),
        ),
      ).to.equal(true);
      expect(await t.service.eventStore.headPosition()).to.equal(before);
    });

    it('answers wrong types with 422 and paths such as items[0].tax_rate', async () => {
      const body = invoice() as { items: Array<Record<string, unknown>>; currency?: string; invoice_date?: string };
      body.items[0]!.tax_rate = 21;
      body.currency = 'XYZ';
      body.invoice_date = '21/01/2026';
      const res = await t.http.post('/api/documents/').set(bearer(tenant.key)).send(body);
      expect(res.status).to.equal(422);
      const locs = res.body.detail.map((d: { loc: unknown[] }) => JSON.stringify(d.loc));
      expect(locs).to.include(JSON.stringify(['body', 'items', 0, 'tax_rate']));
      expect(locs).to.include(JSON.stringify(['body', 'currency']));
      expect(locs).to.include(JSON.stringify(['body', 'invoice_date']));
    });

    it('refuses a body without items', async () => {
      const res = await t.http.post('/api/documents/').set(bearer(tenant.key)).send({ invoice_id: 'X' });
      expect(res.status).to.equal(422);
    });
  });

  describe('reading, UBL, validation and deletion', () => {
    let id: string;
    before(async () => {
      id = (await t.http.post('/api/documents/').set(bearer(tenant.key)).send(invoice())).body.id;
    });

    it('reads the document back, and hides it from another tenant (404)', async () => {
      const mine = await t.http.get(`/api/documents/${id}`).set(bearer(tenant.key));
      expect(mine.status).to.equal(200);
      expect(mine.body.id).to.equal(id);
      for (const path of [`/api/documents/${id}`, `/api/documents/${id}/ubl`, `/api/documents/${id}/attachments`]) {
        const theirs = await t.http.get(path).set(bearer(other.key));
        expect(theirs.status, path).to.equal(404);
      }
      expect((await t.http.post(`/api/documents/${id}/validate`).set(bearer(other.key))).status).to.equal(404);
      expect((await t.http.delete(`/api/documents/${id}`).set(bearer(other.key))).status).to.equal(404);
    });

    it('serves the UBL as metadata and as XML', async () => {
      const meta = await t.http.get(`/api/documents/${id}/ubl`).set(bearer(tenant.key));
      expect(meta.status).to.equal(200);
      expect(meta.body.file_name).to.equal('ACME-2025-0001.xml');
      expect(meta.body.file_hash).to.match(/^[0-9a-f]{64}$/);
      const xml = await t.http.get(`/api/documents/${id}/ubl?format=xml`).set(bearer(tenant.key));
      expect(xml.headers['content-type']).to.match(/application\/xml/);
      expect(xml.text).to.include('<cbc:ID>ACME-2025-0001</cbc:ID>');
      expect(xml.text).to.include('urn:fdc:peppol.eu:2017:poacc:billing:3.0');
    });

    it('validates a stored document again and records the run', async () => {
      const res = await t.http.post(`/api/documents/${id}/validate`).set(bearer(tenant.key));
      expect(res.status).to.equal(200);
      expect(res.body.is_valid).to.equal(true);
      const history = await t.service.eventStore.readStream(`document-${id}`);
      expect(history.map((e) => e.type)).to.deep.equal(['DocumentCreated', 'DocumentValidated']);
    });

    it('adds, lists, downloads and removes attachments; the UBL carries them while they are there, and still validates', async () => {
      const ubl = async () => (await t.http.get(`/api/documents/${id}/ubl?format=xml`).set(bearer(tenant.key))).text;
      const original = await ubl();
      const add = await t.http
        .post(`/api/documents/${id}/attachments`)
        .set(bearer(tenant.key))
        .attach('file', Buffer.from('day;hours\n1;8\n'), 'timesheet.csv');
      expect(add.status, JSON.stringify(add.body)).to.equal(200);
      expect(add.body).to.include({ file_name: 'timesheet.csv', file_type: 'text/csv', file_size: 14 });
      const list = await t.http.get(`/api/documents/${id}/attachments`).set(bearer(tenant.key));
      expect(list.body.map((a: { id: string }) => a.id)).to.include(add.body.id);
      const content = await t.http
        .get(`/api/documents/${id}/attachments/${add.body.id}?download=true`)
        .set(bearer(tenant.key))
        .buffer(true);
      expect(content.text).to.equal('day;hours\n1;8\n');
      const withAttachment = await ubl();
      expect(withAttachment).to.contain(`<cbc:ID>${add.body.id}</cbc:ID>`);
      expect(withAttachment).to.contain(
        `<cbc:EmbeddedDocumentBinaryObject mimeCode="text/csv" filename="timesheet.csv">${Buffer.from('day;hours\n1;8\n').toString('base64')}</cbc:EmbeddedDocumentBinaryObject>`,
      );
      const validation = await t.http.post(`/api/documents/${id}/validate`).set(bearer(tenant.key));
      expect(validation.body.is_valid, JSON.stringify(validation.body.issues)).to.equal(true);
      // The history lists the attachment without its content or the UBL.
      const history = (await t.http.get(`/api/documents/${id}/history`).set(bearer(tenant.key))).body.events;
      const added = history.find((e: { type: string }) => e.type === 'AttachmentAdded');
      expect(added.data).to.not.have.property('ubl');
      expect(added.data.attachment).to.not.have.property('file_data');

      expect(
        (await t.http.delete(`/api/documents/${id}/attachments/${add.body.id}`).set(bearer(tenant.key))).body,
      ).to.deep.equal({ is_deleted: true });
      expect(
        (await t.http.get(`/api/documents/${id}/attachments/${add.body.id}`).set(bearer(tenant.key))).status,
      ).to.equal(404);
      expect(await ubl()).to.equal(original);
    });

    it('takes an upload of no stated type for what its name says, through the public client too', async () => {
      const { client, close } = await publicClient(t, tenant.key);
      try {
        const added = await client.documents.attachments.add(id, {
          file: await toFile(Buffer.from('%PDF-1.4 signed order'), 'order.pdf'),
        });
        expect(added).to.include({ file_name: 'order.pdf', file_type: 'application/pdf' });
        expect((await t.http.get(`/api/documents/${id}/ubl?format=xml`).set(bearer(tenant.key))).text).to.contain(
          'mimeCode="application/pdf" filename="order.pdf"',
        );
        await client.documents.attachments.delete(added.id, { document_id: id });
      } finally {
        await close();
      }
    });

    it('refuses attachments Peppol cannot carry (422), and changes to a document uploaded as UBL (409), recording nothing', async () => {
      const xml = (await t.http.get(`/api/documents/${id}/ubl?format=xml`).set(bearer(tenant.key))).text;
      const uploaded = (
        await t.http.post('/api/documents/ubl').set(bearer(tenant.key)).set('Content-Type', 'application/xml').send(xml)
      ).body;
      const before = await t.service.eventStore.headPosition();
      const add = (docId: string, content: Buffer, name: string, contentType?: string) =>
        t.http
          .post(`/api/documents/${docId}/attachments`)
          .set(bearer(tenant.key))
          .attach('file', content, contentType ? { filename: name, contentType } : name);

      const text = await add(id, Buffer.from('notes'), 'notes.txt', 'text/plain');
      expect(text.status).to.equal(422);
      expect(text.body.detail[0].loc).to.deep.equal(['body', 'file']);
      expect(text.body.detail[0].msg).to.match(
        /^Peppol invoices only carry attachments of these types: application\/pdf, image\/png, image\/jpeg, text\/csv, .*; this file is text\/plain$/,
      );
      const unknown = await add(id, Buffer.from('PK'), 'archive.zip', 'application/octet-stream');
      expect(unknown.status).to.equal(422);
      expect(unknown.body.detail[0].msg).to.match(/this file is application\/octet-stream$/);
      const empty = await add(id, Buffer.alloc(0), 'empty.pdf', 'application/pdf');
      expect(empty.status).to.equal(422);
      expect(empty.body.detail[0].msg).to.equal('The file is empty');

      const toUpload = await add(uploaded.id, Buffer.from('%PDF-1.4'), 'order.pdf');
      expect(toUpload.status).to.equal(409);
      expect(toUpload.body.detail).to.match(/created from uploaded UBL: it is sent as uploaded/);
      expect(await t.service.eventStore.headPosition()).to.equal(before);
    });

    it('deletes a draft; it is then gone', async () => {
      const created = await t.http.post('/api/documents/').set(bearer(tenant.key)).send(invoice());
      const res = await t.http.delete(`/api/documents/${created.body.id}`).set(bearer(tenant.key));
      expect(res.body).to.deep.equal({ is_deleted: true });
      expect((await t.http.get(`/api/documents/${created.body.id}`).set(bearer(tenant.key))).status).to.equal(404);
      expect((await t.http.delete(`/api/documents/${created.body.id}`).set(bearer(tenant.key))).status).to.equal(404);
    });
  });

  describe('UBL in', () => {
    it('creates a document from UBL (raw XML and multipart) that converts back to an equivalent document', async () => {
      const source = await t.http.post('/api/documents/').set(bearer(tenant.key)).send(fixtures[1]!.body);
      const xml = (await t.http.get(`/api/documents/${source.body.id}/ubl?format=xml`).set(bearer(tenant.key))).text;
      const raw = await t.http
        .post('/api/documents/ubl')
        .set(bearer(tenant.key))
        .set('Content-Type', 'application/xml')
        .send(xml);
      expect(raw.status, JSON.stringify(raw.body)).to.equal(200);
      const multipart = await t.http
        .post('/api/documents/ubl')
        .set(bearer(tenant.key))
        .attach('file', Buffer.from(xml), 'in.xml');
      expect(multipart.status).to.equal(200);
      for (const field of [
        'invoice_id',
        'subtotal',
        'total_tax',
        'invoice_total',
        'vendor_name',
        'customer_name',
        'currency',
      ]) {
        expect(raw.body[field], field).to.equal(source.body[field]);
        expect(multipart.body[field], field).to.equal(source.body[field]);
      }
      expect(raw.body.items.map((i: { amount: string }) => i.amount)).to.deep.equal(
        source.body.items.map((i: { amount: string }) => i.amount),
      );
    });

    it('answers hostile or wrong XML with a 4xx and records nothing', async () => {
      const before = await t.service.eventStore.headPosition();
      const bomb = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]><Invoice>&lol2;</Invoice>`;
      const external = `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><Invoice>&e;</Invoice>`;
      const cases = [bomb, external, '<Invoice><unclosed></Invoice>', '<html><body>hi</body></html>', 'not xml at all'];
      for (const body of cases) {
        for (const path of ['/api/documents/ubl', '/api/validate/ubl']) {
          const res = await t.http.post(path).set(bearer(tenant.key)).set('Content-Type', 'application/xml').send(body);
          expect(res.status, `${path}: ${body.slice(0, 40)}`).to.be.within(400, 499);
          expect(res.body.detail).to.not.equal(undefined);
          expect(JSON.stringify(res.body)).to.not.include('root:');
        }
      }
      const huge = await t.http
        .post('/api/validate/ubl')
        .set(bearer(tenant.key))
        .set('Content-Type', 'application/xml')
        .send(`<Invoice>${'x'.repeat(50 * 1024 * 1024)}</Invoice>`);
      expect(huge.status).to.equal(413);
      expect(await t.service.eventStore.headPosition()).to.equal(before);
    });
  });

  describe('validation endpoints', () => {
    it('validates JSON without creating anything, and returns the UBL when valid', async () => {
      const before = await t.service.eventStore.headPosition();
      const res = await t.http.post('/api/validate/json').set(bearer(tenant.key)).send(invoice());
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ is_valid: true, file_name: 'ACME-2025-0001.xml' });
      expect(res.body.issues.filter((i: { flag: string }) => i.flag === 'fatal')).to.deep.equal([]);
      expect(res.body.ubl_document).to.include('<Invoice');
      expect(await t.service.eventStore.headPosition()).to.equal(before);
    });

    it('reports rule ids for an invalid document (no buyer name: BR-07)', async () => {
      const body = invoice() as Record<string, unknown>;
      delete body.customer_name;
      const res = await t.http.post('/api/validate/json').set(bearer(tenant.key)).send(body);
      expect(res.status).to.equal(200);
      expect(res.body.is_valid).to.equal(false);
      expect(res.body.ubl_document ?? null).to.equal(null);
      const fatal = res.body.issues.filter((i: { flag: string }) => i.flag === 'fatal');
      expect(fatal.length).to.be.greaterThan(0);
      for (const issue of fatal) expect(issue).to.include.keys('message', 'type', 'flag', 'rule_id', 'schematron');
    });

    it('validates uploaded UBL with the official rule ids', async () => {
      const xml = (await t.http.post('/api/validate/json').set(bearer(tenant.key)).send(invoice())).body
        .ubl_document as string;
      const broken = xml.replace(
        /<cbc:DocumentCurrencyCode>EUR<\/cbc:DocumentCurrencyCode>/,
        '<cbc:DocumentCurrencyCode>QQQ</cbc:DocumentCurrencyCode>',
      );
      const res = await t.http
        .post('/api/validate/ubl')
        .set(bearer(tenant.key))
        .attach('file', Buffer.from(broken), 'broken.xml');
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ is_valid: false, file_name: 'broken.xml' });
      expect(res.body.issues.map((i: { rule_id: string }) => i.rule_id)).to.include('BR-CL-04');
    });

    it('reports structural (XSD) problems such as elements out of order', async () => {
      const xml = (await t.http.post('/api/validate/json').set(bearer(tenant.key)).send(invoice())).body
        .ubl_document as string;
      const issueDate = /\s*<cbc:IssueDate>[^<]*<\/cbc:IssueDate>/.exec(xml)![0];
      const swapped = xml
        .replace(issueDate, '')
        .replace('</cbc:DocumentCurrencyCode>', `</cbc:DocumentCurrencyCode>${issueDate}`);
      const res = await t.http
        .post('/api/validate/ubl')
        .set(bearer(tenant.key))
        .set('Content-Type', 'application/xml')
        .send(swapped);
      expect(res.status).to.equal(200);
      expect(res.body.is_valid).to.equal(false);
      const xsd = res.body.issues.filter((i: { rule_id: string }) => i.rule_id === 'UBL-XSD');
      expect(xsd.length).to.be.greaterThan(0);
      expect(xsd[0]).to.include({ flag: 'fatal', schematron: 'UBL-2.1-XSD' });
    });
  });

  describe('lists', () => {
    let listTenant: { id: string; key: string };
    before(async () => {
      const org = await createOrganization(t, 'Lists reseller');
      listTenant = await createTenant(t, org.adminKey);
      for (const fixture of fixtures.slice(0, 12)) {
        const res = await t.http.post('/api/documents/').set(bearer(listTenant.key)).send(fixture.body);
        expect(res.status, `${fixture.name}: ${JSON.stringify(res.body).slice(0, 500)}`).to.equal(200);
      }
    });

    it('lists documents with skip/limit (documents, total, skip, limit)', async () => {
      const res = await t.http.get('/api/documents/?skip=2&limit=5').set(bearer(listTenant.key));
      expect(res.status).to.equal(200);
      expect(res.body).to.include({ total: 12, skip: 2, limit: 5 });
      expect(res.body.documents).to.have.length(5);
      expect((await t.http.get('/api/documents/?limit=1001').set(bearer(listTenant.key))).status).to.equal(422);
    });

    it('pages drafts with filters and sorts (items, total, page, page_size, pages, has_next_page)', async () => {
      const page = await t.http
        .get('/api/outbox/drafts?page=2&page_size=5&sort_by=invoice_total&sort_order=asc')
        .set(bearer(listTenant.key));
      expect(page.status).to.equal(200);
      expect(page.body).to.include({ total: 12, page: 2, page_size: 5, pages: 3, has_next_page: true });
      const all = await t.http
        .get('/api/outbox/drafts?page_size=100&sort_by=invoice_total&sort_order=asc')
        .set(bearer(listTenant.key));
      const totals = all.body.items.map((d: { invoice_total: string }) => Number(d.invoice_total));
      expect(totals).to.deep.equal([...totals].sort((a, b) => a - b));
      const credit = await t.http.get('/api/outbox/drafts?type=CREDIT_NOTE').set(bearer(listTenant.key));
      for (const d of credit.body.items) expect(d.document_type).to.equal('CREDIT_NOTE');
      const search = await t.http.get('/api/outbox/drafts?search=acme-2025-0001').set(bearer(listTenant.key));
      expect(search.body.items.map((d: { invoice_id: string }) => d.invoice_id)).to.include('ACME-2025-0001');
      const bad = await t.http.get('/api/outbox/drafts?page_size=101&sort_by=nope').set(bearer(listTenant.key));
      expect(bad.status).to.equal(422);
      expect(bad.body.detail.map((d: { loc: unknown[] }) => d.loc[1])).to.include.members(['page_size', 'sort_by']);
    });

    it('keeps the outbox and inbox empty while everything is a draft, and never shows another tenant', async () => {
      expect((await t.http.get('/api/outbox/').set(bearer(listTenant.key))).body.total).to.equal(0);
      expect((await t.http.get('/api/inbox/').set(bearer(listTenant.key))).body.total).to.equal(0);
      expect((await t.http.get('/api/inbox/credit-notes').set(bearer(listTenant.key))).body).to.include({
        total: 0,
        page: 1,
        page_size: 20,
      });
      expect((await t.http.get('/api/outbox/drafts').set(bearer(other.key))).body.total).to.equal(0);
    });
  });

  describe('single reads, from the read model', () => {
    it('reads its own writes at once: the next GET shows what a request created, changed or deleted', async () => {
      for (let i = 0; i < 8; i++) {
        const created = await t.http
          .post('/api/documents/')
          .set(bearer(tenant.key))
          .send({ ...invoice(), invoice_id: `RYW-${i}` });
        expect(created.status, JSON.stringify(created.body)).to.equal(200);
        const id = created.body.id as string;
        const read = await t.http.get(`/api/documents/${id}`).set(bearer(tenant.key));
        expect(read.status, `document ${i} right after its creation`).to.equal(200);
        expect(read.body).to.deep.equal(created.body);

        const added = await t.http
          .post(`/api/documents/${id}/attachments`)
          .set(bearer(tenant.key))
          .attach('file', Buffer.from(`day;hours\n${i};8\n`), `hours-${i}.csv`);
        expect(added.status, JSON.stringify(added.body)).to.equal(200);
        const attachments = await t.http.get(`/api/documents/${id}/attachments`).set(bearer(tenant.key));
        expect(attachments.body.map((a: { id: string }) => a.id)).to.deep.equal([added.body.id]);
        const one = await t.http.get(`/api/documents/${id}/attachments/${added.body.id}`).set(bearer(tenant.key));
        expect(one.body).to.deep.equal({ ...added.body, file_url: `${added.body.file_url}?download=true` });
        expect((await t.http.get(`/api/documents/${id}`).set(bearer(tenant.key))).body.attachments).to.have.length(1);

        expect((await t.http.delete(`/api/documents/${id}`).set(bearer(tenant.key))).status).to.equal(200);
        expect(
          (await t.http.get(`/api/documents/${id}`).set(bearer(tenant.key))).status,
          `document ${i} right after its deletion`,
        ).to.equal(404);
      }
    });

    it("answers 404 for another tenant's document, and for an outbound one in the inbox", async () => {
      const created = await t.http
        .post('/api/documents/')
        .set(bearer(tenant.key))
        .send({ ...invoice(), invoice_id: 'MINE-1' });
      expect((await t.http.get(`/api/documents/${created.body.id}`).set(bearer(other.key))).status).to.equal(404);
      expect(
        (await t.http.get(`/api/documents/${created.body.id}/attachments`).set(bearer(other.key))).status,
      ).to.equal(404);
      expect((await t.http.get(`/api/inbox/${created.body.id}`).set(bearer(tenant.key))).status).to.equal(404);
    });
  });

  describe('wire compatibility with the public e-invoice-api client', () => {
    let client: EInvoice;
    let close: () => Promise<void>;
    before(async () => {
      ({ client, close } = await publicClient(t, tenant.key));
    });
    after(() => close());

    it('creates, retrieves, validates and lists through the client', async () => {
      const created = await client.documents.create(invoice() as never);
      expect(created.id).to.be.a('string');
      expect(created.invoice_total).to.equal('3384.98');
      const fetched = await client.documents.retrieve(created.id);
      expect(fetched.invoice_id).to.equal('ACME-2025-0001');
      const validation = await client.validate.validateJson(invoice() as never);
      expect(validation.is_valid).to.equal(true);
      const drafts = await client.outbox.listDraftDocuments({ page_size: 2 });
      expect(drafts.items.length).to.be.at.most(2);
      const me = await client.me.retrieve();
      expect(me.name).to.be.a('string');
      const deleted = await client.documents.delete(created.id);
      expect(deleted.is_deleted).to.equal(true);
    });
  });
});
