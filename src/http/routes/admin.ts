import * as t from 'io-ts';
import type { AccountCommands } from '../../application/accounts/accountCommands.js';
import type { AccountQueries } from '../../application/accounts/accountQueries.js';
import { decode, NonEmptyString, Nullable, QueryInt } from '../codecs.js';
import { organizationOf } from '../auth.js';
import { commandMetadata } from '../requestContext.js';
import type { RouteRegistry } from '../routeRegistry.js';
import { tenantResponse } from './tenantView.js';
import type { ApiKeyView } from '../../projections/apiKeysProjection.js';

interface TenantNameBrand {
  readonly TenantName: unique symbol;
}
const TenantName = t.brand(
  t.string,
  (s): s is t.Branded<string, TenantNameBrand> => /^[a-z0-9][a-z0-9._-]{0,99}$/.test(s),
  'TenantName',
);
interface PeppolIdBrand {
  readonly PeppolId: unique symbol;
}
const PeppolId = t.brand(
  t.string,
  (s): s is t.Branded<string, PeppolIdBrand> => /^[0-9]{4}:[^\s:]{1,50}$/.test(s),
  'PeppolId',
);
const OnePeppolId = t.refinement(t.array(PeppolId), (ids) => ids.length <= 1, 'PeppolIds (exactly one identifier)');

const TenantFields = t.partial({
  description: Nullable(t.string),
  company_number: Nullable(t.string),
  company_tax_id: Nullable(t.string),
  peppol_ids: Nullable(OnePeppolId),
});
const CreateTenant = t.intersection([t.type({ name: TenantName }), TenantFields]);
const CreateKey = t.intersection([t.type({ name: NonEmptyString }), t.partial({ description: Nullable(t.string) })]);
const SkipLimit = t.partial({ skip: QueryInt('skip', 0, Number.MAX_SAFE_INTEGER), limit: QueryInt('limit', 1, 1000) });

export function keyResponse(key: Pick<ApiKeyView, 'id' | 'tenant_id' | 'name' | 'description' | 'prefix' | 'created_at' | 'updated_at' | 'is_deleted'>) {
  return {
    id: key.id,
    tenant_id: key.tenant_id,
    name: key.name,
    description: key.description,
    prefix: key.prefix,
    created_at: key.created_at,
    updated_at: key.updated_at,
    is_deleted: key.is_deleted,
  };
}

/** The administrative interface for resellers: their tenants and the tenants' keys. */
export function adminRoutes(
  routes: RouteRegistry,
  accounts: AccountCommands,
  queries: AccountQueries,
  readYourWrites: () => Promise<void>,
): void {
  routes.add({
    method: 'get',
    path: '/api/admin/tenants',
    summary: "List the organization's tenants",
    tag: 'admin',
    auth: 'organization',
    query: SkipLimit,
    handler: async (req, res) => {
      const query = decode(SkipLimit, req.query, 'query');
      await readYourWrites();
      const page = await queries.tenants(organizationOf(res).organizationId, query.skip ?? 0, query.limit ?? 100);
      res.json({
        tenants: page.items.map((tenant) => ({
          id: tenant.id,
          name: tenant.name,
          description: tenant.description,
          created_at: tenant.created_at,
          updated_at: tenant.updated_at,
          is_deleted: tenant.is_deleted,
        })),
        total: page.total,
      });
    },
  });
  routes.add({
    method: 'post',
    path: '/api/admin/tenants',
    summary: 'Create a tenant',
    tag: 'admin',
    auth: 'organization',
    body: CreateTenant,
    responses: { 201: 'Tenant created', 409: 'A tenant with a similar name exists' },
    handler: async (req, res) => {
      const body = decode(CreateTenant, req.body, 'body');
      const tenant = await accounts.createTenant(
        organizationOf(res).organizationId,
        {
          name: body.name,
          description: body.description ?? null,
          company_number: body.company_number ?? null,
          company_tax_id: body.company_tax_id ?? null,
          peppol_ids: body.peppol_ids ?? [],
        },
        commandMetadata(req, res),
      );
      res.status(201).json(tenantResponse(tenant));
    },
  });
  routes.add({
    method: 'get',
    path: '/api/admin/tenants/:tenantId',
    summary: 'Read a tenant',
    tag: 'admin',
    auth: 'organization',
    responses: { 200: 'Tenant', 404: 'Tenant not found' },
    handler: async (req, res) => {
      res.json(tenantResponse(await accounts.tenantOf(organizationOf(res).organizationId, String(req.params.tenantId))));
    },
  });
  routes.add({
    method: 'post',
    path: '/api/admin/tenants/:tenantId/api-keys',
    summary: 'Create a tenant API key (the key is shown only in this response)',
    tag: 'admin',
    auth: 'organization',
    body: CreateKey,
    responses: { 201: 'Key created', 404: 'Tenant not found' },
    handler: async (req, res) => {
      const body = decode(CreateKey, req.body, 'body');
      const organizationId = organizationOf(res).organizationId;
      const tenant = await accounts.tenantOf(organizationId, String(req.params.tenantId));
      const issued = await accounts.issueKey(
        { kind: 'tenant', organization_id: organizationId, tenant_id: tenant.id },
        body.name,
        body.description ?? null,
        { ...commandMetadata(req, res), tenantId: tenant.id },
      );
      res.status(201).json({
        ...keyResponse({ ...issued.record, tenant_id: tenant.id, is_deleted: false }),
        key: issued.key,
      });
    },
  });
  routes.add({
    method: 'get',
    path: '/api/admin/tenants/:tenantId/api-keys',
    summary: "List a tenant's API keys (never their values)",
    tag: 'admin',
    auth: 'organization',
    query: SkipLimit,
    handler: async (req, res) => {
      const query = decode(SkipLimit, req.query, 'query');
      const tenant = await accounts.tenantOf(organizationOf(res).organizationId, String(req.params.tenantId));
      await readYourWrites();
      const page = await queries.keysOfTenant(tenant.id, query.skip ?? 0, query.limit ?? 100);
      res.json({ api_keys: page.items.map(keyResponse), total: page.total });
    },
  });
  routes.add({
    method: 'delete',
    path: '/api/admin/tenants/:tenantId/api-keys/:keyId',
    summary: 'Revoke a tenant API key; it stops working at once',
    tag: 'admin',
    auth: 'organization',
    responses: { 200: 'Key revoked', 404: 'Tenant or key not found' },
    handler: async (req, res) => {
      const organizationId = organizationOf(res).organizationId;
      const tenant = await accounts.tenantOf(organizationId, String(req.params.tenantId));
      const key = await accounts.keyOfTenant(tenant.id, String(req.params.keyId));
      const revoked = await accounts.revokeKey(key.id, { ...commandMetadata(req, res), tenantId: tenant.id });
      if (revoked.status === 'absent') throw new Error('key vanished');
      res.json(keyResponse({ ...revoked, tenant_id: tenant.id, is_deleted: true }));
    },
  });
}
