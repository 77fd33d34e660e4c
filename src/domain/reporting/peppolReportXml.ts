import {
  EUSR_CUSTOMIZATION_ID,
  REPORTING_PROFILE_ID,
  SERVICE_PROVIDER_SCHEME,
  TSR_CUSTOMIZATION_ID,
  type EndUserStatistics,
  type ReportKey,
  type ReportPeriod,
  type TransactionStatistics,
} from './peppolReporting.js';
import { writeXml, xmlBuilder } from '../xml/xmlWriter.js';

/**
 * The XML of the OpenPeppol reports (TSR 1.0, EUSR 1.1), in the element order of their schemas.
 * Nothing in them comes from the clock: the same report data gives the same bytes.
 */

const TSR_NS = { '': 'urn:fdc:peppol:transaction-statistics-report:1.0' };
const EUSR_NS = { '': 'urn:fdc:peppol:end-user-statistics-report:1.1' };

function header(b: ReturnType<typeof xmlBuilder>, period: ReportPeriod, reporter: string) {
  return b.agg(
    'Header',
    b.agg('ReportPeriod', b.element('StartDate', {}, period.start), b.element('EndDate', {}, period.end)),
    b.element('ReporterID', { schemeID: SERVICE_PROVIDER_SCHEME }, reporter),
  );
}

const keys = (b: ReturnType<typeof xmlBuilder>, list: readonly ReportKey[]) =>
  list.map((k) => b.element('Key', { metaSchemeID: k.metaSchemeID, schemeID: k.schemeID }, k.value));

export function transactionStatisticsXml(report: TransactionStatistics): string {
  const b = xmlBuilder(TSR_NS);
  return writeXml('TransactionStatisticsReport', TSR_NS, [
    b.element('CustomizationID', {}, TSR_CUSTOMIZATION_ID),
    b.element('ProfileID', {}, REPORTING_PROFILE_ID),
    header(b, report.period, report.reporter),
    b.element('Total', {}, '', [
      b.element('Incoming', {}, String(report.incoming)),
      b.element('Outgoing', {}, String(report.outgoing)),
    ]),
    report.subtotals.map((s) =>
      b.element('Subtotal', { type: s.type }, '', [
        keys(b, s.keys),
        b.element('Incoming', {}, String(s.incoming)),
        b.element('Outgoing', {}, String(s.outgoing)),
      ]),
    ),
  ]);
}

export function endUserStatisticsXml(report: EndUserStatistics): string {
  const b = xmlBuilder(EUSR_NS);
  const counts = (sending: number, receiving: number, either: number) => [
    b.element('SendingEndUsers', {}, String(sending)),
    b.element('ReceivingEndUsers', {}, String(receiving)),
    b.element('SendingOrReceivingEndUsers', {}, String(either)),
  ];
  return writeXml('EndUserStatisticsReport', EUSR_NS, [
    b.element('CustomizationID', {}, EUSR_CUSTOMIZATION_ID),
    b.element('ProfileID', {}, REPORTING_PROFILE_ID),
    header(b, report.period, report.reporter),
    b.element('FullSet', {}, '', counts(report.sending, report.receiving, report.sendingOrReceiving)),
    report.subsets.map((s) =>
      b.element('Subset', { type: s.type }, '', [
        keys(b, s.keys),
        counts(s.sending, s.receiving, s.sendingOrReceiving),
      ]),
    ),
  ]);
}
