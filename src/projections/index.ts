import type { Projection } from '../application/ports/projection.js';
import { tenantsProjection } from './tenantsProjection.js';
import { apiKeysProjection } from './apiKeysProjection.js';
import { documentsProjection } from './documentsProjection.js';
import { webhookDeliveriesProjection, webhooksProjection } from './webhooksProjection.js';
import { peppolParticipantsProjection } from './peppolParticipantsProjection.js';

/** Every read-model projection of the service; the runner and the rebuild script use this list. */
export const allProjections: readonly Projection[] = [
  tenantsProjection,
  apiKeysProjection,
  documentsProjection,
  webhooksProjection,
  webhookDeliveriesProjection,
  peppolParticipantsProjection,
];
