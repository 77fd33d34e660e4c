import * as t from 'io-ts';
import { StatsAnswer } from '../../codecs/answerCodecs.js';
import type { DocumentStats } from '../../../application/documents/documentStats.js';
import { tenantOf } from '../../auth.js';
import { decode } from '../../codecs.js';
import type { RouteRegistry } from '../../routeRegistry.js';

const StatsQuery = t.partial({
  from: t.string,
  to: t.string,
  group_by: t.keyof({ day: null, month: null }),
});

/** Counts and amounts of the tenant's documents per state, direction and period. */
export function statsRoutes(routes: RouteRegistry, stats: DocumentStats, readYourWrites: () => Promise<void>): void {
  routes.add({
    method: 'get',
    path: '/api/stats',
    summary:
      "Counts and amounts of the tenant's documents per period (the day each was created or received, UTC), direction and state. Query: from, to (YYYY-MM-DD, inclusive; default the 30 days to today), group_by (day or month, default month). Answer: {from, to, group_by, totals: {count, amounts, by_state, by_direction}, items: [{period, direction, state, count, amounts}]}, amounts as decimal strings per currency",
    tag: 'stats',
    auth: 'tenant',
    query: StatsQuery,
    responses: { 200: 'The counts and amounts', 422: 'A bad date, or from after to' },
    answer: StatsAnswer,
    handler: async (req, res, answer) => {
      const q = decode(StatsQuery, req.query, 'query');
      await readYourWrites();
      answer(await stats.stats(tenantOf(res).tenantId, q.from, q.to, q.group_by ?? 'month'));
    },
  });
}
