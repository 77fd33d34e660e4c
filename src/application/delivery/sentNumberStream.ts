import { createHash } from 'node:crypto';
import { sentNumberKey, sentNumberStreamOf } from '../../domain/document/lifecycle/sentNumberReservation.js';

/** The reservation stream of one (tenant, document type, number, receiver): see sentNumberReservation.ts. */
export const sentNumberStream = (tenantId: string, documentType: string, number: string, receiver: string): string =>
  sentNumberStreamOf(
    createHash('sha256')
      .update(sentNumberKey(tenantId, documentType, number, receiver))
      .digest('hex'),
  );
