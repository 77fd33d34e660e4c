import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { bearer, createOrganization, createTenant, startTestService, type TestService } from '../support/service.js';
import { registerPeppol } from '../support/peppol.js';
import { accessPointSettings, makeTestPki, type TestPki } from '../support/testPki.js';
import { buildAs4, invoiceSbdh, signingKeyOf } from '../support/as4Sender.js';
import { realisticDocuments } from '../domain/document/fixtures/realisticDocuments.js';
import { OfficialReportingRules } from '../support/officialReportingRules.js';
import { describeWithHarness } from '../support/phiveHarness.js';
import { CONFIG, type Config } from '../../src/infrastructure/config.js';
import { PeppolReporting, peppolReportStream } from '../../src/application/reporting/peppolReports.js';
import { parseArgs, peppolReport } from '../../scripts/peppol-report.js';

const BUYER_ID = '0208:0451234595';
const SELLER_ID = '0208:0403013026';

/**
 * The operator's Peppol reports from a real event history: invoices received over AS4 from another
 * access point (real signed messages, real receipts), reported by month, as of a time.
 */
describeWithHarness(
  'Peppol Reporting: GET /api/operator/reports/peppol and the monthly job (real app, PostgreSQL, AS4)',
  function () {
    this.timeout(180_000);
    let pki: TestPki;
    let t: TestService;
    let official: OfficialReportingRules;
    let ourCertificate: X509Certificate;
    let invoiceUbl: string;
    let month: string;
    let sequence = 0;

    const operator = (path: string) => t.http.get(path).set(bearer(t.operatorKey));
    /** One invoice received over AS4 from POP000002, with a signed receipt answered. */
    const receive = async () => {
      const built = await buildAs4({
        sbdh: invoiceSbdh(SELLER_ID, BUYER_ID),
        businessDocument: invoiceUbl.replace(/<cbc:ID>[^<]*</, `<cbc:ID>REPORT-${++sequence}<`),
        from: { ...signingKeyOf(pki.instance(2)), seatId: pki.instance(2).seatId },
        toSeatId: 'POP000001',
        receiverCertificate: ourCertificate,
      });
      const res = await t.http.post('/as4').set('Content-Type', built.contentType).send(built.body);
      expect(res.status).to.equal(200);
      const records = await t.service.eventStore.readAll();
      expect(records.filter((e) => e.type === 'As4MessageReceived').length).to.equal(sequence);
    };

    before(async () => {
      official = await OfficialReportingRules.start();
      pki = await makeTestPki({ instances: 2 });
      ourCertificate = new X509Certificate(readFileSync(pki.instance(1).certificateFile));
      t = await startTestService({ peppol: accessPointSettings(pki, 1, { crlFiles: [pki.apCaCrlFile] }) });
      const adminKey = (await createOrganization(t)).adminKey;
      const buyer = await createTenant(t, adminKey, 'the-buyer', { peppol_ids: [BUYER_ID] });
      await registerPeppol(t, adminKey, buyer.id, { peppol_id: BUYER_ID, company_name: 'Brouwerij De Zwaan NV' });
      const writer = await createTenant(t, adminKey);
      const doc = await t.http
        .post('/api/documents/')
        .set(bearer(writer.key))
        .send(structuredClone(realisticDocuments()[0]!.body) as Record<string, unknown>);
      expect(doc.status, JSON.stringify(doc.body)).to.equal(200);
      invoiceUbl = (await t.http.get(`/api/documents/${doc.body.id}/ubl?format=xml`).set(bearer(writer.key))).text;
      await receive();
      await receive();
      month = new Date().toISOString().slice(0, 7);
    });
    after(async () => {
      await official?.close();
      await t?.stop();
      await pki?.dispose();
    });

    it("is the operator's only: no key 401, a tenant's key refused", async () => {
      expect((await t.http.get(`/api/operator/reports/peppol?month=${month}`)).status).to.equal(401);
      const adminKey = (await createOrganization(t, 'Other')).adminKey;
      const res = await t.http.get(`/api/operator/reports/peppol?month=${month}`).set(bearer(adminKey));
      expect(res.status).to.be.oneOf([401, 403]);
    });

    it('answers 422 in the error format for a bad month or as_of', async () => {
      for (const q of [
        'month=2026-13',
        'month=2026-1',
        '',
        `month=${month}&as_of=yesterday`,
        `month=${month}&report=pdf`,
      ]) {
        const res = await operator(`/api/operator/reports/peppol?${q}`);
        expect(res.status, q).to.equal(422);
        expect(res.body, q).to.have.property('detail');
      }
    });

    it("reports the month's AS4 receptions; both reports pass the official XSD and Schematron", async () => {
      const res = await operator(`/api/operator/reports/peppol?month=${month}`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body).to.include({ month, reporter: 'POP000001', incoming: 2, outgoing: 0, end_users: 1 });
      expect(res.body.tsr).to.contain('<Key metaSchemeID="SP" schemeID="CertSubjectCN">POP000002</Key>');
      expect(res.body.tsr).to.contain('<Key metaSchemeID="CC" schemeID="ReceiverCountry">BE</Key>');
      expect(await official.check('tsr', res.body.tsr)).to.deep.equal({ schema: [], rules: [] });
      expect(await official.check('eusr', res.body.eusr)).to.deep.equal({ schema: [], rules: [] });
      const raw = await operator(`/api/operator/reports/peppol?month=${month}&report=tsr&as_of=${res.body.as_of}`);
      expect(raw.headers['content-type']).to.match(/^application\/xml/);
      expect(raw.text).to.equal(res.body.tsr);
      // Another month: nothing exchanged, still a valid report.
      const empty = await operator('/api/operator/reports/peppol?month=2020-01');
      expect(empty.body).to.include({ incoming: 0, outgoing: 0 });
      expect(await official.check('tsr', empty.body.tsr)).to.deep.equal({ schema: [], rules: [] });
      expect(await official.check('eusr', empty.body.eusr)).to.deep.equal({ schema: [], rules: [] });
    });

    it('computed again as of the same time, the same bytes; a later reception leaves the report as of the earlier time unchanged', async () => {
      const reporting = t.service.resolve(PeppolReporting);
      const asOf = new Date().toISOString();
      const first = await reporting.reports(month, asOf);
      const again = await reporting.reports(month, asOf);
      expect(again.tsr).to.equal(first.tsr);
      expect(again.eusr).to.equal(first.eusr);
      await receive();
      const original = await reporting.reports(month, asOf);
      expect(original.tsr_sha256).to.equal(first.tsr_sha256);
      expect(original.eusr_sha256).to.equal(first.eusr_sha256);
      const now = await reporting.reports(month, new Date().toISOString());
      expect(now.incoming).to.equal(first.incoming + 1);
      expect(now.tsr_sha256).to.not.equal(first.tsr_sha256);
    });

    it('the whole history replayed into a fresh instance (another database, same access point) gives the same bytes', async () => {
      const asOf = new Date().toISOString();
      const original = await t.service.resolve(PeppolReporting).reports(month, asOf);
      const replica = await startTestService({ peppol: t.service.resolve<Config>(CONFIG).peppol });
      try {
        // Every event, in global order, into the same streams: the report reads nothing else
        // (no read model, no blob), so it must come out byte for byte the same.
        for (const event of await t.service.eventStore.readAll())
          await replica.service.eventStore.append(
            event.streamName,
            [{ id: event.id, type: event.type, data: event.data, metadata: event.metadata }],
            'any',
          );
        const replayed = await replica.service.resolve(PeppolReporting).reports(month, new Date().toISOString());
        expect(replayed.tsr).to.equal(original.tsr);
        expect(replayed.eusr).to.equal(original.eusr);
        expect(replayed.incoming).to.be.greaterThan(0);
      } finally {
        await replica.stop();
      }
    });

    it('the monthly job prepares the month once, records it, and schedules the next', async () => {
      const reporting = t.service.resolve(PeppolReporting);
      await reporting.run(month);
      await reporting.run(month);
      const events = await t.service.eventStore.readStream(peppolReportStream(month));
      expect(events.map((e) => e.type)).to.deep.equal(['PeppolReportPrepared']);
      const prepared = events[0]!.data as { as_of: string; tsr_sha256: string; eusr_sha256: string };
      // What it recorded is reproducible from the events as of its time.
      const again = await reporting.reports(month, prepared.as_of);
      expect(again.tsr_sha256).to.equal(prepared.tsr_sha256);
      expect(again.eusr_sha256).to.equal(prepared.eusr_sha256);
      const res = await operator(`/api/operator/reports/peppol?month=${month}`);
      expect(res.body.prepared).to.include({ tsr_sha256: prepared.tsr_sha256 });
    });

    it("scripts/peppol-report prints them from the running instance's API", async () => {
      const server = t.service.app.listen(0, '127.0.0.1');
      await new Promise((ready) => server.once('listening', ready));
      try {
        const port = (server.address() as { port: number }).port;
        const args = parseArgs(['--month', month, '--report', 'eusr'], { PORT: String(port) })!;
        let out = '';
        expect(
          await peppolReport(
            args,
            t.operatorKey,
            (x) => (out += x),
            () => {},
          ),
        ).to.equal(0);
        expect(out).to.contain('<EndUserStatisticsReport');
        expect(await official.check('eusr', out)).to.deep.equal({ schema: [], rules: [] });
        let both = '';
        let digest = '';
        const all = parseArgs(['--month', month], { PORT: String(port) })!;
        expect(
          await peppolReport(
            all,
            t.operatorKey,
            (x) => (both += x),
            (x) => (digest += x),
          ),
        ).to.equal(0);
        expect(both).to.contain('<TransactionStatisticsReport').and.to.contain('<EndUserStatisticsReport');
        expect(digest).to.match(/TSR sha256 [0-9a-f]{64}/);
        let error = '';
        const bad = parseArgs(['--month', '2026-13'], { PORT: String(port) })!;
        expect(
          await peppolReport(
            bad,
            t.operatorKey,
            () => {},
            (x) => (error += x),
          ),
        ).to.equal(1);
        expect(error).to.match(/^422/);
        expect(parseArgs([], {})).to.equal(null);
      } finally {
        await new Promise((done) => server.close(done));
      }
    });
  },
);
