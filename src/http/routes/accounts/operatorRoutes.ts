import * as t from 'io-ts';
import type { AccountCommands } from '../../../application/accounts/accountCommands.js';
import { decode, Email, NonEmptyString, Nullable } from '../../codecs.js';
import { commandMetadata } from '../../requestContext.js';
import type { RouteRegistry } from '../../routeRegistry.js';
import { tenantResponse } from './tenantView.js';

const CreateOrganization = t.type({ name: NonEmptyString });
const SetTestMode = t.intersection([t.type({ test_mode: t.boolean }), t.partial({ email: Nullable(Email) })]);
const SetTier = t.type({ tier: t.keyof({ standard: null, premium: null }) });

/**
 * The operator interface: what only the deployment's operator may do (the spec says test mode
 * is set only on request to the operator). Authenticated with OPERATOR_KEY.
 */
export function operatorRoutes(routes: RouteRegistry, accounts: AccountCommands): void {
  routes.add({
    method: 'post',
    path: '/api/operator/organizations',
    summary: 'Create a reseller organization and its first organization (admin) key',
    tag: 'operator',
    auth: 'operator',
    body: CreateOrganization,
    responses: { 201: 'Organization created; the key is shown only in this response' },
    handler: async (req, res) => {
      const body = decode(CreateOrganization, req.body, 'body');
      const { organization, key } = await accounts.createOrganization(body.name, commandMetadata(req, res));
      if (organization.status !== 'active') throw new Error('organization was not created');
      res.status(201).json({
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
    handler: async (req, res) => {
      const organizationId = String(req.params.organizationId);
      await accounts.organization(organizationId);
      const key = await accounts.issueKey(
        { kind: 'organization', organization_id: organizationId },
        'admin',
        null,
        commandMetadata(req, res),
      );
      res.status(201).json({
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
    handler: async (req, res) => {
      res.json(tenantResponse(await accounts.tenantOf(null, String(req.params.tenantId))));
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
    handler: async (req, res) => {
      const body = decode(SetTestMode, req.body, 'body');
      const tenant = await accounts.setTestMode(
        String(req.params.tenantId),
        body.test_mode,
        body.email,
        commandMetadata(req, res),
      );
      res.json(tenantResponse(tenant));
    },
  });
  routes.add({
    method: 'put',
    path: '/api/operator/tenants/:tenantId/tier',
    summary: "Set a tenant's rate tier (standard or premium)",
    tag: 'operator',
    auth: 'operator',
    body: SetTier,
    handler: async (req, res) => {
      const body = decode(SetTier, req.body, 'body');
      res.json(
        tenantResponse(await accounts.setRateTier(String(req.params.tenantId), body.tier, commandMetadata(req, res))),
      );
    },
  });
}
