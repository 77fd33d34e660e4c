import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { writeUbl } from '../../src/domain/document/ubl/ublWriter.js';
import { fromDocumentJson } from '../../src/domain/document/invoice/documentJson.js';
import type { DocumentCreated } from '../../src/domain/document/lifecycle/documentAggregate.js';
import { DocumentContent } from '../../src/application/documents/documentContent.js';
import { PersonalDataVault } from '../../src/application/personalData/personalDataVault.js';
import { realisticDocuments } from '../domain/document/fixtures/realisticDocuments.js';
import { binary } from '../support/pdfFiles.js';
import { allReadModelRows } from '../support/documentAnswers.js';
import { PgReadModelStore } from '../../src/infrastructure/postgres/pgReadModelStore.js';
import { allProjections } from '../../src/projections/index.js';
import { resetProjection } from '../../src/projections/projectionRunner.js';
import {
  bearer,
  createOrganization,
  createTenant,
  eventually,
  startTestService,
  waitForState,
  type TestService,
} from '../support/service.js';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const KB = 1024;
const BUYER_ID = '0208:0451234595';
const SELLER_ID = '0208:0403013026';

/**
 * Events carry references and facts; the payloads are in the blob store, each once (per tenant:
 * sealed with its personal-data key, a blob is keyed by the SHA-256 of the sealed bytes). Measured
 * on the stored rows (event sizes, blob rows), not timed.
 */
describe('Payloads by reference: the event store grows by facts, each file is stored once (real app, PostgreSQL)', function () {
  let t: TestService;
  let pool: pg.Pool;
  let seller: { id: string; key: string };
  let buyerKey: string;
  let buyerId: string;
  /** What a tenant's payload is stored as: sealed with its key (deterministic: the same bytes, the same blob). */
  const sealed = async (tenantId: string, bytes: Buffer) =>
    (await t.service.resolve(PersonalDataVault).sealer(tenantId)).bytes(bytes);

  before(async () => {
    t = await startTestService({}, undefined, { deliveryRetryUnitMs: 5 });
    pool = new pg.Pool({ connectionString: t.databaseUrl });
    const { adminKey } = await createOrganization(t);
    seller = await createTenant(t, adminKey, undefined, { peppol_ids: [SELLER_ID] });
    const buyer = await t.http
      .post('/api/admin/tenants')
      .set(bearer(adminKey))
      .send({ name: 'the-buyer', peppol_ids: [BUYER_ID] });
    buyerId = buyer.body.id;
    buyerKey = (
      await t.http.post(`/api/admin/tenants/${buyer.body.id}/api-keys`).set(bearer(adminKey)).send({ name: 'app' })
    ).body.key;
    expect(
      (
        await t.http
          .post(`/api/admin/tenants/${buyer.body.id}/peppol/register`)
          .set(bearer(adminKey))
          .send({ peppol_id: BUYER_ID, company_name: 'Buyer' })
      ).status,
    ).to.equal(200);
  });
  after(async () => {
    await pool?.end();
    await t?.stop();
  });

  const invoice = (invoiceId: string) => ({
    ...(structuredClone(realisticDocuments()[0]!.body) as Record<string, unknown>),
    invoice_id: invoiceId,
    attachments: [],
  });
  const blobSizes = async () =>
    new Map(
      (await pool.query<{ sha256: string; size: string }>('SELECT sha256, size::text AS size FROM blobs')).rows.map(
        (r) => [r.sha256, Number(r.size)],
      ),
    );
  const streamRows = async (id: string) =>
    (
      await pool.query<{ type: string; bytes: number }>(
        'SELECT type, octet_length(data::text) AS bytes FROM es_events WHERE stream_name = $1 ORDER BY stream_revision',
        [`document-${id}`],
      )
    ).rows;

  it('a document given 20 attachments one by one (50-200 KB each): each file is one blob, each attachment event is under 10 KB, and the UBL is the one written with every file', async () => {
    const blobsBefore = await blobSizes();
    const created = await t.http.post('/api/documents').set(bearer(seller.key)).send(invoice('MANY-ATTACHMENTS'));
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const id = created.body.id as string;
    const files: Array<{ id: string; name: string; bytes: Buffer }> = [];
    for (let i = 0; i < 20; i++) {
      const bytes = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(Math.round((50 + (150 * i) / 19) * KB) - 9)]);
      const name = `annex-${String(i + 1).padStart(2, '0')}.pdf`;
      const res = await t.http
        .post(`/api/documents/${id}/attachments`)
        .set(bearer(seller.key))
        .attach('file', bytes, { filename: name, contentType: 'application/pdf' });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      files.push({ id: res.body.id, name, bytes });
    }

    // The event store: facts only, whatever the files weigh.
    const rows = await streamRows(id);
    const added = rows.filter((r) => r.type === 'AttachmentAdded');
    expect(added).to.have.length(20);
    for (const row of added) expect(row.bytes).to.be.below(10 * KB);
    expect(rows.reduce((n, r) => n + r.bytes, 0)).to.be.below(60 * KB);

    // The blob store: each file once, under its hash; what else was stored (the content and one
    // skeleton per version of the UBL) holds no file: each is far smaller than the smallest file.
    const blobs = await blobSizes();
    const fresh = [...blobs].filter(([sha]) => !blobsBefore.has(sha));
    const stored = await Promise.all(files.map(async (f) => sealed(seller.id, f.bytes)));
    files.forEach((file, i) => expect(blobs.get(sha256(stored[i]!)), file.name).to.equal(stored[i]!.length));
    // Sealed, a file is a few dozen bytes longer than itself, and holds none of its bytes in the clear.
    stored.forEach((s, i) => expect(s.length).to.be.within(files[i]!.bytes.length + 1, files[i]!.bytes.length + 100));
    const others = fresh.filter(([sha]) => !stored.some((s) => sha256(s) === sha));
    expect(others).to.have.length(22); // the content, and the UBL's skeleton at creation and after each of the 20 additions
    for (const [, size] of others) expect(size).to.be.below(30 * KB);
    const fileBytes = stored.reduce((n, s) => n + s.length, 0);
    expect(fresh.reduce((n, [, size]) => n + size, 0)).to.be.below(fileBytes + 22 * 30 * KB);

    // The UBL put back together is the one written from the document with every file's base64,
    // as it was written before (then stored whole in every event), and it validates.
    const ubl = (await t.http.get(`/api/documents/${id}/ubl?format=xml`).set(bearer(seller.key))).text;
    const content = t.service.resolve<DocumentContent>(DocumentContent);
    const document = await content.document(
      ((await t.service.eventStore.readStream(`document-${id}`))[0]!.data as DocumentCreated['data']).document_ref,
    );
    const written = files.map((f) => ({
      id: f.id,
      file_name: f.name,
      file_type: 'application/pdf',
      file_size: f.bytes.length,
      file_data: f.bytes.toString('base64'),
      file_url: null,
    }));
    expect(ubl).to.equal(writeUbl(fromDocumentJson({ ...document, attachments: written })));
    const validation = await t.http.post(`/api/documents/${id}/validate`).set(bearer(seller.key));
    expect(validation.body.is_valid, JSON.stringify(validation.body.issues)).to.equal(true);
    for (const file of [files[0]!, files[19]!]) {
      const download = await t.http
        .get(`/api/documents/${id}/attachments/${file.id}?download=true`)
        .set(bearer(seller.key))
        .buffer(true)
        .parse(binary);
      expect((download.body as Buffer).equals(file.bytes)).to.equal(true);
    }
  });

  it("a rendering (construct_pdf) is one blob per tenant: the attachment, GET …/pdf, the PDF in the UBL, and the receiver's copy are the same bytes", async () => {
    const created = await t.http
      .post('/api/documents?construct_pdf=true')
      .set(bearer(seller.key))
      .send(invoice('ONE-PDF'));
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const id = created.body.id as string;
    const pdf = (await t.http.get(`/api/documents/${id}/pdf`).set(bearer(seller.key)).buffer(true).parse(binary))
      .body as Buffer;
    const ours = await sealed(seller.id, pdf);
    const key = sha256(ours);
    const attachment = created.body.attachments.find((a: { file_name: string }) => a.file_name === 'ONE-PDF.pdf');
    const download = (
      await t.http
        .get(`/api/documents/${id}/attachments/${attachment.id}?download=true`)
        .set(bearer(seller.key))
        .buffer(true)
        .parse(binary)
    ).body as Buffer;
    expect(download.equals(pdf)).to.equal(true);
    const ubl = (await t.http.get(`/api/documents/${id}/ubl?format=xml`).set(bearer(seller.key))).text;
    expect(ubl).to.contain(`filename="ONE-PDF.pdf">${pdf.toString('base64')}</cbc:EmbeddedDocumentBinaryObject>`);
    // Stored once: under its key, and in no other blob (the UBL's skeleton leaves it out).
    const created0 = (await t.service.eventStore.readStream(`document-${id}`))[0]!.data as DocumentCreated['data'];
    expect(created0.ubl_ref.embeds.map((e) => e.sha256)).to.deep.equal([key]);
    const blobs = await blobSizes();
    expect(blobs.get(key)).to.equal(ours.length);
    expect(blobs.get(created0.ubl_ref.skeleton.sha256)).to.be.below(pdf.length);
    expect(blobs.get(created0.document_ref.sha256)).to.be.below(pdf.length);
    // Every event of the document is small.
    for (const row of await streamRows(id)) expect(row.bytes).to.be.below(10 * KB);

    // The receiver gets the same UBL and the same PDF: its own copy, sealed with its own key (an
    // erasure of the seller's personal data leaves the buyer's copy readable).
    expect((await t.http.post(`/api/documents/${id}/send`).set(bearer(seller.key))).status).to.equal(200);
    await waitForState(t, seller.key, id, ['SENT']);
    const inbound = await eventually(async () => {
      const items = (await t.http.get('/api/inbox?search=ONE-PDF').set(bearer(buyerKey))).body.items as Array<{
        id: string;
      }>;
      return items.length === 1 && items[0];
    }, 'the receiver has it');
    const received = (await t.service.eventStore.readStream(`document-${inbound.id}`))[0]!.data as {
      ubl_ref: typeof created0.ubl_ref;
      attachments: Array<{ content: { sha256: string } | null }>;
    };
    const theirKey = sha256(await sealed(buyerId, pdf));
    expect(received.ubl_ref.embeds.map((e) => e.sha256)).to.deep.equal([theirKey]);
    expect(received.ubl_ref.size).to.equal(created0.ubl_ref.size);
    expect(received.attachments.map((a) => a.content?.sha256)).to.include(theirKey);
    const theirs = (
      await t.http.get(`/api/documents/${inbound.id}/pdf`).set(bearer(buyerKey)).buffer(true).parse(binary)
    ).body as Buffer;
    expect(theirs.equals(pdf)).to.equal(true);
    expect((await t.http.get(`/api/documents/${inbound.id}/ubl?format=xml`).set(bearer(buyerKey))).text).to.equal(ubl);
  });

  it("an Invoice Response is a blob the sender's event names, not XML in the event", async () => {
    const created = await t.http.post('/api/documents').set(bearer(seller.key)).send(invoice('ANSWERED'));
    const id = created.body.id as string;
    expect((await t.http.post(`/api/documents/${id}/send`).set(bearer(seller.key))).status).to.equal(200);
    await waitForState(t, seller.key, id, ['SENT']);
    const inbound = await eventually(async () => {
      const items = (await t.http.get('/api/inbox?search=ANSWERED').set(bearer(buyerKey))).body.items as Array<{
        id: string;
      }>;
      return items.length === 1 && items[0];
    }, 'the receiver has it');
    expect(
      (await t.http.post(`/api/inbox/${inbound.id}/reject`).set(bearer(buyerKey)).send({ reason: 'Unknown order' }))
        .status,
    ).to.equal(200);
    const response = await eventually(
      async () => (await t.service.eventStore.readStream(`document-${id}`)).find((e) => e.type === 'ResponseReceived'),
      'the response',
    );
    const ref = (response.data as { invoice_response_ref: { sha256: string; media_type: string } })
      .invoice_response_ref;
    expect(ref.media_type).to.equal('application/xml');
    const { rows } = await pool.query<{ content: Buffer }>('SELECT content FROM blobs WHERE sha256 = $1', [ref.sha256]);
    expect(rows[0]!.content.toString('utf8'))
      .to.contain('<cbc:ResponseCode>RE</cbc:ResponseCode>')
      .and.contain('Unknown order');
    expect(JSON.stringify(response.data)).to.not.contain('ApplicationResponse');
  });

  it('replaying these events from the first rebuilds every read model byte for byte', async () => {
    expect(await t.service.projections.catchUp(30_000)).to.equal(true);
    const before = await allReadModelRows(pool);
    expect(before.rm_document_contents!.length).to.equal(5); // three created, two received
    const url = t.databaseUrl;
    await t.stop();
    const readModels = new PgReadModelStore(pool);
    for (const projection of allProjections({ document: () => Promise.reject(new Error('not read while resetting')) }))
      await resetProjection(readModels, projection);
    expect((await allReadModelRows(pool)).rm_document_contents).to.deep.equal([]);
    t = await startTestService({}, url, { deliveryRetryUnitMs: 5 });
    expect(await t.service.projections.catchUp(30_000)).to.equal(true);
    expect(await allReadModelRows(pool)).to.deep.equal(before);
  });
});
