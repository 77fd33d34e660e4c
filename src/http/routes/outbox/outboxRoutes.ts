import type { DocumentPageRoute } from '../documents/documentPages.js';

/** The outbox: outbound documents that have left drafts, and the drafts (by state). */
export function outboxRoutes(page: DocumentPageRoute): void {
  page(
    '/api/outbox',
    'Outbound documents that have left drafts (TRANSIT, SENT, FAILED); filter with state',
    'outbox',
    (q) => ({
      direction: 'OUTBOUND',
      states: q.state ? [q.state] : ['TRANSIT', 'SENT', 'FAILED'],
    }),
  );
  page('/api/outbox/drafts', 'Outbound documents by state (DRAFT unless state is given)', 'outbox', (q) => ({
    direction: 'OUTBOUND',
    states: [q.state ?? 'DRAFT'],
  }));
}
