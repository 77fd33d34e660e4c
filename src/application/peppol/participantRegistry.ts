import { READ_MODEL_STORE, type Filter, type ReadModelStore } from '../ports/readModelStore.js';
import { inject, injectable } from '../injection.js';
import { PEPPOL_PARTICIPANTS, type PeppolParticipantView } from '../readModels/peppolParticipantView.js';
import { participantKey } from '../../domain/peppol/participantId.js';

/** A participant registered on this instance. */
export interface RegisteredParticipant {
  tenant_id: string;
  /** `<scheme>:<identifier>` as registered. */
  peppol_id: string;
  company_name: string;
  country_code: string;
  registered_at: string;
  /** Registered in test mode: not published on the SMP/SML; senders decide what that means for them. */
  simulated: boolean;
}

const toParticipant = (view: PeppolParticipantView): RegisteredParticipant => ({
  tenant_id: view.tenant_id,
  peppol_id: view.peppol_id,
  company_name: view.company_name,
  country_code: view.country_code,
  registered_at: view.registered_at,
  simulated: view.simulated,
});

/**
 * This instance's participant registry (the peppol_participants read model): what its SMP
 * publishes, what the lookup resolves locally, and what sending uses to deliver internally.
 */
@injectable()
export class ParticipantRegistry {
  constructor(@inject(READ_MODEL_STORE) private readonly readModels: ReadModelStore) {}

  /**
   * The participant registered under this id, or null. The id is matched case-insensitively,
   * with or without the `iso6523-actorid-upis::` prefix; a malformed id finds nothing.
   */
  async findByPeppolId(peppolId: string): Promise<RegisteredParticipant | null> {
    const key = participantKey(peppolId);
    if (!key) return null;
    const view = await this.readModels.collection<PeppolParticipantView>(PEPPOL_PARTICIPANTS).get(key);
    return view?.registered ? toParticipant(view) : null;
  }

  /**
   * Published participants (simulated ones are not published) whose name or id contains the
   * query, optionally in one country, by name.
   */
  async search(
    query: string,
    countryCode: string | null,
    limit = 100,
  ): Promise<{ total: number; participants: RegisteredParticipant[] }> {
    const text = query.trim();
    const filters: Filter[] = [
      { op: 'eq', field: 'registered', value: true },
      { op: 'eq', field: 'simulated', value: false },
      {
        op: 'or',
        filters: [
          { op: 'contains', field: 'company_name', value: text },
          { op: 'contains', field: 'participant_key', value: text.replace(/^iso6523-actorid-upis::/i, '') },
        ],
      },
    ];
    if (countryCode) filters.push({ op: 'eq', field: 'country_code', value: countryCode.toUpperCase() });
    const page = await this.readModels.collection<PeppolParticipantView>(PEPPOL_PARTICIPANTS).find({
      filter: { op: 'and', filters },
      sort: [
        { field: 'company_name', direction: 'asc' },
        { field: 'participant_key', direction: 'asc' },
      ],
      limit,
    });
    return { total: page.total, participants: page.items.map(toParticipant) };
  }
}
