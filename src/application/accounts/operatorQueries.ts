import { READ_MODEL_STORE, type Filter, type ReadModelStore } from '../ports/readModelStore.js';
import { inject, injectable } from '../injection.js';
import { ORGANIZATIONS, TENANTS, type OrganizationView, type TenantView } from '../readModels/accountViews.js';
import { DOCUMENTS, type DocumentView } from '../readModels/documentView.js';
import { notFound } from '../../domain/errors.js';
import type { Tenant } from '../../domain/tenant/tenant.js';
import { DEFAULT_RETENTION_YEARS } from '../../domain/organization/retention.js';

/** What a tenant (or an organization, summed over its tenants) has done: documents by direction and outcome. */
export interface Usage {
  /** Outbound documents that reached their receiver. */
  documents_sent: number;
  /** Inbound documents. */
  documents_received: number;
  /** Outbound documents whose delivery failed (FAILED now). */
  documents_failed: number;
  /** Outbound documents on their way (TRANSIT now). */
  documents_in_transit: number;
  /** Outbound drafts. */
  drafts: number;
}

export interface OrganizationSummary {
  id: string;
  name: string;
  created_at: string;
  /** How long its tenants' accounting documents are kept (years; docs/operating/retention-and-erasure.md). */
  retention_years: number;
  /** Tenants not deleted. */
  tenant_count: number;
  usage: Usage;
}

export interface OrganizationDetail extends OrganizationSummary {
  tenants: Array<{ tenant: Tenant; usage: Usage }>;
}

const emptyUsage = (): Usage => ({
  documents_sent: 0,
  documents_received: 0,
  documents_failed: 0,
  documents_in_transit: 0,
  drafts: 0,
});

/** The usage counters and the documents each one counts. */
const USAGE_FILTERS: ReadonlyArray<[keyof Usage, Filter[]]> = [
  [
    'documents_sent',
    [
      { op: 'eq', field: 'direction', value: 'OUTBOUND' },
      { op: 'eq', field: 'state', value: 'SENT' },
    ],
  ],
  ['documents_received', [{ op: 'eq', field: 'direction', value: 'INBOUND' }]],
  [
    'documents_failed',
    [
      { op: 'eq', field: 'direction', value: 'OUTBOUND' },
      { op: 'eq', field: 'state', value: 'FAILED' },
    ],
  ],
  [
    'documents_in_transit',
    [
      { op: 'eq', field: 'direction', value: 'OUTBOUND' },
      { op: 'eq', field: 'state', value: 'TRANSIT' },
    ],
  ],
  [
    'drafts',
    [
      { op: 'eq', field: 'direction', value: 'OUTBOUND' },
      { op: 'eq', field: 'state', value: 'DRAFT' },
    ],
  ],
];

/** The operator's reads across organizations: each with its tenants and their usage. */
@injectable()
export class OperatorQueries {
  constructor(@inject(READ_MODEL_STORE) private readonly readModels: ReadModelStore) {}

  /** Organizations, oldest first, a page at a time, each with its tenant count and usage. */
  async organizations(page: number, pageSize: number) {
    const result = await this.readModels.collection<OrganizationView>(ORGANIZATIONS).find({
      sort: [
        { field: 'created_at', direction: 'asc' },
        { field: 'id', direction: 'asc' },
      ],
      skip: (page - 1) * pageSize,
      limit: pageSize,
    });
    const items = await Promise.all(
      result.items.map(async (organization): Promise<OrganizationSummary> => {
        const tenants = await this.tenantsOf(organization.id);
        return { ...summary(organization, tenants), usage: await this.usage(tenants.map((t) => t.id)) };
      }),
    );
    const pages = Math.ceil(result.total / pageSize);
    return { items, total: result.total, page, page_size: pageSize, pages, has_next_page: page < pages };
  }

  /** One organization with each of its tenants (deleted ones too, marked) and their usage. */
  async organization(id: string): Promise<OrganizationDetail> {
    const organization = await this.readModels.collection<OrganizationView>(ORGANIZATIONS).get(id);
    if (!organization) throw notFound('Organization not found');
    const tenants = await this.tenantsOf(id);
    const perTenant = await Promise.all(
      tenants.map(async (view) => {
        const { last_position: _position, ...tenant } = view;
        return { tenant, usage: await this.usage([view.id]) };
      }),
    );
    const usage = emptyUsage();
    for (const { usage: one } of perTenant)
      for (const key of Object.keys(usage) as Array<keyof Usage>) usage[key] += one[key];
    return { ...summary(organization, tenants), usage, tenants: perTenant };
  }

  private async tenantsOf(organizationId: string): Promise<TenantView[]> {
    const all: TenantView[] = [];
    for (let skip = 0; ; skip += 500) {
      const { items } = await this.readModels.collection<TenantView>(TENANTS).find({
        filter: { op: 'eq', field: 'organization_id', value: organizationId },
        sort: [{ field: 'created_at', direction: 'asc' }],
        skip,
        limit: 500,
      });
      all.push(...items);
      if (items.length < 500) return all;
    }
  }

  private async usage(tenantIds: string[]): Promise<Usage> {
    const usage = emptyUsage();
    if (tenantIds.length === 0) return usage;
    const documents = this.readModels.collection<DocumentView>(DOCUMENTS);
    await Promise.all(
      USAGE_FILTERS.map(async ([key, filters]) => {
        const { total } = await documents.find({
          filter: { op: 'and', filters: [{ op: 'in', field: 'tenant_id', values: tenantIds }, ...filters] },
          limit: 1,
        });
        usage[key] = total;
      }),
    );
    return usage;
  }
}

function summary(organization: OrganizationView, tenants: TenantView[]) {
  return {
    id: organization.id,
    name: organization.name,
    created_at: organization.created_at,
    retention_years: organization.retention_years ?? DEFAULT_RETENTION_YEARS,
    tenant_count: tenants.filter((t) => !t.is_deleted).length,
  };
}
