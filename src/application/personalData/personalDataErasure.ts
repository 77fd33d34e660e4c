import { EVENT_STORE, type EventMetadata, type EventStore, type RecordedEvent } from '../ports/eventStore.js';
import { READ_MODEL_STORE, type ReadModelStore } from '../ports/readModelStore.js';
import type { CollectionDefinition } from '../ports/readModelStore.js';
import type { Projection } from '../ports/projection.js';
import { inject, injectable } from '../injection.js';
import { handleCommand, loadState, toDomainEvent } from '../commandHandler.js';
import { DOCUMENTS, type DocumentView } from '../readModels/documentView.js';
import { PersonalDataVault } from './personalDataVault.js';
import { tenantDecider, tenantStream, type TenantPersonalDataErased } from '../../domain/tenant/tenant.js';
import { organizationDecider, organizationStream } from '../../domain/organization/organization.js';
import { DEFAULT_RETENTION_YEARS, retentionEnd, retentionOver } from '../../domain/organization/retention.js';
import { notFound } from '../../domain/errors.js';

/** Where a tenant stands with the retention of its accounting documents. */
export interface TenantRetention {
  tenant_id: string;
  organization_id: string;
  /** Its organization's period (years from 1 January after each document's date). */
  retention_years: number;
  /** The date of its latest accounting document (issued or received): what the period runs from. */
  latest_document_date: string | null;
  /** The first day none of its accounting documents has to be kept; null when it has none. */
  retention_until: string | null;
  /** Whether that day has come: its personal data may then be erased without a legal basis. */
  retention_over: boolean;
  /** When its personal data was last erased; null if never. */
  personal_data_erased_at: string | null;
}

/** An accounting document: one that was issued (it left the drafts) or received. Drafts are not. */
const ACCOUNTING_STATES = ['TRANSIT', 'SENT', 'FAILED', 'RECEIVED'];

const today = () => new Date().toISOString().slice(0, 10);

/**
 * Erasure of a tenant's personal data (GDPR art. 17) by crypto-shredding, within the rules of
 * retention (docs/operating/retention-and-erasure.md): the erasure is recorded on the tenant's
 * stream first, then its personal-data keys are destroyed (and, should this process stop in
 * between, destroyed by ErasureKeyShredder when it follows the event). The event log and the blobs
 * stay as they are: the history chain, which covers the ciphertext, still verifies.
 */
@injectable()
export class PersonalDataErasure {
  constructor(
    @inject(EVENT_STORE) private readonly store: EventStore,
    @inject(READ_MODEL_STORE) private readonly readModels: ReadModelStore,
    @inject(PersonalDataVault) private readonly vault: PersonalDataVault,
  ) {}

  async retention(tenantId: string, on = today()): Promise<TenantRetention> {
    const tenant = await loadState(this.store, tenantDecider, tenantStream(tenantId));
    if (tenant.status === 'absent') throw notFound('Tenant not found');
    const organization = await loadState(this.store, organizationDecider, organizationStream(tenant.organization_id));
    const years = organization.status === 'active' ? organization.retention_years : DEFAULT_RETENTION_YEARS;
    const latest = await this.latestDocumentDate(tenantId);
    const until = latest === null ? null : retentionEnd(latest, years);
    return {
      tenant_id: tenantId,
      organization_id: tenant.organization_id,
      retention_years: years,
      latest_document_date: latest,
      retention_until: until,
      retention_over: until === null || retentionOver(until, on),
      personal_data_erased_at: await this.vault.erasedAt(tenantId),
    };
  }

  /**
   * Erases the tenant's personal data: refused (409) while its documents are within retention,
   * unless `legal_basis` names the ground that overrides it.
   */
  async erase(
    tenantId: string,
    request: { reason: string; legal_basis: string | null },
    metadata: EventMetadata,
  ): Promise<TenantPersonalDataErased['data'] & { keys_destroyed: number[] }> {
    const retention = await this.retention(tenantId);
    // A tenant whose data predates sealing has no key yet: one is made, so that the erasure is on
    // record beside the keys (what reads its plain values as erased) as for every other tenant.
    await this.vault.sealer(tenantId);
    const keyVersion = await this.vault.currentVersion(tenantId);
    const result = await handleCommand(
      this.store,
      tenantDecider,
      tenantStream(tenantId),
      {
        type: 'ErasePersonalData',
        data: {
          reason: request.reason,
          legal_basis: request.legal_basis,
          retention_until: retention.retention_until,
          key_version: keyVersion,
          now: new Date().toISOString(),
        },
      },
      { ...metadata, tenantId },
    );
    const erased = result.newEvents[0] as TenantPersonalDataErased;
    const keys_destroyed = await this.vault.destroy(tenantId, keyVersion);
    return { ...erased.data, keys_destroyed };
  }

  /** The later of the latest accounting document's date and the day it was recorded. */
  private async latestDocumentDate(tenantId: string): Promise<string | null> {
    const rows = this.readModels.collection<DocumentView>(DOCUMENTS);
    const filter = {
      op: 'and' as const,
      filters: [
        { op: 'eq' as const, field: 'tenant_id', value: tenantId },
        { op: 'in' as const, field: 'state', values: ACCOUNTING_STATES },
      ],
    };
    const [byDate, byCreation] = await Promise.all([
      rows.find({ filter, sort: [{ field: 'invoice_date', direction: 'desc' }], limit: 1 }),
      rows.find({ filter, sort: [{ field: 'created_at', direction: 'desc' }], limit: 1 }),
    ]);
    const dates = [byDate.items[0]?.invoice_date, byCreation.items[0]?.created_at?.slice(0, 10)].filter(
      (d): d is string => typeof d === 'string' && /^\d{4}-\d{2}-\d{2}/.test(d),
    );
    return dates.length === 0 ? null : dates.sort().at(-1)!.slice(0, 10);
  }
}

/**
 * Follows the log and destroys the keys an erasure names: the erasure is recorded before its keys
 * are destroyed, so a process that stopped in between leaves this to finish it (idempotent).
 */
@injectable()
export class ErasureKeyShredder implements Projection {
  readonly name = 'personal-data-erasures';
  readonly version = 1;
  readonly collections: CollectionDefinition[] = [];
  readonly handles = ['TenantPersonalDataErased'];

  constructor(@inject(PersonalDataVault) private readonly vault: PersonalDataVault) {}

  async handle(event: RecordedEvent): Promise<void> {
    const { data } = toDomainEvent<TenantPersonalDataErased>(event);
    await this.vault.destroy(data.tenant_id, data.key_version);
  }
}
