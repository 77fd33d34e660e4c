/**
 * OpenPeppol Reporting: the Transaction Statistics Report (TSR 1.0) and the End User Statistics
 * Report (EUSR 1.1) of one calendar month, computed from the exchanges this access point made over
 * the Peppol network (AS4). A pure function of the exchanges: the same exchanges give the same
 * report, its subtotals in one fixed order.
 *
 * What counts (our reading of the specifications and their Schematron):
 * - an exchange is one dataset (business document) sent to (outgoing) or received from
 *   (incoming) another service provider; the month is the UTC month of its transmission;
 * - TSR: the total, and subtotals per transport protocol, per (other service provider, dataset
 *   type, process), and, for incoming datasets only, per (other service provider, dataset type,
 *   process, sender country C1, receiver country C4); every subtotal family adds up to the total;
 * - EUSR: distinct end users (our participants: C1 of what we send, C4 of what we receive) that
 *   sent, received, or either, overall and per (dataset type, process), per (dataset type, end
 *   user country), per end user country, and per (dataset type, process, end user country);
 *   a subset is present only when it has at least one end user;
 * - the reports themselves (TSR and EUSR document types) are not reported.
 */

export interface ScopedValue {
  scheme: string;
  value: string;
}

export type ExchangeDirection = 'outgoing' | 'incoming';

/** One dataset exchanged over the Peppol network, as the event history records it. */
export interface PeppolExchange {
  direction: ExchangeDirection;
  /** When it was transmitted (ISO 8601): the receipt's time for a sent one, the reception's for a received one. */
  at: string;
  /** The other service provider's seat id (C3 when we sent, C2 when we received). */
  otherServiceProvider: string;
  documentType: ScopedValue;
  process: ScopedValue;
  /** The transport profile it travelled by, e.g. peppol-transport-as4-v2_0. */
  transportProtocol: string;
  /** COUNTRY_C1 of its envelope. */
  countryC1: string;
  /** The receiving end user's country; known for incoming datasets (our participant's), null otherwise. */
  countryC4: string | null;
  /** Our end user: the sender (C1) of an outgoing dataset, the receiver (C4) of an incoming one. */
  endUser: string;
}

export const TSR_CUSTOMIZATION_ID = 'urn:fdc:peppol.eu:edec:trns:transaction-statistics-reporting:1.0';
export const EUSR_CUSTOMIZATION_ID = 'urn:fdc:peppol.eu:edec:trns:end-user-statistics-report:1.1';
/** OpenPeppol AISBL, the receiver of the Peppol Reporting (Peppol Reporting specification; peppol-reporting's CPeppolReporting). */
export const OPENPEPPOL_REPORTING_RECEIVER = '9925:be0848934496';
export const REPORTING_PROFILE_ID = 'urn:fdc:peppol.eu:edec:bis:reporting:1.0';
export const SERVICE_PROVIDER_SCHEME = 'CertSubjectCN';
/** The document types of the reports themselves: exchanged like any other, never reported. */
export const REPORT_DOCUMENT_TYPES: readonly string[] = [
  'urn:fdc:peppol:transaction-statistics-report:1.0::TransactionStatisticsReport##urn:fdc:peppol.eu:edec:trns:transaction-statistics-reporting:1.0::1.0',
  'urn:fdc:peppol:end-user-statistics-report:1.1::EndUserStatisticsReport##urn:fdc:peppol.eu:edec:trns:end-user-statistics-report:1.1::1.1',
];

export interface ReportPeriod {
  /** YYYY-MM. */
  month: string;
  /** First and last day, inclusive (YYYY-MM-DD). */
  start: string;
  end: string;
}

/** A subtotal's or a subset's key, as the reports write it. */
export interface ReportKey {
  metaSchemeID: string;
  schemeID: string;
  value: string;
}

export interface TsrSubtotal {
  type: 'PerTP' | 'PerSP-DT-PR' | 'PerSP-DT-PR-CC';
  keys: ReportKey[];
  incoming: number;
  outgoing: number;
}

export interface TransactionStatistics {
  period: ReportPeriod;
  reporter: string;
  incoming: number;
  outgoing: number;
  subtotals: TsrSubtotal[];
}

export interface EusrSubset {
  type: 'PerDT-PR' | 'PerDT-PR-EUC' | 'PerDT-EUC' | 'PerEUC';
  keys: ReportKey[];
  sending: number;
  receiving: number;
  sendingOrReceiving: number;
}

export interface EndUserStatistics {
  period: ReportPeriod;
  reporter: string;
  sending: number;
  receiving: number;
  sendingOrReceiving: number;
  subsets: EusrSubset[];
}

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
const SEAT_ID = /^P[A-Z]{2}[0-9]{6}$/;

/** The period of a month `YYYY-MM`; null for anything else. */
export function reportPeriod(month: string): ReportPeriod | null {
  const m = MONTH.exec(month);
  if (!m) return null;
  const year = Number(m[1]);
  const mon = Number(m[2]);
  if (year < 1970) return null;
  const lastDay = new Date(Date.UTC(year, mon, 0)).getUTCDate();
  return { month, start: `${month}-01`, end: `${month}-${String(lastDay).padStart(2, '0')}` };
}

/** The month after `month` (YYYY-MM): its first instant is the end of `month`. */
export function nextMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}

/** The month before `month` (YYYY-MM). */
export function previousMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}

/** Whether a seat id has the layout the reports require (P, two letters, six digits). */
export const isSeatId = (id: string): boolean => SEAT_ID.test(id);

/** The exchanges of the period that are reported: in its UTC month, and not the reports themselves. */
export function exchangesOf(period: ReportPeriod, exchanges: readonly PeppolExchange[]): PeppolExchange[] {
  const from = Date.parse(`${period.start}T00:00:00Z`);
  const to = Date.parse(`${nextMonth(period.month)}-01T00:00:00Z`);
  return exchanges.filter((e) => {
    const at = Date.parse(e.at);
    return at >= from && at < to && !REPORT_DOCUMENT_TYPES.includes(e.documentType.value);
  });
}

const spKey = (sp: string): ReportKey => ({ metaSchemeID: 'SP', schemeID: SERVICE_PROVIDER_SCHEME, value: sp });
const dtKey = (dt: ScopedValue): ReportKey => ({ metaSchemeID: 'DT', schemeID: dt.scheme, value: dt.value });
const prKey = (pr: ScopedValue): ReportKey => ({ metaSchemeID: 'PR', schemeID: pr.scheme, value: pr.value });
const ccKey = (schemeID: string, value: string): ReportKey => ({ metaSchemeID: 'CC', schemeID, value });

const keyText = (keys: readonly ReportKey[]): string =>
  keys.map((k) => `${k.metaSchemeID}\u0000${k.schemeID}\u0000${k.value}`).join('\u0001');
/** Code point order, independent of the locale. */
const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Groups by key, in the order of the keys' text (so the same exchanges give the same order). */
function groups<T>(
  items: readonly T[],
  keysOf: (item: T) => ReportKey[] | null,
): Array<{ keys: ReportKey[]; items: T[] }> {
  const map = new Map<string, { keys: ReportKey[]; items: T[] }>();
  for (const item of items) {
    const keys = keysOf(item);
    if (!keys) continue;
    const text = keyText(keys);
    const group = map.get(text) ?? { keys, items: [] };
    group.items.push(item);
    map.set(text, group);
  }
  return [...map.entries()].sort(([a], [b]) => byText(a, b)).map(([, group]) => group);
}

const count = (items: readonly PeppolExchange[], direction: ExchangeDirection): number =>
  items.filter((e) => e.direction === direction).length;

/** The Transaction Statistics Report of a period, as reported by the seat `reporter`. */
export function transactionStatistics(
  period: ReportPeriod,
  reporter: string,
  all: readonly PeppolExchange[],
): TransactionStatistics {
  const exchanges = exchangesOf(period, all);
  const subtotals: TsrSubtotal[] = [];
  const add = (type: TsrSubtotal['type'], keysOf: (e: PeppolExchange) => ReportKey[] | null) => {
    for (const g of groups(exchanges, keysOf))
      subtotals.push({
        type,
        keys: g.keys,
        incoming: count(g.items, 'incoming'),
        outgoing: count(g.items, 'outgoing'),
      });
  };
  add('PerTP', (e) => [{ metaSchemeID: 'TP', schemeID: 'Peppol', value: e.transportProtocol }]);
  add('PerSP-DT-PR', (e) => [spKey(e.otherServiceProvider), dtKey(e.documentType), prKey(e.process)]);
  // Countries per exchange are reported for incoming datasets only: C1 from the envelope, C4 ours.
  add('PerSP-DT-PR-CC', (e) =>
    e.direction === 'incoming' && e.countryC4
      ? [
          spKey(e.otherServiceProvider),
          dtKey(e.documentType),
          prKey(e.process),
          ccKey('SenderCountry', e.countryC1),
          ccKey('ReceiverCountry', e.countryC4),
        ]
      : null,
  );
  return {
    period,
    reporter,
    incoming: count(exchanges, 'incoming'),
    outgoing: count(exchanges, 'outgoing'),
    subtotals,
  };
}

/** The country of our end user in an exchange: C1 when it sent, C4 when it received. */
const endUserCountry = (e: PeppolExchange): string | null => (e.direction === 'outgoing' ? e.countryC1 : e.countryC4);

function endUsers(items: readonly PeppolExchange[]): { sending: number; receiving: number; either: number } {
  const sending = new Set(items.filter((e) => e.direction === 'outgoing').map((e) => e.endUser));
  const receiving = new Set(items.filter((e) => e.direction === 'incoming').map((e) => e.endUser));
  return { sending: sending.size, receiving: receiving.size, either: new Set([...sending, ...receiving]).size };
}

/** The End User Statistics Report of a period, as reported by the seat `reporter`. */
export function endUserStatistics(
  period: ReportPeriod,
  reporter: string,
  all: readonly PeppolExchange[],
): EndUserStatistics {
  const exchanges = exchangesOf(period, all);
  const subsets: EusrSubset[] = [];
  const add = (type: EusrSubset['type'], keysOf: (e: PeppolExchange) => ReportKey[] | null) => {
    for (const g of groups(exchanges, keysOf)) {
      const users = endUsers(g.items);
      if (users.either > 0)
        subsets.push({
          type,
          keys: g.keys,
          sending: users.sending,
          receiving: users.receiving,
          sendingOrReceiving: users.either,
        });
    }
  };
  const euc = (e: PeppolExchange): ReportKey | null => {
    const country = endUserCountry(e);
    return country ? ccKey('EndUserCountry', country) : null;
  };
  const withCountry = (e: PeppolExchange, keys: ReportKey[]): ReportKey[] | null => {
    const country = euc(e);
    return country ? [...keys, country] : null;
  };
  add('PerDT-PR', (e) => [dtKey(e.documentType), prKey(e.process)]);
  add('PerDT-PR-EUC', (e) => withCountry(e, [dtKey(e.documentType), prKey(e.process)]));
  add('PerDT-EUC', (e) => withCountry(e, [dtKey(e.documentType)]));
  add('PerEUC', (e) => withCountry(e, []));
  const users = endUsers(exchanges);
  return {
    period,
    reporter,
    sending: users.sending,
    receiving: users.receiving,
    sendingOrReceiving: users.either,
    subsets,
  };
}
