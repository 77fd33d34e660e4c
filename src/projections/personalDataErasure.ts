import type { RecordedEvent } from '../application/ports/eventStore.js';
import type { Collection } from '../application/ports/readModelStore.js';
import type { DocumentView } from '../application/readModels/documentView.js';
import { ERASED } from '../domain/personalData/personalFields.js';

/*
 * What the document read models do when a tenant's personal data is erased
 * (TenantPersonalDataErased): the rows they hold in the clear are rewritten with the personal
 * values shown as ERASED, as a rebuild from the log would write them now (the events' personal
 * values open to ERASED once the keys are destroyed). The log itself is not touched.
 */

export const ERASURE_EVENT = 'TenantPersonalDataErased';
const PAGE = 500;

/**
 * Runs a batch in order, document events through `apply` and each erasure through `erase`
 * (an erasure applies to what came before it in the log, not to what comes after).
 */
export async function inLogOrder(
  events: RecordedEvent[],
  apply: (events: RecordedEvent[]) => Promise<void>,
  erase: (tenantId: string) => Promise<void>,
): Promise<void> {
  let run: RecordedEvent[] = [];
  for (const event of events) {
    if (event.type !== ERASURE_EVENT) {
      run.push(event);
      continue;
    }
    if (run.length > 0) await apply(run);
    run = [];
    await erase((event.data as { tenant_id: string }).tenant_id);
  }
  if (run.length > 0) await apply(run);
}

/**
 * A list row with the personal values among its search texts (the e-mail addresses the documents
 * projection puts there: `values`) and its delivery's test-mode address shown as ERASED.
 */
export function erasedRow<R extends DocumentView>(row: R, values: ReadonlySet<string>): R {
  const mask = (text: string) =>
    text
      .split(' | ')
      .map((part) => (values.has(part) ? ERASED : part))
      .join(' | ');
  const delivery = row.summary.delivery;
  return {
    ...row,
    receiver_text: mask(row.receiver_text),
    sender_text: mask(row.sender_text),
    summary: delivery?.email ? { ...row.summary, delivery: { ...delivery, email: ERASED } } : row.summary,
  };
}

/** Rewrites every row of the tenant in `rows`, a page at a time (by id, so the rewrite does not move the pages). */
export async function rewriteTenantRows<R extends { id: string }>(
  rows: Collection<R>,
  tenantId: string,
  rewrite: (page: R[]) => Promise<Array<readonly [string, R]>>,
): Promise<void> {
  for (let skip = 0; ; skip += PAGE) {
    const { items } = await rows.find({
      filter: { op: 'eq', field: 'tenant_id', value: tenantId },
      sort: [{ field: 'id', direction: 'asc' }],
      skip,
      limit: PAGE,
    });
    await rows.upsertMany(await rewrite(items));
    if (items.length < PAGE) return;
  }
}
