import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { bearer, eventually, startTestService, type TestService } from '../support/service.js';
import { startDnsServer, type TestDnsServer } from '../support/dnsServer.js';
import { describeWithPhase4, startPhase4Receiver, stopPhase4Receiver, type Phase4Receiver } from '../support/phase4.js';
import { makeTestPki, type TestPki } from '../support/testPki.js';
import { senderPeppolConfig } from '../support/as4Peers.js';
import { startStaticSmp } from '../support/staticSmp.js';
import { PHIVE_HARNESS_JAR } from '../support/phiveHarness.js';
import { OfficialReportingRules } from '../support/officialReportingRules.js';
import { readSbdh } from '../../src/infrastructure/as4/sbdhXml.js';
import { PEPPOL_EUSR, PEPPOL_TSR } from '../../src/domain/peppol/peppolDocumentTypes.js';
import { OPENPEPPOL_REPORTING_RECEIVER } from '../../src/domain/reporting/peppolReporting.js';

const MONTH = '2026-01';

/**
 * The monthly Peppol reports sent over AS4 to the reporting receiver the specification names
 * (OpenPeppol, 9925:be0848934496), played here by a phase4 receiver (POP000002) that a signed SMP
 * names for the TSR and EUSR document types: both arrive once, from our SPID, and pass the official
 * XSD and Schematron; asked again nothing more is sent; a resend is a new transmission.
 */
describeWithPhase4(
  'Peppol Reporting submission: our TSR and EUSR to a phase4 receiver (SML DNS, signed SMP, AS4)',
  function () {
    this.timeout(300_000);
    let pki: TestPki;
    let dns: TestDnsServer;
    let receiver: Phase4Receiver;
    let smp: Awaited<ReturnType<typeof startStaticSmp>>;
    let outDir: string;
    let us: TestService;
    let official: OfficialReportingRules;

    before(async () => {
      pki = await makeTestPki({ instances: 2 });
      dns = await startDnsServer();
      outDir = await mkdtemp(path.join(os.tmpdir(), 'phase4-reports-'));
      receiver = await startPhase4Receiver({ ap: pki.instance(2), outDir, serviced: [OPENPEPPOL_REPORTING_RECEIVER] });
      smp = await startStaticSmp({
        signer: pki.instance(2),
        dns,
        entries: [
          {
            participant: OPENPEPPOL_REPORTING_RECEIVER,
            kinds: [PEPPOL_TSR, PEPPOL_EUSR],
            endpointUrl: receiver.url,
            ap: pki.instance(2),
          },
        ],
      });
      [us, official] = await Promise.all([
        startTestService(
          { peppol: senderPeppolConfig(pki, dns, { as4AllowPlainHttpLoopback: true, as4SendTimeoutMs: 120_000 }) },
          undefined,
          { deliveryRetryUnitMs: 5, jobLockLifetimeMs: 60_000 },
        ),
        OfficialReportingRules.start(),
      ]);
    });
    after(async () => {
      await us?.stop();
      await official?.close();
      await smp?.stop();
      await stopPhase4Receiver(receiver);
      await dns?.close();
      await pki?.dispose();
      if (outDir) await rm(outDir, { recursive: true, force: true });
    });

    const operator = (method: 'get' | 'post', route: string) => us.http[method](route).set(bearer(us.operatorKey));
    const status = async () => (await operator('get', `/api/operator/reports/peppol/submissions?month=${MONTH}`)).body;
    /** What phase4 stored: each received SBD's envelope and report. */
    const received = async () => {
      const files = (await readdir(outDir)).filter((f) => f.endsWith('.sbd.xml'));
      return Promise.all(
        files.map(async (f) => {
          const read = readSbdh(await readFile(path.join(outDir, f)));
          if (!read.ok) throw new Error(`${f}: ${read.message}`);
          return read;
        }),
      );
    };

    it("sends the month's TSR and EUSR once each, from our SPID to OpenPeppol's id; phase4 receives both and they pass the official rules", async () => {
      const submitted = await operator('post', '/api/operator/reports/peppol/submissions').send({ month: MONTH });
      expect(submitted.status, JSON.stringify(submitted.body)).to.equal(200);
      const sent = await eventually(
        async () => {
          const s = await status();
          return s.tsr?.status === 'SENT' && s.eusr?.status === 'SENT' && s;
          // A phase4 receiver's first message waits for its JVM to warm up (20 s here on a busy machine).
        },
        'both reports SENT',
        150_000,
      );
      for (const report of [sent.tsr, sent.eusr]) {
        expect(report).to.include({ receiver: OPENPEPPOL_REPORTING_RECEIVER, failure_reason: null });
        expect(report.deliveries).to.have.length(1);
        expect(report.deliveries[0].attempts[0]).to.include({ outcome: 'delivered', remote_ap: 'POP000002' });
      }

      const messages = await received();
      expect(messages.map((m) => m.sbdh.documentType.value)).to.have.members([
        PEPPOL_TSR.documentType.value,
        PEPPOL_EUSR.documentType.value,
      ]);
      for (const m of messages) {
        expect(m.sbdh.sender.value).to.equal('0242:000001');
        expect(m.sbdh.receiver.value).to.equal(OPENPEPPOL_REPORTING_RECEIVER);
        expect(m.sbdh.process.value).to.equal('urn:fdc:peppol.eu:edec:bis:reporting:1.0');
        expect(m.sbdh.countryC1).to.equal('BE');
        expect(m.sbdh.mlsTo, 'a report asks for no MLS').to.equal(null);
        const kind = m.sbdh.documentType.value === PEPPOL_TSR.documentType.value ? 'tsr' : 'eusr';
        const verdict = await official.check(kind, m.businessDocument);
        expect(verdict.schema, `${kind} XSD`).to.deep.equal([]);
        expect(
          verdict.rules.filter((r) => r.endsWith('(fatal)')),
          `${kind} Schematron`,
        ).to.deep.equal([]);
      }

      // Asked again (the job run twice, the operator's button pressed twice): nothing more is sent.
      await operator('post', '/api/operator/reports/peppol/submissions').send({ month: MONTH });
      expect((await status()).tsr.deliveries).to.have.length(1);
      expect(await received()).to.have.length(2);
    });

    it('resends a report as a new transmission on request, and refuses what is not there or malformed', async () => {
      const resent = await operator('post', `/api/operator/reports/peppol/submissions/${MONTH}/tsr/resend`);
      expect(resent.status, JSON.stringify(resent.body)).to.equal(200);
      const again = await eventually(
        async () => {
          const s = await status();
          return s.tsr.status === 'SENT' && s.tsr.deliveries.length === 2 && s.tsr;
        },
        'the TSR sent again',
        60_000,
      );
      expect(again.deliveries[1].message_id).to.not.equal(again.deliveries[0].message_id);
      expect(again.deliveries[1].requested_by).to.be.a('string');
      await eventually(async () => (await received()).length === 3, 'phase4 has the third message');

      expect((await operator('post', '/api/operator/reports/peppol/submissions/2025-02/eusr/resend')).status).to.equal(
        404,
      );
      expect((await operator('post', `/api/operator/reports/peppol/submissions/${MONTH}/xsr/resend`)).status).to.equal(
        422,
      );
      expect(
        (await operator('post', '/api/operator/reports/peppol/submissions').send({ month: '2026-13' })).status,
      ).to.equal(422);
      expect((await us.http.post('/api/operator/reports/peppol/submissions').send({ month: MONTH })).status).to.equal(
        401,
      );
    });
  },
  [PHIVE_HARNESS_JAR],
);
