/*
 * Dates as invoices print them, in English, Dutch, French and German: ISO (2025-03-14),
 * numeric day-first (14/03/2025, 14.03.2025, 14-03-25), and with month names (14 March 2025,
 * March 14, 2025, 14 mars 2025, 14. März 2025, 14 maart 2025). Numeric dates are read day first
 * (European) unless only the other order is a real date.
 */

const MONTHS: ReadonlyArray<[RegExp, number]> = [
  [/^(jan|january|januari|janvier|januar|jän|jänner)\.?$/i, 1],
  [/^(feb|febr|february|februari|février|fevrier|févr|februar)\.?$/i, 2],
  [/^(mar|march|maart|mrt|mars|märz|maerz|mär)\.?$/i, 3],
  [/^(apr|april|avril|avr)\.?$/i, 4],
  [/^(may|mei|mai)\.?$/i, 5],
  [/^(jun|june|juni|juin)\.?$/i, 6],
  [/^(jul|july|juli|juillet|juil)\.?$/i, 7],
  [/^(aug|august|augustus|août|aout)\.?$/i, 8],
  [/^(sep|sept|september|septembre)\.?$/i, 9],
  [/^(oct|october|oktober|okt|octobre)\.?$/i, 10],
  [/^(nov|november|novembre)\.?$/i, 11],
  [/^(dec|december|dez|dezember|décembre|decembre|déc)\.?$/i, 12],
];

const monthOf = (word: string): number | null => MONTHS.find(([re]) => re.test(word))?.[1] ?? null;

const pad = (n: number) => String(n).padStart(2, '0');

/** A real calendar date as YYYY-MM-DD, else null. */
export const isoDate = (year: number, month: number, day: number): string | null => {
  if (year < 1900 || year > 2200 || month < 1 || month > 12 || day < 1) return null;
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCMonth() === month - 1 && d.getUTCDate() === day ? `${year}-${pad(month)}-${pad(day)}` : null;
};

const fullYear = (y: string): number => (y.length === 2 ? 2000 + Number(y) : Number(y));

const MONTH_WORD = '([A-Za-zÀ-ÿ]{3,10}\\.?)';
const PATTERNS: ReadonlyArray<{ re: RegExp; read: (m: RegExpExecArray) => string | null }> = [
  { re: /(?<!\d)(\d{4})-(\d{1,2})-(\d{1,2})(?!\d)/g, read: (m) => isoDate(Number(m[1]), Number(m[2]), Number(m[3])) },
  {
    re: /(?<![\d.,/])(\d{1,2})([./-])(\d{1,2})\2(\d{4}|\d{2})(?![\d/]|[.,]\d)/g,
    read: (m) =>
      isoDate(fullYear(m[4]!), Number(m[3]), Number(m[1])) ?? isoDate(fullYear(m[4]!), Number(m[1]), Number(m[3])),
  },
  {
    re: new RegExp(`(?<!\\d)(\\d{1,2})\\.?\\s+${MONTH_WORD}\\s+(\\d{4})(?!\\d)`, 'g'),
    read: (m) => {
      const month = monthOf(m[2]!);
      return month ? isoDate(Number(m[3]), month, Number(m[1])) : null;
    },
  },
  {
    re: new RegExp(`${MONTH_WORD}\\s+(\\d{1,2}),?\\s+(\\d{4})(?!\\d)`, 'g'),
    read: (m) => {
      const month = monthOf(m[1]!);
      return month ? isoDate(Number(m[3]), month, Number(m[2])) : null;
    },
  },
];

/** Every date printed in a text, in order of appearance. */
export const datesIn = (text: string): Array<{ date: string; index: number; length: number }> => {
  const found: Array<{ date: string; index: number; length: number }> = [];
  for (const p of PATTERNS) {
    for (const m of text.matchAll(p.re)) {
      const date = p.read(m as RegExpExecArray);
      const index = m.index ?? 0;
      if (date && !found.some((f) => index < f.index + f.length && f.index < index + m[0].length))
        found.push({ date, index, length: m[0].length });
    }
  }
  return found.sort((a, b) => a.index - b.index);
};

/** The first date printed in a text. */
export const dateIn = (text: string): string | null => datesIn(text)[0]?.date ?? null;
