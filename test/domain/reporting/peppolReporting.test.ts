import { expect } from 'chai';
import {
  endUserStatistics,
  reportPeriod,
  transactionStatistics,
  type PeppolExchange,
  type ReportPeriod,
} from '../../../src/domain/reporting/peppolReporting.js';
import { endUserStatisticsXml, transactionStatisticsXml } from '../../../src/domain/reporting/peppolReportXml.js';
import { OfficialReportingRules } from '../../support/officialReportingRules.js';
import { describeWithHarness } from '../../support/phiveHarness.js';

const INVOICE = {
  scheme: 'busdox-docid-qns',
  value:
    'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2::Invoice##urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0::2.1',
};
const RESPONSE = {
  scheme: 'busdox-docid-qns',
  value:
    'urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2::ApplicationResponse##urn:fdc:peppol.eu:poacc:trns:invoice_response:3::2.1',
};
const BILLING = { scheme: 'cenbii-procid-ubl', value: 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0' };
const RESPONSE_PROCESS = { scheme: 'cenbii-procid-ubl', value: 'urn:fdc:peppol.eu:poacc:bis:invoice_response:3' };
const TSR_DOC = {
  scheme: 'busdox-docid-qns',
  value:
    'urn:fdc:peppol:transaction-statistics-report:1.0::TransactionStatisticsReport##urn:fdc:peppol.eu:edec:trns:transaction-statistics-reporting:1.0::1.0',
};

const exchange = (e: Partial<PeppolExchange>): PeppolExchange => ({
  direction: 'outgoing',
  at: '2026-10-15T10:00:00.000Z',
  otherServiceProvider: 'POP000002',
  documentType: INVOICE,
  process: BILLING,
  transportProtocol: 'peppol-transport-as4-v2_0',
  countryC1: 'BE',
  countryC4: null,
  endUser: '0208:0123456789',
  ...e,
});
const OCTOBER = reportPeriod('2026-10')!;

describe('Peppol Reporting (TSR 1.0, EUSR 1.1)', () => {
  describe('the reporting period', () => {
    it('is the calendar month, first to last day', () => {
      expect(reportPeriod('2026-02')).to.deep.equal({ month: '2026-02', start: '2026-02-01', end: '2026-02-28' });
      expect(reportPeriod('2028-02')!.end).to.equal('2028-02-29');
      expect(reportPeriod('2026-12')!.end).to.equal('2026-12-31');
    });
    it('is refused for anything but YYYY-MM', () => {
      for (const bad of ['2026-13', '2026-1', '2026-00', '26-10', '2026-10-01', '', 'october'])
        expect(reportPeriod(bad), bad).to.equal(null);
    });
  });

  describe('the Transaction Statistics Report', () => {
    it('given sends and receipts of the month, counts them in total and per transport, provider/type/process and (incoming) countries', () => {
      const report = transactionStatistics(OCTOBER, 'POP000001', [
        exchange({}),
        exchange({ otherServiceProvider: 'POP000003' }),
        exchange({ direction: 'incoming', countryC1: 'NL', countryC4: 'BE', endUser: '0208:0123456789' }),
        exchange({
          direction: 'incoming',
          countryC1: 'NL',
          countryC4: 'BE',
          documentType: RESPONSE,
          process: RESPONSE_PROCESS,
        }),
        // Outside the month (its end is exclusive) and a report itself: not counted.
        exchange({ at: '2026-11-01T00:00:00.000Z' }),
        exchange({ at: '2026-09-30T23:59:59.999Z' }),
        exchange({ documentType: TSR_DOC }),
      ]);
      expect([report.incoming, report.outgoing]).to.deep.equal([2, 2]);
      const by = (type: string) =>
        report.subtotals
          .filter((s) => s.type === type)
          .map((s) => [s.keys.map((k) => k.value).join(' '), s.incoming, s.outgoing]);
      expect(by('PerTP')).to.deep.equal([['peppol-transport-as4-v2_0', 2, 2]]);
      expect(by('PerSP-DT-PR')).to.deep.equal([
        [`POP000002 ${RESPONSE.value} ${RESPONSE_PROCESS.value}`, 1, 0],
        [`POP000002 ${INVOICE.value} ${BILLING.value}`, 1, 1],
        [`POP000003 ${INVOICE.value} ${BILLING.value}`, 0, 1],
      ]);
      expect(by('PerSP-DT-PR-CC')).to.deep.equal([
        [`POP000002 ${RESPONSE.value} ${RESPONSE_PROCESS.value} NL BE`, 1, 0],
        [`POP000002 ${INVOICE.value} ${BILLING.value} NL BE`, 1, 0],
      ]);
    });

    it('given nothing exchanged, is a report of zeros without subtotals', () => {
      const report = transactionStatistics(OCTOBER, 'POP000001', []);
      expect(report).to.deep.include({ incoming: 0, outgoing: 0, subtotals: [] });
    });

    it('gives the same bytes whatever the order of the exchanges', () => {
      const list = [
        exchange({}),
        exchange({ otherServiceProvider: 'POP000003', countryC1: 'DE' }),
        exchange({ direction: 'incoming', countryC1: 'NL', countryC4: 'BE' }),
      ];
      const a = transactionStatisticsXml(transactionStatistics(OCTOBER, 'POP000001', list));
      const b = transactionStatisticsXml(transactionStatistics(OCTOBER, 'POP000001', [...list].reverse()));
      expect(a).to.equal(b);
    });
  });

  describe('the End User Statistics Report', () => {
    it('given end users sending and receiving, counts each once per set', () => {
      const report = endUserStatistics(OCTOBER, 'POP000001', [
        exchange({ endUser: '0208:1' }),
        exchange({ endUser: '0208:1' }),
        exchange({ endUser: '0208:2', countryC1: 'NL' }),
        exchange({ direction: 'incoming', endUser: '0208:1', countryC1: 'DE', countryC4: 'BE' }),
        exchange({
          direction: 'incoming',
          endUser: '0208:3',
          countryC1: 'DE',
          countryC4: 'BE',
          documentType: RESPONSE,
          process: RESPONSE_PROCESS,
        }),
      ]);
      expect([report.sending, report.receiving, report.sendingOrReceiving]).to.deep.equal([2, 2, 3]);
      const by = (type: string) =>
        report.subsets
          .filter((s) => s.type === type)
          .map((s) => [
            s.keys.map((k) => (k.metaSchemeID === 'CC' ? k.value : k.metaSchemeID)).join(' '),
            s.sending,
            s.receiving,
            s.sendingOrReceiving,
          ]);
      expect(by('PerEUC')).to.deep.equal([
        ['BE', 1, 2, 2],
        ['NL', 1, 0, 1],
      ]);
      expect(by('PerDT-PR')).to.deep.equal([
        ['DT PR', 0, 1, 1],
        ['DT PR', 2, 1, 2],
      ]);
      expect(by('PerDT-EUC')).to.have.length(3);
      expect(by('PerDT-PR-EUC')).to.have.length(3);
    });
  });

  describeWithHarness('validated by the official XSD and Schematron', function () {
    this.timeout(120_000);
    let official: OfficialReportingRules;
    before(async () => (official = await OfficialReportingRules.start()));
    after(() => official?.close());

    const month = (period: ReportPeriod, list: PeppolExchange[]) => ({
      tsr: transactionStatisticsXml(transactionStatistics(period, 'POP000001', list)),
      eusr: endUserStatisticsXml(endUserStatistics(period, 'POP000001', list)),
    });
    const cases: Array<[string, PeppolExchange[]]> = [
      ['an empty month', []],
      [
        'sends only',
        [exchange({}), exchange({ otherServiceProvider: 'POP000009', countryC1: 'NO', endUser: '0192:1' })],
      ],
      ['receipts only', [exchange({ direction: 'incoming', countryC1: 'GR', countryC4: 'BE' })]],
      [
        'sends, receipts and responses, several providers and countries',
        [
          exchange({}),
          exchange({ endUser: '0208:2', countryC1: 'NL' }),
          exchange({ otherServiceProvider: 'POP000003' }),
          exchange({ direction: 'incoming', countryC1: 'DE', countryC4: 'BE' }),
          exchange({
            direction: 'incoming',
            countryC1: 'DE',
            countryC4: 'NL',
            endUser: '0106:3',
            otherServiceProvider: 'POP000004',
          }),
          exchange({
            direction: 'incoming',
            documentType: RESPONSE,
            process: RESPONSE_PROCESS,
            countryC1: 'FR',
            countryC4: 'BE',
          }),
          exchange({ documentType: RESPONSE, process: RESPONSE_PROCESS }),
        ],
      ],
    ];
    for (const [name, list] of cases)
      it(`${name}: no XSD error and no failed assert`, async () => {
        const { tsr, eusr } = month(OCTOBER, list);
        expect(await official.check('tsr', tsr)).to.deep.equal({ schema: [], rules: [] });
        expect(await official.check('eusr', eusr)).to.deep.equal({ schema: [], rules: [] });
      });

    it('the official rules do catch a report whose subtotals do not add up (the check can fail)', async () => {
      const { tsr, eusr } = month(OCTOBER, [exchange({}), exchange({ direction: 'incoming', countryC4: 'BE' })]);
      const badTsr = tsr.replace('<Outgoing>1</Outgoing>', '<Outgoing>2</Outgoing>');
      expect((await official.check('tsr', badTsr)).rules).to.include('SCH-TSR-05 (fatal)');
      const badEusr = eusr.replace('<SendingOrReceivingEndUsers>1<', '<SendingOrReceivingEndUsers>7<');
      expect(badEusr).to.not.equal(eusr);
      expect((await official.check('eusr', badEusr)).rules).to.include('SCH-EUSR-19 (fatal)');
    });
  });
});
