import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import {
  bearer,
  createOrganization,
  createTenant,
  eventually,
  publicClient,
  startTestService,
  waitForState,
  type TestService,
} from '../support/service.js';
import { registerPeppol } from '../support/peppol.js';
import { startSmtpServer, type TestSmtp } from '../support/smtp.js';
import { pdfFixture } from '../support/pdfFiles.js';
import { belgianNumber, realisticDocuments } from '../domain/document/fixtures/realisticDocuments.js';
import { examplesDir } from '../domain/document/sharedDir.js';
import { loadState } from '../../src/application/commandHandler.js';
import { TRANSPORTS, type Transport } from '../../src/application/ports/transport.js';
import {
  documentDecider,
  documentStream,
  type TransportKind,
} from '../../src/domain/document/lifecycle/documentAggregate.js';

/** The official Peppol BIS example: seller 0088:9482348239847239874 (SupplierOfficialName Ltd), buyer 0002:FR23342. */
const BASE_EXAMPLE = path.join(examplesDir(), 'peppol-bis-3.0.19', 'examples', 'base-example.xml');
const EXAMPLE_SELLER = '0088:9482348239847239874';
const EXAMPLE_BUYER = '0002:FR23342';
/** The fixtures' seller (BE0403013026) and buyer (BE0451234595). */
const FIXTURE_SELLER = '0208:0403013026';
const FIXTURE_BUYER = '0208:0451234595';
const ISSUER_LOC = ['document', 'AccountingSupplierParty', 'EndpointID'];

const fixture = (name: string) =>
  structuredClone(realisticDocuments().find((f) => f.name === name)!.body) as Record<string, unknown>;
const invoice = () => structuredClone(realisticDocuments()[0]!.body) as Record<string, unknown>;

describe('Sender identity: a tenant sends only as a participant it holds (real app, PostgreSQL, SMTP)', function () {
  this.timeout(120_000);
  let t: TestService;
  let smtp: TestSmtp;
  let adminKey: string;

  before(async () => {
    smtp = await startSmtpServer();
    t = await startTestService({ smtpUrl: smtp.url, mailFrom: 'Invoicing <no-reply@invoicing.test>' });
    adminKey = (await createOrganization(t)).adminKey;
  });
  after(async () => {
    await t?.stop();
    await smtp?.stop();
  });

  const events = async (key: string, id: string) =>
    (await t.http.get(`/api/documents/${id}/history`).set(bearer(key))).body.events as Array<{
      type: string;
      actor: string;
      actor_detail: Record<string, string | null>;
      data: Record<string, unknown>;
    }>;
  const timeline = async (key: string, id: string) =>
    (await t.http.get(`/api/documents/${id}/timeline`).set(bearer(key))).body.items as Array<{
      type: string;
      summary: string | null;
    }>;
  const uploadUbl = async (key: string, xml: string) => {
    const res = await t.http
      .post('/api/documents/ubl')
      .set(bearer(key))
      .set('Content-Type', 'application/xml')
      .send(xml);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body as { id: string; state: string; send_blocked: Record<string, unknown> | null };
  };
  const createJson = (key: string, body: Record<string, unknown>) =>
    t.http.post('/api/documents/').set(bearer(key)).send(body);
  const setTestMode = async (tenantId: string, email: string) => {
    const res = await t.http
      .put(`/api/operator/tenants/${tenantId}/test-mode`)
      .set(bearer(t.operatorKey))
      .send({ test_mode: true, email });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
  };

  describe('the official base-example.xml, whose seller is another company', function () {
    let buyer: { id: string; key: string; keyId: string };
    let example: string;

    before(async function () {
      if (!existsSync(BASE_EXAMPLE)) {
        if (process.env.CI === 'true') throw new Error(`${BASE_EXAMPLE} is missing (required when CI=true)`);
        console.log(`\n  ⚠ SKIPPED: ${BASE_EXAMPLE} not found (set SHARED_DIR)\n`);
        this.skip();
      }
      example = readFileSync(BASE_EXAMPLE, 'utf8');
      // Its buyer is a tenant of this instance, registered: a delivery would land in its inbox.
      buyer = await createTenant(t, adminKey, 'example-buyer', { peppol_ids: [EXAMPLE_BUYER] });
      await registerPeppol(t, adminKey, buyer.id, {
        peppol_id: EXAMPLE_BUYER,
        company_name: 'BuyerOfficialName',
        country_code: 'FR',
      });
    });

    const inboxTotal = async () => (await t.http.get('/api/inbox/').set(bearer(buyer.key))).body.total as number;

    it('is stored as a draft that says why it cannot be sent; the send is a 422 naming the EndpointID and the ids the tenant may use; nothing is sent or recorded', async () => {
      const impostor = await createTenant(t, adminKey, undefined, { peppol_ids: [FIXTURE_SELLER] });
      const draft = await uploadUbl(impostor.key, example);
      expect(draft.state).to.equal('DRAFT');
      const blocked = {
        field: 'vendor_peppol_id',
        loc: ISSUER_LOC,
        issuer_peppol_id: EXAMPLE_SELLER,
        allowed_ids: [FIXTURE_SELLER],
      };
      expect(draft.send_blocked).to.deep.include(blocked);
      // Said before Send is pressed: on the document and where drafts are listed.
      const read = await t.http.get(`/api/documents/${draft.id}`).set(bearer(impostor.key));
      expect(read.body.send_blocked).to.deep.include(blocked);
      const drafts = await t.http.get('/api/outbox/drafts').set(bearer(impostor.key));
      expect(drafts.body.items.map((d: { id: string; send_blocked: unknown }) => [d.id, d.send_blocked])).to.deep.equal(
        [[draft.id, read.body.send_blocked]],
      );

      const refused = await t.http.post(`/api/documents/${draft.id}/send`).set(bearer(impostor.key));
      expect(refused.status).to.equal(422);
      expect(refused.body.detail).to.have.length(1);
      expect(refused.body.detail[0].loc).to.deep.equal(ISSUER_LOC);
      expect(refused.body.detail[0].msg)
        .to.contain(`issued by ${EXAMPLE_SELLER}`)
        .and.contain(`may send as: ${FIXTURE_SELLER}`);
      // Naming the seller's id as the sender is no way around it.
      const forged = await t.http
        .post(`/api/documents/${draft.id}/send?sender_peppol_scheme=0088&sender_peppol_id=9482348239847239874`)
        .set(bearer(impostor.key));
      expect(forged.status).to.equal(422);
      expect(forged.body.detail[0].loc).to.deep.equal(['query', 'sender_peppol_id']);
      const { client, close } = await publicClient(t, impostor.key);
      try {
        const error = await client.documents.send(draft.id).then(
          () => null,
          (e: unknown) => e as { status?: number; error?: { detail?: Array<{ loc: unknown }> } },
        );
        expect(error?.status).to.equal(422);
        expect(error?.error?.detail?.[0]?.loc).to.deep.equal(ISSUER_LOC);
        expect((await client.documents.retrieve(draft.id)).state).to.equal('DRAFT');
      } finally {
        await close();
      }
      expect((await events(impostor.key, draft.id)).map((e) => e.type)).to.deep.equal(['DocumentCreated']);
      expect(await inboxTotal()).to.equal(0);
    });

    it('is refused in test mode as well: nothing is mailed', async () => {
      const impostor = await createTenant(t, adminKey, undefined, { peppol_ids: [FIXTURE_SELLER] });
      await setTestMode(impostor.id, 'inbox@impostor.test');
      const draft = await uploadUbl(impostor.key, example);
      const refused = await t.http.post(`/api/documents/${draft.id}/send`).set(bearer(impostor.key));
      expect(refused.status).to.equal(422);
      expect(refused.body.detail[0].loc).to.deep.equal(ISSUER_LOC);
      expect(smtp.messages.some((m) => m.headers.get('x-document-id') === draft.id)).to.equal(false);
      expect((await events(impostor.key, draft.id)).map((e) => e.type)).to.deep.equal(['DocumentCreated']);
    });

    it('tells a tenant that holds no id that its administrator must give it one', async () => {
      const anonymous = await createTenant(t, adminKey);
      const draft = await uploadUbl(anonymous.key, example);
      expect(draft.send_blocked).to.deep.include({ allowed_ids: [], issuer_peppol_id: EXAMPLE_SELLER });
      expect(draft.send_blocked!.message).to.match(/holds no Peppol participant id.*administrator/);
      const refused = await t.http.post(`/api/documents/${draft.id}/send`).set(bearer(anonymous.key));
      expect(refused.status).to.equal(422);
      expect(refused.body.detail[0].msg).to.match(/holds no Peppol participant id/);
    });

    it('goes for the tenant holding the seller id, as that id (the override may name it); the history says which key sent it as whom', async () => {
      const holder = await createTenant(t, adminKey, 'example-seller', { peppol_ids: [EXAMPLE_SELLER] });
      const draft = await uploadUbl(holder.key, example);
      expect(draft.send_blocked).to.equal(null);
      const sent = await t.http
        .post(
          `/api/documents/${draft.id}/send?sender_peppol_scheme=iso6523-actorid-upis&sender_peppol_id=${EXAMPLE_SELLER}`,
        )
        .set(bearer(holder.key));
      expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
      expect(sent.body).to.include({ state: 'TRANSIT', send_blocked: null });
      await waitForState(t, holder.key, draft.id, ['SENT']);
      const received = await eventually(async () => {
        const inbox = await t.http.get('/api/inbox/?search=Snippet1').set(bearer(buyer.key));
        return inbox.body.total === 1 && inbox.body.items[0];
      }, 'the invoice in the buyer inbox');
      expect(received).to.include({ vendor_peppol_id: EXAMPLE_SELLER, send_blocked: null });
      const report = await t.http.get(`/api/documents/${draft.id}/transmission-report`).set(bearer(holder.key));
      expect(report.body.deliveries[0]).to.include({
        sender_peppol_id: EXAMPLE_SELLER,
        receiver_peppol_id: EXAMPLE_BUYER,
      });

      // The key is renamed afterwards: the history keeps the name it had when it sent.
      const keys = await t.http.get(`/api/admin/tenants/${holder.id}/api-keys`).set(bearer(adminKey));
      const keyId = keys.body.api_keys[0].id as string;
      const renamed = await t.http
        .put(`/api/admin/tenants/${holder.id}/api-keys/${keyId}`)
        .set(bearer(adminKey))
        .send({ name: 'renamed' });
      expect(renamed.status, JSON.stringify(renamed.body)).to.equal(200);
      const steps = await timeline(holder.key, draft.id);
      expect(steps.find((s) => s.type === 'send_requested')!.summary).to.equal(
        `sent by API key 'app' (${keyId}) as ${EXAMPLE_SELLER} to ${EXAMPLE_BUYER}`,
      );
      const requested = (await events(holder.key, draft.id)).find((e) => e.type === 'SendRequested')!;
      expect(requested.actor).to.equal(`API key 'app' (${keyId})`);
      expect(requested.actor_detail).to.include({ kind: 'api_key', key_name: 'app' });
      expect(requested.data).to.include({ sender_peppol_id: EXAMPLE_SELLER });

      // The buyer answers as the participant the invoice was addressed to.
      const accepted = await t.http.post(`/api/inbox/${received.id}/accept`).set(bearer(buyer.key)).send({});
      expect(accepted.status, JSON.stringify(accepted.body)).to.equal(200);
      expect((await timeline(buyer.key, received.id)).find((s) => s.type === 'accepted')!.summary).to.equal(
        `accepted by API key 'app' (${buyer.keyId}) as ${EXAMPLE_BUYER}`,
      );
      const answer = await eventually(async () => {
        const all = await events(holder.key, draft.id);
        return all.find((e) => e.type === 'ResponseReceived');
      }, 'the Invoice Response on the sent invoice');
      expect(answer.data).to.include({ code: 'AP', responder_peppol_id: EXAMPLE_BUYER });
    });

    it("refuses, in internal delivery too, a document whose issuer is not its sender: nothing reaches the receiver's inbox", async () => {
      const impostor = await createTenant(t, adminKey, undefined, { peppol_ids: [FIXTURE_SELLER] });
      const draft = await uploadUbl(impostor.key, example);
      const state = await loadState(t.service.eventStore, documentDecider, documentStream(draft.id));
      if (state.status !== 'present') throw new Error('no draft');
      const { status: _status, ...document } = state;
      const before = await inboxTotal();
      // What a send would hand over had it not been refused: the impostor's own id as the sender.
      const transports = t.service.container.resolve<Record<TransportKind, Transport>>(TRANSPORTS);
      const outcome = await transports.peppol.deliver({
        document,
        ubl: example,
        messageId: `${randomUUID()}@forged.test`,
        senderPeppolId: FIXTURE_SELLER,
        receiverPeppolId: EXAMPLE_BUYER,
        email: null,
      });
      expect(outcome).to.deep.include({ outcome: 'permanent', receiver: EXAMPLE_BUYER });
      expect((outcome as { error: string }).error).to.equal(
        `The receiver refuses the document: its issuer ${EXAMPLE_SELLER} is not its sender ${FIXTURE_SELLER}`,
      );
      expect(await inboxTotal()).to.equal(before);
    });

    it('refuses an answer once the tenant no longer holds the id the document was addressed to (422), recording nothing', async () => {
      const seller = await createTenant(t, adminKey, undefined, { peppol_ids: [EXAMPLE_SELLER] });
      const draft = await uploadUbl(seller.key, example);
      expect((await t.http.post(`/api/documents/${draft.id}/send`).set(bearer(seller.key))).status).to.equal(200);
      await waitForState(t, seller.key, draft.id, ['SENT']);
      const received = await eventually(async () => {
        const inbox = await t.http.get('/api/inbox/?sort_by=created_at&sort_order=desc').set(bearer(buyer.key));
        const first = inbox.body.items[0];
        return first?.invoice_response === null && first;
      }, 'the unanswered invoice');
      // The reseller takes the id away (unregistered first: a registered id stays the tenant's).
      const unregistered = await t.http
        .post(`/api/admin/tenants/${buyer.id}/peppol/unregister`)
        .set(bearer(adminKey))
        .send({});
      expect(unregistered.status, JSON.stringify(unregistered.body)).to.equal(200);
      const cleared = await t.http
        .put(`/api/admin/tenants/${buyer.id}`)
        .set(bearer(adminKey))
        .send({ peppol_ids: ['0208:0202239951'] });
      expect(cleared.status, JSON.stringify(cleared.body)).to.equal(200);
      const before = (await events(buyer.key, received.id)).length;
      const rejected = await t.http
        .post(`/api/inbox/${received.id}/reject`)
        .set(bearer(buyer.key))
        .send({ reason: 'Not ours' });
      expect(rejected.status).to.equal(422);
      expect(rejected.body.detail[0].loc).to.deep.equal(['invoice_response', 'SenderParty', 'EndpointID']);
      expect(rejected.body.detail[0].msg).to.contain(EXAMPLE_BUYER).and.contain('0208:0202239951');
      expect((await events(buyer.key, received.id)).length).to.equal(before);
    });
  });

  describe('JSON documents', () => {
    it("write the tenant's first id as the seller's electronic address by default, keep one of its own, and refuse another (422 naming vendor_peppol_id)", async () => {
      const seller = await createTenant(t, adminKey, undefined, { peppol_ids: [FIXTURE_SELLER] });
      const { vendor_peppol_id: _none, ...body } = invoice();
      const created = await createJson(seller.key, body);
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      expect(created.body).to.include({ vendor_peppol_id: FIXTURE_SELLER, send_blocked: null });
      const ubl = (await t.http.get(`/api/documents/${created.body.id}/ubl?format=xml`).set(bearer(seller.key))).text;
      expect(ubl).to.match(/<cac:AccountingSupplierParty>\s*<cac:Party>\s*<cbc:EndpointID schemeID="0208">0403013026</);

      const own = await createJson(seller.key, {
        ...body,
        vendor_peppol_id: `iso6523-actorid-upis::${FIXTURE_SELLER}`,
      });
      expect(own.status, JSON.stringify(own.body)).to.equal(200);
      expect(own.body.vendor_peppol_id).to.equal(FIXTURE_SELLER);

      for (const route of ['/api/documents/', '/api/validate/json']) {
        const foreign = await t.http
          .post(route)
          .set(bearer(seller.key))
          .send({ ...body, vendor_peppol_id: '0088:7300010000001' });
        expect(foreign.status, route).to.equal(422);
        expect(foreign.body.detail).to.have.length(1);
        expect(foreign.body.detail[0].loc).to.deep.equal(['body', 'vendor_peppol_id']);
        expect(foreign.body.detail[0].msg).to.contain('0088:7300010000001').and.contain(FIXTURE_SELLER);
      }
      const validated = await t.http.post('/api/validate/json').set(bearer(seller.key)).send(body);
      expect(validated.body.ubl_document).to.contain('<cbc:EndpointID schemeID="0208">0403013026</cbc:EndpointID>');
      const { client, close } = await publicClient(t, seller.key);
      try {
        const made = await client.documents.create(body as never);
        expect((made as unknown as { send_blocked: unknown }).send_blocked).to.equal(null);
        expect((await client.documents.send(made.id)).state).to.equal('TRANSIT');
      } finally {
        await close();
      }
    });

    it('are created for a tenant without ids as written, and say they cannot be sent until it has one', async () => {
      const anonymous = await createTenant(t, adminKey);
      const created = await createJson(anonymous.key, invoice());
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      expect(created.body.send_blocked).to.deep.include({ allowed_ids: [], issuer_peppol_id: FIXTURE_SELLER });
      // Once its administrator gives it the id, the draft can go.
      const given = await t.http
        .put(`/api/admin/tenants/${anonymous.id}`)
        .set(bearer(adminKey))
        .send({ peppol_ids: [FIXTURE_SELLER] });
      expect(given.status, JSON.stringify(given.body)).to.equal(200);
      const after = await t.http.get(`/api/documents/${created.body.id}`).set(bearer(anonymous.key));
      expect(after.body.send_blocked).to.equal(null);
    });

    it('self-billed: the buyer issues and sends, as its own id, to the seller', async () => {
      const sellerId = `0208:${belgianNumber('08765432')}`;
      const seller = await createTenant(t, adminKey, undefined, { peppol_ids: [sellerId] });
      await registerPeppol(t, adminKey, seller.id, {
        peppol_id: sellerId,
        company_name: 'Bouwbedrijf Vandenberghe BV',
      });
      const buyer = await createTenant(t, adminKey, undefined, { peppol_ids: [FIXTURE_BUYER] });
      const body = { ...fixture('BE self-billing invoice (farmer supplies)'), invoice_id: 'SB-IDENTITY-1' };
      const created = await createJson(buyer.key, body);
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      expect(created.body).to.include({ customer_peppol_id: FIXTURE_BUYER, send_blocked: null });
      const sent = await t.http.post(`/api/documents/${created.body.id}/send`).set(bearer(buyer.key));
      expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
      await waitForState(t, buyer.key, created.body.id, ['SENT']);
      const report = await t.http.get(`/api/documents/${created.body.id}/transmission-report`).set(bearer(buyer.key));
      expect(report.body.deliveries[0]).to.include({ sender_peppol_id: FIXTURE_BUYER, receiver_peppol_id: sellerId });
      const inbox = await t.http.get('/api/inbox/?search=SB-IDENTITY-1').set(bearer(seller.key));
      expect(inbox.body.items.map((d: { document_type: string }) => d.document_type)).to.deep.equal([
        'SELFBILLING_INVOICE',
      ]);
      // The seller cannot issue it in the buyer's name.
      const foreign = await createJson(seller.key, { ...body, customer_peppol_id: FIXTURE_BUYER });
      expect(foreign.status).to.equal(422);
      expect(foreign.body.detail[0].loc).to.deep.equal(['body', 'customer_peppol_id']);
    });
  });

  it('stores a PDF of another seller as a draft that says why it cannot be sent', async () => {
    const tenant = await createTenant(t, adminKey, undefined, { peppol_ids: [FIXTURE_SELLER] });
    const res = await t.http
      .post('/api/documents/pdf')
      .set(bearer(tenant.key))
      .attach('file', await pdfFixture('embedded-ubl-lu.pdf'), { filename: 'lu.pdf', contentType: 'application/pdf' });
    expect(res.status, JSON.stringify(res.body).slice(0, 400)).to.equal(200);
    expect(res.body).to.include({ state: 'DRAFT' });
    expect(res.body.vendor_peppol_id).to.be.a('string').and.not.equal(FIXTURE_SELLER);
    expect(res.body.send_blocked).to.deep.include({
      field: 'vendor_peppol_id',
      loc: ISSUER_LOC,
      issuer_peppol_id: res.body.vendor_peppol_id,
      allowed_ids: [FIXTURE_SELLER],
    });
    const before = await events(tenant.key, res.body.id);
    const refused = await t.http.post(`/api/documents/${res.body.id}/send`).set(bearer(tenant.key));
    expect(refused.status).to.equal(422);
    expect(refused.body.detail[0].loc).to.deep.equal(ISSUER_LOC);
    expect(await events(tenant.key, res.body.id)).to.deep.equal(before);
  });

  it("gives a tenant an id only through its reseller's admin: a tenant key cannot change peppol_ids or register, another reseller cannot", async () => {
    const tenant = await createTenant(t, adminKey, undefined, { peppol_ids: [FIXTURE_SELLER] });
    const other = await createOrganization(t, 'Other reseller');
    const attempts = [
      ['put', `/api/admin/tenants/${tenant.id}`, { peppol_ids: ['0088:7300010000001'] }],
      ['post', `/api/admin/tenants/${tenant.id}/peppol/register`, { peppol_id: '0088:7300010000001' }],
    ] as const;
    for (const [method, route, body] of attempts) {
      expect((await t.http[method](route).set(bearer(tenant.key)).send(body)).status, `tenant key ${route}`).to.equal(
        401,
      );
      expect((await t.http[method](route).set(bearer(other.adminKey)).send(body)).status, `other ${route}`).to.equal(
        404,
      );
    }
    // No tenant route changes the account.
    for (const method of ['put', 'patch', 'post'] as const) {
      expect((await t.http[method]('/api/me').set(bearer(tenant.key)).send({ peppol_ids: [] })).status).to.be.oneOf([
        404, 405,
      ]);
    }
    const me = await t.http.get('/api/me').set(bearer(tenant.key));
    expect(me.body.peppol_ids).to.deep.equal([FIXTURE_SELLER]);
  });

  it('keeps a participant registered here to its tenant: no admin can give it to another (409), and one given it before the registration can no longer send as it (422)', async () => {
    const id = `0208:${belgianNumber('08123456')}`;
    // The early tenant gets the id while nobody is registered with it; the owner then registers it.
    const early = await createTenant(t, adminKey, undefined, { peppol_ids: [id] });
    const owner = await createTenant(t, adminKey, undefined, { peppol_ids: [id] });
    const { vendor_peppol_id: _none, ...body } = invoice();
    const draft = await createJson(early.key, body);
    expect(draft.status, JSON.stringify(draft.body)).to.equal(200);
    await registerPeppol(t, adminKey, owner.id, { peppol_id: id, company_name: 'Owner', country_code: 'BE' });

    const other = await createOrganization(t, 'Another reseller');
    for (const [key, label] of [
      [adminKey, 'the same reseller'],
      [other.adminKey, 'another reseller'],
    ] as const) {
      const created = await t.http
        .post('/api/admin/tenants')
        .set(bearer(key))
        .send({ name: `taker-${randomUUID().slice(0, 8)}`, peppol_ids: [id] });
      expect(created.status, `${label}: ${JSON.stringify(created.body)}`).to.equal(409);
      expect(created.body.detail, label).to.contain(id).and.contain('another tenant');
    }
    const plain = await createTenant(t, adminKey, undefined, { peppol_ids: ['0208:0202239951'] });
    const given = await t.http
      .put(`/api/admin/tenants/${plain.id}`)
      .set(bearer(adminKey))
      .send({ peppol_ids: [id] });
    expect(given.status).to.equal(409);
    expect((await t.http.get('/api/me').set(bearer(plain.key))).body.peppol_ids).to.deep.equal(['0208:0202239951']);
    // The early tenant's other changes still go; its send as the registered id does not.
    const described = await t.http
      .put(`/api/admin/tenants/${early.id}`)
      .set(bearer(adminKey))
      .send({ description: 'listed the id first' });
    expect(described.status, JSON.stringify(described.body)).to.equal(200);
    const before = (await events(early.key, draft.body.id)).length;
    const sent = await t.http.post(`/api/documents/${draft.body.id}/send`).set(bearer(early.key));
    expect(sent.status, JSON.stringify(sent.body)).to.equal(422);
    expect(sent.body.detail[0].loc).to.deep.equal(ISSUER_LOC);
    expect(sent.body.detail[0].msg).to.contain(id).and.contain('another tenant');
    expect((await events(early.key, draft.body.id)).length).to.equal(before);
    // The owner itself sends as it.
    const own = await createJson(owner.key, body);
    expect(own.body.vendor_peppol_id).to.equal(id);
    expect((await t.http.post(`/api/documents/${own.body.id}/send`).set(bearer(owner.key))).status).to.equal(200);
  });
});
