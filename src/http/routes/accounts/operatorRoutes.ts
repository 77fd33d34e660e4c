import * as t from 'io-ts';
import type { AccountCommands } from '../../../application/accounts/accountCommands.js';
import type { OperatorQueries } from '../../../application/accounts/operatorQueries.js';
import { decode, Email, NonEmptyString, Nullable, PAGE_FIELDS } from '../../codecs.js';
import { commandMetadata } from '../../requestContext.js';
import type { RouteRegistry } from '../../routeRegistry.js';
import { tenantResponse } from './tenantView.js';
import {
  CreatedOrganizationAnswer,
  OrganizationAnswer,
  OrganizationKeyAnswer,
  OrganizationsAnswer,
  TenantAnswer,
} from '../../codecs/accountAnswers.js';

const CreateOrganization = t.type({ name: NonEmptyString });
const SetTestMode = t.intersection([t.type({ test_mode: t.boolean }), t.partial({ email: Nullable(Email) })]);
const SetTier = t.type({ tier: t.keyof({ standard: null, premium: null }) });
const OrganizationsQuery = t.partial(PAGE_FIELDS);

/**
 * The operator interface: what only the deployment's operator may do (the spec says test mode
 * is set only on request to the operator). Authenticated with OPERATOR_KEY.
 */
export function operatorRoutes(
  routes: RouteRegistry,
  accounts: AccountCommands,
  queries: OperatorQueries,
  readYourWrites: () => Promise<void>,
): void {
  routes.add({
    method: 'get',
    path: '/api/operator/organizations',
    summary:
      'List the organizations, oldest first, a page at a time (page, page_size): each with its tenant count and usage (documents sent, received, failed, in transit; drafts)',
    tag: 'operator',
    auth: 'operator',
    query: OrganizationsQuery,
    responses: { 200: 'A page: items, total, page, page_size, pages, has_next_page' },
    answer: OrganizationsAnswer,
    handler: async (req, _res, answer) => {
      const q = decode(OrganizationsQuery, req.query, 'query');
      await readYourWrites();
      answer(await queries.organizations(q.page ?? 1, q.page_size ?? 20));
    },
  });
  routes.add({
    method: 'get',
    path: '/api/operator/organizations/:organizationId',
    summary: 'One organization with its usage, and each of its tenants (deleted ones marked) with theirs',
    tag: 'operator',
    auth: 'operator',
    responses: { 200: 'The organization, its usage and its tenants', 404: 'Not found' },
    answer: OrganizationAnswer,
    handler: async (req, _res, answer) => {
      await readYourWrites();
      const organization = await queries.organization(String(req.params.organizationId));
      answer({
        ...organization,
        tenants: organization.tenants.map(({ tenant, usage }) => ({ ...tenantResponse(tenant), usage })),
      });
    },
  });
  routes.add({
    method: 'post',
    path: '/api/operator/organizations',
    summary: 'Create a reseller organization and its first organization (admin) key',
    tag: 'operator',
    auth: 'operator',
    body: CreateOrganization,
    responses: { 201: 'Organization created; the key is shown only in this response' },
    answer: CreatedOrganizationAnswer,
    handler: async (req, res, answer) => {
      const body = decode(CreateOrganization, req.body, 'body');
      const { organization, key } = await accounts.createOrganization(body.name, commandMetadata(req, res));
      if (organization.status !== 'active') throw new Error('organization was not created');
      answer({
        id: organization.id,
        name: organization.name,
        created_at: organization.created_at,
        admin_key: {
          id: key.record.id,
          name: key.record.name,
          prefix: key.record.prefix,
          key: key.key,
          created_at: key.record.created_at,
        },
      });
    },
  });
  routes.add({
    method: 'post',
    path: '/api/operator/organizations/:organizationId/keys',
    summary: 'Issue another organization key',
    tag: 'operator',
    auth: 'operator',
    responses: { 201: 'Key issued; shown only in this response' },
    answer: OrganizationKeyAnswer,
    handler: async (req, res, answer) => {
      const organizationId = String(req.params.organizationId);
      await accounts.organization(organizationId);
      const key = await accounts.issueKey(
        { kind: 'organization', organization_id: organizationId },
        'admin',
        null,
        commandMetadata(req, res),
      );
      answer({
        id: key.record.id,
        name: key.record.name,
        prefix: key.record.prefix,
        key: key.key,
        created_at: key.record.created_at,
      });
    },
  });
  routes.add({
    method: 'get',
    path: '/api/operator/tenants/:tenantId',
    summary: 'Read any tenant, with its test mode and rate tier',
    tag: 'operator',
    auth: 'operator',
    answer: TenantAnswer,
    handler: async (req, _res, answer) => {
      answer(tenantResponse(await accounts.tenantOf(null, String(req.params.tenantId))));
    },
  });
  routes.add({
    method: 'put',
    path: '/api/operator/tenants/:tenantId/test-mode',
    summary:
      "Turn a tenant's test mode on or off, with the address test-mode mail goes to: on needs an address (given, or the tenant's); email left out keeps the tenant's address, null removes it",
    tag: 'operator',
    auth: 'operator',
    body: SetTestMode,
    responses: {
      200: 'The tenant',
      404: 'Not found',
      422: 'Test mode on without an address, or not one e-mail address',
    },
    answer: TenantAnswer,
    handler: async (req, res, answer) => {
      const body = decode(SetTestMode, req.body, 'body');
      const tenant = await accounts.setTestMode(
        String(req.params.tenantId),
        body.test_mode,
        body.email,
        commandMetadata(req, res),
      );
      answer(tenantResponse(tenant));
    },
  });
  routes.add({
    method: 'put',
    path: '/api/operator/tenants/:tenantId/tier',
    summary: "Set a tenant's rate tier (standard or premium)",
    tag: 'operator',
    auth: 'operator',
    body: SetTier,
    answer: TenantAnswer,
    handler: async (req, res, answer) => {
      const body = decode(SetTier, req.body, 'body');
      answer(
        tenantResponse(await accounts.setRateTier(String(req.params.tenantId), body.tier, commandMetadata(req, res))),
      );
    },
  });
}
