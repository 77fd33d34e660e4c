import type { EventStore } from '../ports/eventStore.js';
import { loadState } from '../commandHandler.js';
import { participantKey } from '../../domain/peppol/participantId.js';
import {
  participantReservationDecider,
  participantReservationStream,
} from '../../domain/peppol/participantReservation.js';
import { tenantDecider, tenantStream } from '../../domain/tenant/tenant.js';

/**
 * The other tenant of this instance that is registered on Peppol with `peppolId` (it holds the
 * id's reservation, is live, and its registration is that id), or null. A participant registered
 * here receives here, and only its own tenant may send as it: no administrator can give it to a
 * second tenant, and a tenant given it before the registration cannot send as it any more.
 */
export async function registeredByAnotherTenant(
  store: EventStore,
  peppolId: string,
  tenantId: string | null,
): Promise<string | null> {
  const key = participantKey(peppolId);
  if (!key) return null;
  const reservation = await loadState(store, participantReservationDecider, participantReservationStream(key));
  if (reservation.status !== 'held' || reservation.tenant_id === tenantId) return null;
  const holder = await loadState(store, tenantDecider, tenantStream(reservation.tenant_id));
  if (holder.status !== 'present' || holder.is_deleted) return null;
  const registration = holder.peppol_registration;
  return registration && participantKey(registration.peppol_id) === key ? holder.id : null;
}
