import type { Request, Response } from 'express';
import type { DocumentQueries } from '../../../application/documents/documentQueries.js';
import type { DocumentHistory } from '../../../application/documents/documentHistory.js';
import { withSendBlock } from '../../../application/readModels/documentView.js';
import { tenantOf } from '../../auth.js';
import { AsOfQuery, decode } from '../../codecs.js';
import type { AsOfReader } from '../../asOf.js';
import type { Answer } from '../../routeRegistry.js';
import type { DocumentAnswer } from '../../codecs/documentAnswers.js';

/**
 * `GET /api/documents/{id}` and `GET /api/inbox/{id}` (direction INBOUND): with `as_of`, the
 * document as its events up to that moment make it; without, from the read model, after waiting
 * for what this client wrote before (read-your-writes).
 */
export function readDocumentHandler(
  queries: DocumentQueries,
  readYourWrites: () => Promise<void>,
  asOf: { history: DocumentHistory; asOf: AsOfReader },
  direction?: 'INBOUND',
) {
  return async (req: Request, res: Response, answer: Answer<typeof DocumentAnswer>): Promise<void> => {
    const { tenant } = tenantOf(res);
    const documentId = String(req.params.documentId);
    const moment = await asOf.asOf(decode(AsOfQuery, req.query, 'query').as_of, 'events');
    if (moment)
      return answer(
        withSendBlock(await asOf.history.documentAsOf(tenant.id, documentId, moment.position, direction), tenant),
      );
    await readYourWrites();
    answer(withSendBlock(await queries.get(tenant.id, documentId, direction), tenant));
  };
}
