import { EVENT_STORE, type EventStore } from '../ports/eventStore.js';
import { inject, injectable } from '../injection.js';
import type { LocalParticipants } from '../ports/localParticipants.js';
import { registeredHolder } from '../accounts/participantHolder.js';

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
    const holder = await registeredHolder(this.store, peppolId);
    return holder && !holder.peppol_registration!.simulated ? holder.id : null;
  }
}
