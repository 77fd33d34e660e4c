import { Decimal } from 'decimal.js';
import { READ_MODEL_STORE, type ReadModelStore } from '../ports/readModelStore.js';
import { inject, injectable } from '../injection.js';
import {
  DOCUMENT_CONTENTS,
  DOCUMENT_VERSIONS,
  DOCUMENTS,
  versionsAt,
  type DocumentContentView,
  type DocumentView,
} from '../readModels/documentView.js';
import type { AsOfMoment } from '../asOf/asOfMoment.js';
import { invalid } from '../../domain/errors.js';

export type StatsGrouping = 'day' | 'month';

/** Documents of one period, direction and state: how many, and their totals per currency (decimal strings). */
export interface StatsGroup {
  period: string;
  direction: string;
  state: string;
  count: number;
  amounts: Record<string, string>;
}

export interface DocumentStatsAnswer {
  from: string;
  to: string;
  group_by: StatsGrouping;
  totals: {
    count: number;
    amounts: Record<string, string>;
    by_state: Record<string, number>;
    by_direction: Record<string, number>;
  };
  items: StatsGroup[];
}

/** Rows read per query while counting. */
const PAGE = 1000;
/** The longest period one call covers (days): a day-by-day answer of a few years at most. */
const MAX_DAYS = 3660;

const DAY_MS = 86_400_000;
const isDate = (s: string) => /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`));

/**
 * Counts and amounts of the tenant's documents by period (of the day each was created or
 * received, UTC), direction and state. Amounts are the documents' totals summed per currency as
 * exact decimals (at least two places); a credit note counts with its own (positive) total.
 */
@injectable()
export class DocumentStats {
  constructor(@inject(READ_MODEL_STORE) private readonly readModels: ReadModelStore) {}

  async stats(
    tenantId: string,
    from: string | undefined,
    to: string | undefined,
    groupBy: StatsGrouping,
    /** Counted as the documents stood at this moment (their versions then); "today" is its day. */
    asOf?: AsOfMoment,
  ): Promise<DocumentStatsAnswer> {
    if (from !== undefined && !isDate(from)) throw invalid('from must be a date, YYYY-MM-DD', ['query', 'from']);
    if (to !== undefined && !isDate(to)) throw invalid('to must be a date, YYYY-MM-DD', ['query', 'to']);
    const end = to ?? (asOf ? asOf.at : new Date().toISOString()).slice(0, 10);
    const start = from ?? new Date(Date.parse(`${end}T00:00:00Z`) - 29 * DAY_MS).toISOString().slice(0, 10);
    if (start > end) throw invalid('from must not be after to', ['query', 'from']);
    if ((Date.parse(end) - Date.parse(start)) / DAY_MS > MAX_DAYS)
      throw invalid(`The period is longer than ${MAX_DAYS} days`, ['query', 'from']);
    const endExclusive = new Date(Date.parse(`${end}T00:00:00Z`) + DAY_MS).toISOString();

    const groups = new Map<string, { group: StatsGroup; sums: Map<string, Decimal> }>();
    const rows = this.readModels.collection<DocumentView & { document_id?: string }>(
      asOf ? DOCUMENT_VERSIONS : DOCUMENTS,
    );
    for (let skip = 0; ; skip += PAGE) {
      const page = await rows.find({
        filter: {
          op: 'and',
          filters: [
            { op: 'eq', field: 'tenant_id', value: tenantId },
            { op: 'gte', field: 'created_at', value: `${start}T00:00:00.000Z` },
            { op: 'lt', field: 'created_at', value: endExclusive },
            ...(asOf ? versionsAt(asOf.position) : []),
          ],
        },
        sort: [
          { field: 'created_at', direction: 'asc' },
          { field: 'id', direction: 'asc' },
        ],
        skip,
        limit: PAGE,
      });
      const amounts = await this.amountsOf(page.items);
      for (const row of page.items) {
        const period = groupBy === 'day' ? row.created_at.slice(0, 10) : row.created_at.slice(0, 7);
        const key = `${period}|${row.direction}|${row.state}`;
        let entry = groups.get(key);
        if (!entry) {
          entry = {
            group: { period, direction: row.direction, state: row.state, count: 0, amounts: {} },
            sums: new Map(),
          };
          groups.set(key, entry);
        }
        entry.group.count++;
        const amount = amounts.get(row.document_id ?? row.id);
        if (amount)
          entry.sums.set(amount.currency, (entry.sums.get(amount.currency) ?? new Decimal(0)).plus(amount.total));
      }
      if (page.items.length < PAGE) break;
    }

    const items = [...groups.values()]
      .map(({ group, sums }) => ({ ...group, amounts: asStrings(sums) }))
      .sort(
        (a, b) =>
          a.period.localeCompare(b.period) || a.direction.localeCompare(b.direction) || a.state.localeCompare(b.state),
      );
    const totalSums = new Map<string, Decimal>();
    const by_state: Record<string, number> = {};
    const by_direction: Record<string, number> = {};
    for (const { group, sums } of groups.values()) {
      by_state[group.state] = (by_state[group.state] ?? 0) + group.count;
      by_direction[group.direction] = (by_direction[group.direction] ?? 0) + group.count;
      for (const [currency, sum] of sums)
        totalSums.set(currency, (totalSums.get(currency) ?? new Decimal(0)).plus(sum));
    }
    return {
      from: start,
      to: end,
      group_by: groupBy,
      totals: {
        count: items.reduce((n, g) => n + g.count, 0),
        amounts: asStrings(totalSums),
        by_state,
        by_direction,
      },
      items,
    };
  }

  /** Each row's currency and total: from the row, or from its content for rows written before the row kept them. */
  private async amountsOf(
    rows: Array<DocumentView & { document_id?: string }>,
  ): Promise<Map<string, { currency: string; total: Decimal }>> {
    const amounts = new Map<string, { currency: string; total: Decimal }>();
    const missing: string[] = [];
    for (const row of rows) {
      // Versions are keyed by document and position (one per document at a position); contents by document.
      if (row.currency === undefined || row.invoice_total === undefined) missing.push(row.document_id ?? row.id);
      else if (row.currency && row.invoice_total)
        amounts.set(row.document_id ?? row.id, { currency: row.currency, total: new Decimal(row.invoice_total) });
    }
    if (missing.length > 0) {
      for (const content of await this.readModels.collection<DocumentContentView>(DOCUMENT_CONTENTS).getMany(missing)) {
        const { currency, invoice_total } = content.response as {
          currency?: string | null;
          invoice_total?: string | null;
        };
        if (currency && invoice_total) amounts.set(content.id, { currency, total: new Decimal(invoice_total) });
      }
    }
    return amounts;
  }
}

function asStrings(sums: Map<string, Decimal>): Record<string, string> {
  return Object.fromEntries(
    [...sums]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([currency, sum]) => [currency, sum.toFixed(Math.max(2, sum.decimalPlaces()))]),
  );
}
