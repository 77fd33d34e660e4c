import type { StreamSnapshot } from '../commandHandler.js';
import type { DocumentAggregateState } from '../../domain/document/lifecycle/documentAggregate.js';

/**
 * Starts a delivery's first attempt once a send is recorded (the delivery process manager does,
 * in the process that took the send call); the send does not wait for it. `known` is the document
 * as the send left it, so the attempt need not read it again.
 */
export interface DeliveryStarter {
  startNow(
    delivery: { document_id: string; delivery_id: string },
    known?: StreamSnapshot<DocumentAggregateState>,
  ): void;
}

export const DELIVERY_STARTER = Symbol('DeliveryStarter');
