/*
 * How long a reseller organization's accounting documents are kept (docs/operating/retention-and-erasure.md).
 * Belgium: ten years from 1 January of the year after the invoice's date (VAT Code art. 60 §4, as
 * amended by the Act of 20 November 2022, in force on 1 January 2023). The operator sets another
 * period per organization where its tenants answer to other rules.
 */

/** The default: the Belgian rule. */
export const DEFAULT_RETENTION_YEARS = 10;
export const MIN_RETENTION_YEARS = 1;
export const MAX_RETENTION_YEARS = 50;

export const isRetentionYears = (years: unknown): years is number =>
  typeof years === 'number' && Number.isInteger(years) && years >= MIN_RETENTION_YEARS && years <= MAX_RETENTION_YEARS;

/**
 * The first day a document dated `date` (YYYY-MM-DD, or an ISO date-time) no longer has to be kept:
 * the period runs from 1 January of the year after the date, so an invoice of 15 March 2024 kept
 * ten years is kept through 31 December 2034, and this answers 2035-01-01.
 */
export function retentionEnd(date: string, years: number): string {
  const year = Number(date.slice(0, 4));
  return `${String(year + 1 + years).padStart(4, '0')}-01-01`;
}

/** Whether the retention that ends on `end` (retentionEnd) has ended on `today` (YYYY-MM-DD). */
export const retentionOver = (end: string, today: string): boolean => today.slice(0, 10) >= end;
