import { COUNTRY_CODES } from './codeLists.js';
import { ownEntry } from '../../ownEntry.js';

/** A postal address split the way UBL wants it (BG-5/BG-8/BG-15). */
export interface PostalAddress {
  street: string | null;
  additional_street: string | null;
  city: string | null;
  postal_code: string | null;
  /** ISO 3166-1 alpha-2. */
  country_code: string | null;
}

const COUNTRY_NAMES: Readonly<Record<string, string>> = {
  belgium: 'BE',
  belgique: 'BE',
  belgië: 'BE',
  belgie: 'BE',
  belgien: 'BE',
  netherlands: 'NL',
  'the netherlands': 'NL',
  nederland: 'NL',
  holland: 'NL',
  'pays-bas': 'NL',
  niederlande: 'NL',
  germany: 'DE',
  deutschland: 'DE',
  allemagne: 'DE',
  duitsland: 'DE',
  france: 'FR',
  frankrijk: 'FR',
  frankreich: 'FR',
  luxembourg: 'LU',
  luxemburg: 'LU',
  austria: 'AT',
  österreich: 'AT',
  oesterreich: 'AT',
  autriche: 'AT',
  switzerland: 'CH',
  schweiz: 'CH',
  suisse: 'CH',
  zwitserland: 'CH',
  'united kingdom': 'GB',
  uk: 'GB',
  'great britain': 'GB',
  england: 'GB',
  'royaume-uni': 'GB',
  ireland: 'IE',
  spain: 'ES',
  españa: 'ES',
  espagne: 'ES',
  italy: 'IT',
  italia: 'IT',
  italie: 'IT',
  portugal: 'PT',
  denmark: 'DK',
  danmark: 'DK',
  sweden: 'SE',
  sverige: 'SE',
  norway: 'NO',
  norge: 'NO',
  finland: 'FI',
  poland: 'PL',
  polska: 'PL',
  'czech republic': 'CZ',
  czechia: 'CZ',
  greece: 'GR',
  'united states': 'US',
  usa: 'US',
  canada: 'CA',
  japan: 'JP',
  china: 'CN',
  india: 'IN',
  australia: 'AU',
  singapore: 'SG',
  'hong kong': 'HK',
  'new zealand': 'NZ',
};

/** Country letter prefixes people write before a postal code ("D-80331 München", "B-1000 Brussel"). */
const POSTAL_PREFIX: Readonly<Record<string, string>> = {
  A: 'AT',
  B: 'BE',
  D: 'DE',
  F: 'FR',
  L: 'LU',
  NL: 'NL',
  CH: 'CH',
  I: 'IT',
  E: 'ES',
  P: 'PT',
  DK: 'DK',
  S: 'SE',
  BE: 'BE',
  DE: 'DE',
  FR: 'FR',
  LU: 'LU',
  AT: 'AT',
  SE: 'SE',
};

export const countryCodeOf = (text: string): string | null => {
  const t = text.trim();
  if (/^[A-Za-z0-9]{2}$/.test(t) && COUNTRY_CODES.has(t.toUpperCase())) return t.toUpperCase();
  return ownEntry(COUNTRY_NAMES, t.toLowerCase()) ?? null;
};

interface PostalCity {
  postal_code: string | null;
  city: string | null;
  country_code: string | null;
}

const matchPostalCity = (part: string, country: string | null): PostalCity | null => {
  let m = /^(?:NL-)?(\d{4}\s?[A-Z]{2})\s+(.+)$/.exec(part);
  if (m) return { postal_code: m[1]!, city: m[2]!.trim(), country_code: 'NL' };
  m = /^(?:([A-Z]{1,2})-)?(\d{4,5})\s+(\D.*)$/.exec(part);
  if (m) {
    const prefixCountry = m[1] ? (ownEntry(POSTAL_PREFIX, m[1]) ?? null) : null;
    // A prefix we do not know, or one contradicting the country line, is part of the postal code as written.
    const keep = m[1] !== undefined && (prefixCountry === null || (country !== null && prefixCountry !== country));
    return {
      postal_code: keep ? `${m[1]}-${m[2]}` : m[2]!,
      city: m[3]!.trim(),
      country_code: keep ? null : prefixCountry,
    };
  }
  m = /^(?:NL-)?(\d{4}\s?[A-Z]{2})\s+(.+)$/.exec(part);
  if (m) return { postal_code: m[1]!, city: m[2]!.trim(), country_code: 'NL' };
  m = /^(?:SE-)?(\d{3}\s\d{2})\s+(.+)$/.exec(part);
  if (m) return { postal_code: m[1]!, city: m[2]!.trim(), country_code: 'SE' };
  m = /^(\D+?)\s+(\d{4,5})$/.exec(part);
  if (m) return { postal_code: m[2]!, city: m[1]!.trim(), country_code: null };
  m = /^([A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2})\s+(.+)$/.exec(part);
  if (m) return { postal_code: m[1]!, city: m[2]!.trim(), country_code: 'GB' };
  m = /^(\D+?)\s+([A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2})$/.exec(part);
  if (m) return { postal_code: m[2]!, city: m[1]!.trim(), country_code: 'GB' };
  m = /^(\d{4,5})$/.exec(part);
  if (m) return { postal_code: m[1]!, city: null, country_code: null };
  return null;
};

const emptyAddress = (): PostalAddress => ({
  street: null,
  additional_street: null,
  city: null,
  postal_code: null,
  country_code: null,
});

/**
 * Splits an address written as one string. Lines are separated by newlines when there are any,
 * otherwise by commas. The last part may be a country (code or name in English, French, Dutch or
 * German); the part with a postal code gives postal code and city; what precedes is the street and
 * an additional street line. Fields that cannot be recognised are left null rather than guessed.
 */
export const parseAddress = (text: string | null | undefined): PostalAddress => {
  const out = emptyAddress();
  if (!text || text.trim() === '') return out;
  const separator = text.includes('\n') ? /\r?\n/ : /,/;
  let parts = text
    .split(separator)
    .map((p) => p.trim().replace(/\s+/g, ' '))
    .filter((p) => p.length > 0);

  if (parts.length > 1) {
    const country = countryCodeOf(parts[parts.length - 1]!);
    if (country) {
      out.country_code = country;
      parts = parts.slice(0, -1);
    }
  }

  // "Rue de la Loi 16 1000 Brussels" written without separators: split street from postal code and city.
  if (parts.length === 1 && !matchPostalCity(parts[0]!, out.country_code)) {
    const m = /^(.+?\d+[a-zA-Z]?)\s+((?:[A-Z]{1,2}-)?\d{4,5}\s+\D.*)$/.exec(parts[0]!);
    if (m && /\d/.test(m[1]!)) parts = [m[1]!.trim(), m[2]!.trim()];
  }

  let cityIndex = -1;
  for (let i = parts.length - 1; i >= 0; i--) {
    const pc = matchPostalCity(parts[i]!, out.country_code);
    if (pc && (i > 0 || parts.length === 1)) {
      out.postal_code = pc.postal_code;
      out.city = pc.city;
      out.country_code = out.country_code ?? pc.country_code;
      cityIndex = i;
      break;
    }
  }
  if (cityIndex < 0 && parts.length > 1) {
    cityIndex = parts.length - 1;
    out.city = parts[cityIndex]!;
  }
  const streetParts = cityIndex < 0 ? parts : parts.slice(0, cityIndex);
  if (streetParts.length > 0) out.street = streetParts[0]!;
  if (streetParts.length > 1) out.additional_street = streetParts.slice(1).join(', ');
  if (parts.length === 1 && cityIndex < 0 && out.country_code === null) {
    const country = countryCodeOf(parts[0]!);
    if (country) {
      out.street = null;
      out.country_code = country;
    }
  }
  return out;
};

/**
 * The inverse of parseAddress for addresses read from UBL: one field per line, postal code before
 * the city, the country as its code. parseAddress(formatAddress(a)) gives a back.
 */
export const formatAddress = (a: PostalAddress): string | null => {
  const cityLine = [a.postal_code, a.city].filter((x): x is string => !!x && x.trim() !== '').join(' ');
  const lines = [a.street, a.additional_street, cityLine, a.country_code]
    .map((x) => (x ?? '').trim().replace(/\s*\n\s*/g, ' '))
    .filter((x) => x.length > 0);
  return lines.length > 0 ? lines.join('\n') : null;
};
