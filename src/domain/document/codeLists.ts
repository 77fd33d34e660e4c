// Code lists the document model is restricted to. Values come from the API spec (currencies,
// tax codes, vatex) and from the Peppol BIS 3.0.19 code lists (EAS, ISO 3166).

export const CURRENCIES = [
  'EUR', 'USD', 'GBP', 'JPY', 'CHF', 'CAD', 'AUD', 'NZD', 'CNY', 'INR', 'SEK', 'NOK', 'DKK', 'SGD', 'HKD',
] as const;
export type Currency = (typeof CURRENCIES)[number];

/** UNCL 5305 subset used by EN 16931 (BR-CL-17/18). */
export const TAX_CODES = ['S', 'AE', 'E', 'Z', 'G', 'O', 'K', 'L', 'M', 'B'] as const;
export type TaxCode = (typeof TAX_CODES)[number];

/** Categories whose rate is always 0 and which need an exemption reason in the VAT breakdown. */
export const EXEMPT_TAX_CODES: ReadonlyArray<TaxCode> = ['E', 'AE', 'K', 'G', 'O'];
/** Categories with exactly one VAT breakdown entry whatever the rate (BR-x-01 rules). */
export const SINGLE_SUBTOTAL_TAX_CODES: ReadonlyArray<TaxCode> = ['E', 'AE', 'K', 'G', 'O', 'Z'];

const letters = (from: string, to: string): string[] => {
  const out: string[] = [];
  for (let c = from.charCodeAt(0); c <= to.charCodeAt(0); c++) out.push(String.fromCharCode(c));
  return out;
};

/** The vatex values the spec lists (in its order). */
export const VATEX_CODES = [
  'VATEX-EU-79-C',
  'VATEX-EU-132',
  ...letters('A', 'Q').map((l) => `VATEX-EU-132-1${l}`),
  'VATEX-EU-143',
  ...letters('A', 'F').map((l) => `VATEX-EU-143-1${l}`),
  'VATEX-EU-143-1FA',
  ...letters('G', 'L').map((l) => `VATEX-EU-143-1${l}`),
  'VATEX-EU-144',
  'VATEX-EU-146-1E',
  'VATEX-EU-148',
  ...letters('A', 'G').map((l) => `VATEX-EU-148-${l}`),
  'VATEX-EU-151',
  'VATEX-EU-151-1A',
  'VATEX-EU-151-1AA',
  'VATEX-EU-151-1B',
  'VATEX-EU-151-1C',
  'VATEX-EU-151-1D',
  'VATEX-EU-151-1E',
  'VATEX-EU-159',
  'VATEX-EU-309',
  'VATEX-EU-AE',
  'VATEX-EU-D',
  'VATEX-EU-F',
  'VATEX-EU-G',
  'VATEX-EU-I',
  'VATEX-EU-IC',
  'VATEX-EU-O',
  'VATEX-EU-J',
  'VATEX-FR-FRANCHISE',
  'VATEX-FR-CNWVAT',
] as const;
export type VatexCode = (typeof VATEX_CODES)[number] | `VATEX-${string}`;

/**
 * Unit codes named by the spec plus the ones our customers use most. Any UN/ECE Rec 20/21 code is
 * accepted (the full list has 2162 entries and is checked by the rule engine, BR-CL-23); these are
 * the ones we give names to.
 */
export const UNIT_CODES = {
  C62: 'one (piece)',
  H87: 'piece',
  EA: 'each',
  HUR: 'hour',
  DAY: 'day',
  WEE: 'week',
  MON: 'month',
  ANN: 'year',
  MIN: 'minute',
  MTR: 'metre',
  MTK: 'square metre',
  MTQ: 'cubic metre',
  KMT: 'kilometre',
  KGM: 'kilogram',
  TNE: 'tonne',
  LTR: 'litre',
  KWH: 'kilowatt hour',
  SET: 'set',
  PR: 'pair',
  XBX: 'box',
  ZZ: 'mutually defined',
} as const;
export type NamedUnitCode = keyof typeof UNIT_CODES;
/** Any Rec 20/21 code; NamedUnitCode lists the usual ones. Plain string so stored documents map 1:1. */
export type UnitCode = string;
export const isUnitCodeFormat = (code: string): boolean => /^[A-Z0-9]{1,3}$/.test(code);

/** Peppol EAS list 3.0.19 (PEPPOL-EN16931-CL008): the schemes an EndpointID may carry. */
export const PEPPOL_EAS = new Set(
  (
    '0002 0007 0009 0037 0060 0088 0096 0097 0106 0130 0135 0142 0151 0177 0183 0184 0188 0190 0191 0192 0193 ' +
    '0195 0196 0198 0199 0200 0201 0202 0204 0208 0209 0210 0211 0212 0213 0215 0216 0218 0221 0230 0235 9910 ' +
    '9913 9914 9915 9918 9919 9920 9922 9923 9924 9925 9926 9927 9928 9929 9930 9931 9932 9933 9934 9935 9936 ' +
    '9937 9938 9939 9940 9941 9942 9943 9944 9945 9946 9947 9948 9949 9950 9951 9952 9953 9957 9959 0147 0154 ' +
    '0158 0170 0194 0203 0205 0217 0225 0240'
  ).split(' '),
);

/** ISO 3166-1 alpha-2 as accepted by BR-CL-14 (includes 1A and XI). */
export const COUNTRY_CODES = new Set(
  (
    '1A AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW ' +
    'BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ ' +
    'FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ ' +
    'IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH ' +
    'MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL ' +
    'PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD ' +
    'TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS XI YE YT ZA ZM ZW'
  ).split(' '),
);

/** UNCL 5189 subset allowed for allowance reason codes (BR-CL-19). */
export const ALLOWANCE_REASON_CODES = [
  '41', '42', '60', '62', '63', '64', '65', '66', '67', '68', '70', '71', '88', '95', '100', '102', '103', '104', '105',
] as const;
