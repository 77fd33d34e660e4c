import * as t from 'io-ts';
import type { AccountCommands } from '../../../application/accounts/accountCommands.js';
import type { AccountQueries } from '../../../application/accounts/accountQueries.js';
import { decode, NonEmptyString, Nullable, SkipLimitQuery } from '../../codecs.js';
import { HttpError, type FieldProblem } from '../../errors.js';
import { checkCompanyIdentifiers, type CompanyIdentifiers } from '../../../domain/tenant/tenantProfile.js';
import { organizationOf } from '../../auth.js';
import { commandMetadata } from '../../requestContext.js';
import type { RouteRegistry } from '../../routeRegistry.js';
import { tenantResponse } from './tenantView.js';
import type { ApiKeyView } from '../../../application/readModels/accountViews.js';
import type { EventMetadata } from '../../../application/ports/eventStore.js';
import {
  ApiKeyAnswer,
  ApiKeysAnswer,
  IssuedApiKeyAnswer,
  TenantAnswer,
  TenantsAnswer,
} from '../../codecs/accountAnswers.js';

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
/** Omitted fields keep their value, null clears one; `name` may only repeat the current name. */
const UpdateTenant = t.intersection([t.partial({ name: TenantName }), TenantFields]);
const CreateKey = t.intersection([t.type({ name: NonEmptyString }), t.partial({ description: Nullable(t.string) })]);
const UpdateKey = t.partial({ name: NonEmptyString, description: Nullable(t.string) });

export function keyResponse(
  key: Pick<
    ApiKeyView,
    'id' | 'tenant_id' | 'name' | 'description' | 'prefix' | 'created_at' | 'updated_at' | 'is_deleted'
  >,
) {
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

/** Registration numbers in canonical form, or a 422 naming each wrong field (['body', 'peppol_ids', 0] for a list entry). */
function checkedIdentifiers(ids: CompanyIdentifiers): CompanyIdentifiers {
  const checked = checkCompanyIdentifiers(ids);
  if (checked.ok) return checked.value;
  const problems: FieldProblem[] = checked.problems.map((p) => ({
    loc: p.index === undefined ? ['body', p.field] : ['body', p.field, p.index],
    msg: p.message,
    type: 'value_error',
  }));
  throw new HttpError(422, problems);
}

const tenantIdOf = (req: { params: Record<string, unknown> }) => String(req.params.tenantId);

/** The administrative interface for resellers: their tenants and the tenants' keys. */
export function adminRoutes(
  routes: RouteRegistry,
  accounts: AccountCommands,
  queries: AccountQueries,
  readYourWrites: () => Promise<void>,
  /** Runs before a tenant's soft delete (its Peppol registration is removed: a deleted tenant must not receive). */
  beforeTenantDelete: (organizationId: string, tenantId: string, metadata: EventMetadata) => Promise<void> = async () =>
    undefined,
): void {
  routes.add({
    method: 'get',
    path: '/api/admin/tenants',
    summary: "List the organization's tenants",
    tag: 'admin',
    auth: 'organization',
    query: SkipLimitQuery,
    answer: TenantsAnswer,
    handler: async (req, res, answer) => {
      const query = decode(SkipLimitQuery, req.query, 'query');
      await readYourWrites();
      const page = await queries.tenants(organizationOf(res).organizationId, query.skip ?? 0, query.limit ?? 100);
      answer({
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
    responses: {
      201: 'Tenant created',
      409: 'A tenant with a similar name exists (deleted tenants keep their name), or a peppol_id is registered here by another tenant',
    },
    answer: TenantAnswer,
    handler: async (req, res, answer) => {
      const body = decode(CreateTenant, req.body, 'body');
      const identifiers = checkedIdentifiers({
        company_number: body.company_number ?? null,
        company_tax_id: body.company_tax_id ?? null,
        peppol_ids: body.peppol_ids ?? [],
      });
      const tenant = await accounts.createTenant(
        organizationOf(res).organizationId,
        { name: body.name, description: body.description ?? null, ...identifiers },
        commandMetadata(req, res),
      );
      answer(tenantResponse(tenant));
    },
  });
  routes.add({
    method: 'get',
    path: '/api/admin/tenants/:tenantId',
    summary: 'Read a tenant',
    tag: 'admin',
    auth: 'organization',
    responses: { 200: 'Tenant', 404: 'Tenant not found' },
    answer: TenantAnswer,
    handler: async (req, res, answer) => {
      answer(tenantResponse(await accounts.tenantOf(organizationOf(res).organizationId, tenantIdOf(req))));
    },
  });
  routes.add({
    method: 'put',
    path: '/api/admin/tenants/:tenantId',
    summary: 'Change a tenant (description, company_number, company_tax_id, peppol_ids; the name cannot change)',
    tag: 'admin',
    auth: 'organization',
    body: UpdateTenant,
    responses: {
      200: 'Tenant',
      404: 'Tenant not found',
      409: 'Tenant is deleted, or a new peppol_id is registered here by another tenant',
    },
    answer: TenantAnswer,
    handler: async (req, res, answer) => {
      const body = decode(UpdateTenant, req.body, 'body');
      const organizationId = organizationOf(res).organizationId;
      const current = await accounts.tenantOf(organizationId, tenantIdOf(req));
      // A different name is refused, not ignored: a client that thinks it renamed must learn it did not.
      if (body.name !== undefined && body.name !== current.name) {
        throw new HttpError(422, [
          { loc: ['body', 'name'], msg: 'The tenant name cannot be changed', type: 'value_error' },
        ]);
      }
      const keep = <K extends keyof typeof current>(field: K, given: (typeof current)[K] | undefined) =>
        given === undefined ? current[field] : given;
      const identifiers = checkedIdentifiers({
        company_number: keep('company_number', body.company_number),
        company_tax_id: keep('company_tax_id', body.company_tax_id),
        peppol_ids: keep('peppol_ids', body.peppol_ids === null ? [] : body.peppol_ids),
      });
      const tenant = await accounts.updateTenant(
        organizationId,
        current.id,
        {
          description: keep('description', body.description),
          ...identifiers,
          ...(body.name === undefined ? {} : { name: body.name }),
        },
        commandMetadata(req, res),
      );
      answer(tenantResponse(tenant));
    },
  });
  routes.add({
    method: 'delete',
    path: '/api/admin/tenants/:tenantId',
    summary: 'Soft-delete a tenant: it is marked deleted, its data is kept and its keys stop working at once',
    tag: 'admin',
    auth: 'organization',
    responses: { 200: 'Tenant, marked deleted (deleting again answers the same)', 404: 'Tenant not found' },
    answer: TenantAnswer,
    handler: async (req, res, answer) => {
      await beforeTenantDelete(organizationOf(res).organizationId, tenantIdOf(req), commandMetadata(req, res));
      const tenant = await accounts.deleteTenant(
        organizationOf(res).organizationId,
        tenantIdOf(req),
        commandMetadata(req, res),
      );
      answer(tenantResponse(tenant));
    },
  });
  routes.add({
    method: 'post',
    path: '/api/admin/tenants/:tenantId/api-keys',
    summary: 'Create a tenant API key (the key is shown only in this response)',
    tag: 'admin',
    auth: 'organization',
    body: CreateKey,
    responses: { 201: 'Key created', 404: 'Tenant not found', 409: 'Tenant is deleted' },
    answer: IssuedApiKeyAnswer,
    handler: async (req, res, answer) => {
      const body = decode(CreateKey, req.body, 'body');
      const organizationId = organizationOf(res).organizationId;
      const tenant = await accounts.activeTenantOf(organizationId, tenantIdOf(req));
      const issued = await accounts.issueKey(
        { kind: 'tenant', organization_id: organizationId, tenant_id: tenant.id },
        body.name,
        body.description ?? null,
        { ...commandMetadata(req, res), tenantId: tenant.id },
      );
      answer({
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
    query: SkipLimitQuery,
    answer: ApiKeysAnswer,
    handler: async (req, res, answer) => {
      const query = decode(SkipLimitQuery, req.query, 'query');
      const tenant = await accounts.tenantOf(organizationOf(res).organizationId, tenantIdOf(req));
      await readYourWrites();
      const page = await queries.keysOfTenant(tenant.id, query.skip ?? 0, query.limit ?? 100);
      answer({ api_keys: page.items.map(keyResponse), total: page.total });
    },
  });
  routes.add({
    method: 'get',
    path: '/api/admin/tenants/:tenantId/api-keys/latest',
    summary: 'The most recently created key record of a tenant (never its value)',
    tag: 'admin',
    auth: 'organization',
    responses: { 200: 'Key record', 404: 'Tenant not found, or it has no keys' },
    answer: ApiKeyAnswer,
    handler: async (req, res, answer) => {
      const tenant = await accounts.tenantOf(organizationOf(res).organizationId, tenantIdOf(req));
      await readYourWrites();
      const latest = await queries.latestKeyOfTenant(tenant.id);
      if (!latest) throw new HttpError(404, 'The tenant has no API keys');
      answer(keyResponse(latest));
    },
  });
  routes.add({
    method: 'put',
    path: '/api/admin/tenants/:tenantId/api-keys/:keyId',
    summary: 'Rename or describe a tenant API key (omitted fields keep their value)',
    tag: 'admin',
    auth: 'organization',
    body: UpdateKey,
    responses: { 200: 'Key record', 404: 'Tenant or key not found', 409: 'Key revoked or tenant deleted' },
    answer: ApiKeyAnswer,
    handler: async (req, res, answer) => {
      const body = decode(UpdateKey, req.body, 'body');
      const tenant = await accounts.activeTenantOf(organizationOf(res).organizationId, tenantIdOf(req));
      const key = await accounts.keyOfTenant(tenant.id, String(req.params.keyId));
      const renamed = await accounts.renameKey(
        key.id,
        body.name ?? key.name,
        body.description === undefined ? key.description : body.description,
        { ...commandMetadata(req, res), tenantId: tenant.id },
      );
      if (renamed.status === 'absent') throw new Error('key vanished');
      answer(keyResponse({ ...renamed, tenant_id: tenant.id, is_deleted: renamed.status === 'revoked' }));
    },
  });
  routes.add({
    method: 'delete',
    path: '/api/admin/tenants/:tenantId/api-keys/:keyId',
    summary: 'Revoke a tenant API key; it stops working at once',
    tag: 'admin',
    auth: 'organization',
    responses: { 200: 'Key revoked', 404: 'Tenant or key not found' },
    answer: ApiKeyAnswer,
    handler: async (req, res, answer) => {
      const organizationId = organizationOf(res).organizationId;
      const tenant = await accounts.tenantOf(organizationId, tenantIdOf(req));
      const key = await accounts.keyOfTenant(tenant.id, String(req.params.keyId));
      const revoked = await accounts.revokeKey(key.id, { ...commandMetadata(req, res), tenantId: tenant.id });
      if (revoked.status === 'absent') throw new Error('key vanished');
      answer(keyResponse({ ...revoked, tenant_id: tenant.id, is_deleted: true }));
    },
  });
}
