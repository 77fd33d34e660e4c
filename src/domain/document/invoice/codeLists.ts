// Code lists the document model is restricted to. Values come from the API spec (currencies,
// tax codes, vatex) and from the code lists of the latest Peppol release (EAS, ISO 3166), which the
// rule engine owns: one copy of each list.
import { LATEST_CODE_LISTS } from '../../validation/codelists/index.js';

const { easPeppol, iso3166 } = LATEST_CODE_LISTS;

export const CURRENCIES = [
  'EUR',
  'USD',
  'GBP',
  'JPY',
  'CHF',
  'CAD',
  'AUD',
  'NZD',
  'CNY',
  'INR',
  'SEK',
  'NOK',
  'DKK',
  'SGD',
  'HKD',
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
export const PEPPOL_EAS: ReadonlySet<string> = easPeppol;

/** ISO 3166-1 alpha-2 as accepted by BR-CL-14 (includes 1A and XI). */
export const COUNTRY_CODES: ReadonlySet<string> = iso3166;

/**
 * Whether a code names a country where the API asks for one (the tenant's Peppol registration,
 * the participant search): BR-CL-14's list without 1A, its code for Kosovo, which is not an
 * ISO 3166-1 alpha-2 code. Exact match: callers normalise user input first.
 */
export const isCountryCode = (code: string): boolean => COUNTRY_CODES.has(code) && code !== '1A';

/** Invoice Response codes (UNCL 4343 subset): AP accepted, RE rejected. */
export type ResponseCode = 'AP' | 'RE';
