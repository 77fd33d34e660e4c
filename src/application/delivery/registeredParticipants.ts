import { EVENT_STORE, type EventStore } from '../ports/eventStore.js';
import { inject, injectable } from '../injection.js';
import type { LocalParticipants } from '../ports/localParticipants.js';
import { loadState } from '../commandHandler.js';
import { participantKey } from '../../domain/peppol/participantId.js';
import {
  participantReservationDecider,
  participantReservationStream,
} from '../../domain/peppol/participantReservation.js';
import { tenantDecider, tenantStream } from '../../domain/tenant/tenant.js';

/**
 * Receivers on this instance: the tenant holding the participant id's reservation, when it is
 * live and registered on Peppol for real. Read from the streams rather than the registry read
 * model, so a delivery right after a registration already finds the receiver. A registration
 * simulated in test mode is not on the network: no Peppol route leads to it.
 */
@injectable()
export class RegisteredParticipants implements LocalParticipants {
  constructor(@inject(EVENT_STORE) private readonly store: EventStore) {}

  async tenantFor(peppolId: string): Promise<string | null> {
    const key = participantKey(peppolId);
    if (!key) return null;
    const reservation = await loadState(this.store, participantReservationDecider, participantReservationStream(key));
    if (reservation.status !== 'held') return null;
    const tenant = await loadState(this.store, tenantDecider, tenantStream(reservation.tenant_id));
    if (tenant.status !== 'present' || tenant.is_deleted) return null;
    const registration = tenant.peppol_registration;
    return registration && !registration.simulated && participantKey(registration.peppol_id) === key ? tenant.id : null;
  }
}
