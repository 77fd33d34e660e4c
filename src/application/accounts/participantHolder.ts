import type { EventStore } from '../ports/eventStore.js';
import { loadState } from '../commandHandler.js';
import { participantKey } from '../../domain/peppol/participantId.js';
import {
  participantReservationDecider,
  participantReservationStream,
} from '../../domain/peppol/participantReservation.js';
import { tenantDecider, tenantStream, type Tenant } from '../../domain/tenant/tenant.js';

/**
 * The tenant of this instance registered on Peppol with `peppolId`: it holds the id's
 * reservation, is live, and its registration is that id (simulated or not); null when none is.
 * Read from the streams, so a registration just made is already seen.
 */
export async function registeredHolder(store: EventStore, peppolId: string): Promise<Tenant | null> {
  const key = participantKey(peppolId);
  if (!key) return null;
  const reservation = await loadState(store, participantReservationDecider, participantReservationStream(key));
  if (reservation.status !== 'held') return null;
  const holder = await loadState(store, tenantDecider, tenantStream(reservation.tenant_id));
  if (holder.status !== 'present' || holder.is_deleted) return null;
  const registration = holder.peppol_registration;
  return registration && participantKey(registration.peppol_id) === key ? holder : null;
}

/**
 * The other tenant registered here with `peppolId`, or null. A participant registered here
 * receives here, and only its own tenant may send as it: no administrator can give it to a
 * second tenant, and a tenant given it before the registration cannot send as it any more.
 */
export async function registeredByAnotherTenant(
  store: EventStore,
  peppolId: string,
  tenantId: string | null,
): Promise<string | null> {
  const holder = await registeredHolder(store, peppolId);
  return holder && holder.id !== tenantId ? holder.id : null;
}
