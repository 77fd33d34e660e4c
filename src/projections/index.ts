import type { Projection } from '../application/ports/projection.js';
import type { DocumentContent } from '../application/documents/documentContent.js';
import { tenantsProjection } from './tenantsProjection.js';
import { organizationsProjection } from './organizationsProjection.js';
import { apiKeysProjection } from './apiKeysProjection.js';
import { documentsProjection } from './documentsProjection.js';
import { documentVersionsProjection } from './documentVersionsProjection.js';
import { webhookDeliveriesProjection, webhooksProjection } from './webhooksProjection.js';
import { peppolParticipantsProjection } from './peppolParticipantsProjection.js';

/**
 * Every read-model projection of the service; the runner and the rebuild script use this list.
 * The documents projection reads each new document's content from the blob store.
 */
export const allProjections = (content: Pick<DocumentContent, 'document'>): readonly Projection[] => [
  tenantsProjection,
  apiKeysProjection,
  documentsProjection(content),
  documentVersionsProjection,
  webhooksProjection,
  webhookDeliveriesProjection,
  peppolParticipantsProjection,
  organizationsProjection,
];
