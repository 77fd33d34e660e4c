import type { ReadModelStore } from '../ports/readModelStore.js';
import type { LocalParticipants } from '../ports/localParticipants.js';
import { TENANTS, type TenantView } from '../../projections/tenantsProjection.js';
import { parsePeppolId, formatPeppolId } from '../../domain/document/peppolId.js';

const normalized = (id: string) => {
  const parsed = parsePeppolId(id);
  return (parsed.ok ? formatPeppolId(parsed.value) : id.trim()).toLowerCase();
};

/** Receivers on this instance: the live tenants whose Peppol identifier it is. */
export class TenantParticipants implements LocalParticipants {
  constructor(private readonly readModels: ReadModelStore) {}

  async tenantFor(peppolId: string): Promise<string | null> {
    const wanted = normalized(peppolId);
    const identifier = wanted.slice(wanted.indexOf(':') + 1);
    const candidates = await this.readModels.collection<TenantView>(TENANTS).find({
      filter: { op: 'and', filters: [{ op: 'contains', field: 'peppol_ids', value: identifier }, { op: 'eq', field: 'is_deleted', value: false }] },
      limit: 20,
    });
    return candidates.items.find((t) => t.peppol_ids.some((id) => normalized(id) === wanted))?.id ?? null;
  }
}
