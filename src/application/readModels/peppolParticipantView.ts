import type { Versioned } from '../ports/projection.js';

/**
 * One participant id of this instance's registry, keyed by its case-insensitive key
 * (projections/peppolParticipantsProjection.ts). An unregistered id stays as a tombstone
 * (`registered: false`) so that a redelivered older event cannot bring it back.
 */
export interface PeppolParticipantView extends Versioned {
  participant_key: string;
  peppol_id: string;
  tenant_id: string;
  company_name: string;
  country_code: string;
  registered_at: string;
  updated_at: string;
  simulated: boolean;
  registered: boolean;
}

export const PEPPOL_PARTICIPANTS = 'peppol_participants';
