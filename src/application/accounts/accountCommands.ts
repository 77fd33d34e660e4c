import { randomUUID } from 'node:crypto';
import type { EventMetadata, EventStore } from '../ports/eventStore.js';
import { EVENT_STORE, WrongExpectedRevisionError } from '../ports/eventStore.js';
import { inject, injectable } from '../injection.js';
import { handleCommand, loadState, toDomainEvent } from '../commandHandler.js';
import { organizationDecider, organizationStream } from '../../domain/organization/organization.js';
import { apiKeyDecider, apiKeyStream, type ApiKeyOwner, type ApiKeyState } from '../../domain/apiKey/apiKey.js';
import { generateApiKey, hashApiKey, keyIdOf, publicPrefix } from './apiKeySecret.js';
import {
  tenantDecider,
  tenantNameStream,
  tenantStream,
  type RateTier,
  type Tenant,
  type TenantCommand,
  type TenantNameEvent,
  type TenantProfile,
  type TenantState,
} from '../../domain/tenant/tenant.js';
import { conflict, invalidState, notFound } from '../../domain/errors.js';
import { sameParticipant } from '../../domain/peppol/participantId.js';
import { registeredByAnotherTenant } from './participantHolder.js';

export interface IssuedKey {
  record: Exclude<ApiKeyState, { status: 'absent' }>;
  /** The secret: returned once, never stored. */
  key: string;
}

const now = () => new Date().toISOString();

/** Commands about organizations, tenants and their keys. */
@injectable()
export class AccountCommands {
  constructor(@inject(EVENT_STORE) private readonly store: EventStore) {}

  async createOrganization(name: string, metadata: EventMetadata, adminKey?: string) {
    const organizationId = randomUUID();
    const result = await handleCommand(
      this.store,
      organizationDecider,
      organizationStream(organizationId),
      { type: 'CreateOrganization', data: { organization_id: organizationId, name, now: now() } },
      { ...metadata, organizationId },
      [], // a fresh id names no stream yet: nothing to read
    );
    const key = await this.issueKey(
      { kind: 'organization', organization_id: organizationId },
      'admin',
      'Organization key created with the organization',
      { ...metadata, organizationId },
      adminKey,
    );
    return { organization: result.state, key };
  }

  /** Sets how long the organization's tenants' accounting documents are kept (the operator's, with the reason). */
  async setRetention(organizationId: string, years: number, reason: string, metadata: EventMetadata) {
    const result = await handleCommand(
      this.store,
      organizationDecider,
      organizationStream(organizationId),
      { type: 'SetRetention', data: { retention_years: years, reason, now: now() } },
      { ...metadata, organizationId },
    );
    if (result.state.status === 'absent') throw notFound('Organization not found');
    return result.state;
  }

  async organization(organizationId: string) {
    const state = await loadState(this.store, organizationDecider, organizationStream(organizationId));
    if (state.status === 'absent') throw notFound('Organization not found');
    return state;
  }

  /** Creates an organization holding exactly `adminKey`, unless that key already exists. */
  async bootstrapOrganization(adminKey: string, metadata: EventMetadata): Promise<boolean> {
    const existing = await loadState(this.store, apiKeyDecider, apiKeyStream(keyIdOf(adminKey)));
    if (existing.status !== 'absent') return false;
    await this.createOrganization('bootstrap', metadata, adminKey);
    return true;
  }

  async issueKey(
    owner: ApiKeyOwner,
    name: string,
    description: string | null,
    metadata: EventMetadata,
    chosenKey?: string,
  ): Promise<IssuedKey> {
    const generated = chosenKey
      ? { keyId: keyIdOf(chosenKey), key: chosenKey, hash: hashApiKey(chosenKey), prefix: publicPrefix(chosenKey) }
      : generateApiKey();
    const result = await handleCommand(
      this.store,
      apiKeyDecider,
      apiKeyStream(generated.keyId),
      {
        type: 'IssueApiKey',
        data: {
          key_id: generated.keyId,
          owner,
          name,
          description,
          hash: generated.hash,
          prefix: generated.prefix,
          now: now(),
        },
      },
      metadata,
      [],
    ); // a new key's stream, not read first: were it taken, the append conflicts and the decider refuses on a re-read
    return { record: result.state as IssuedKey['record'], key: generated.key };
  }

  /** A key of this tenant; any other key (another tenant's, an organization's) is not found. */
  async keyOfTenant(tenantId: string, keyId: string) {
    const state = await loadState(this.store, apiKeyDecider, apiKeyStream(keyId));
    if (state.status === 'absent' || state.owner.kind !== 'tenant' || state.owner.tenant_id !== tenantId) {
      throw notFound('API key not found');
    }
    return state;
  }

  async renameKey(keyId: string, name: string, description: string | null, metadata: EventMetadata) {
    return (
      await handleCommand(
        this.store,
        apiKeyDecider,
        apiKeyStream(keyId),
        { type: 'RenameApiKey', data: { key_id: keyId, name, description, now: now() } },
        metadata,
      )
    ).state;
  }

  async revokeKey(keyId: string, metadata: EventMetadata) {
    return (
      await handleCommand(
        this.store,
        apiKeyDecider,
        apiKeyStream(keyId),
        { type: 'RevokeApiKey', data: { key_id: keyId, now: now() } },
        metadata,
      )
    ).state;
  }

  /**
   * Reserves the tenant's name in a stream of its own (appending to a stream that must not
   * exist is atomic, so two concurrent creations of similar names cannot both succeed), then
   * creates the tenant. A reservation whose tenant never got created (a crash in between) is
   * taken over.
   */
  async createTenant(organizationId: string, profile: TenantProfile, metadata: EventMetadata): Promise<Tenant> {
    const tenantId = randomUUID();
    await this.refuseParticipantsOfOthers(profile.peppol_ids, tenantId, []);
    const reservation = {
      type: 'TenantNameReserved',
      data: { name: profile.name, tenant_id: tenantId, reserved_at: now() },
      metadata,
    };
    const nameStream = tenantNameStream(organizationId, profile.name);
    try {
      await this.store.append(nameStream, [reservation], 'no_stream');
    } catch (error) {
      if (!(error instanceof WrongExpectedRevisionError)) throw error;
      const reserved = await this.store.readStream(nameStream);
      const holder = toDomainEvent<TenantNameEvent>(reserved[reserved.length - 1]!);
      const holderState = await loadState(this.store, tenantDecider, tenantStream(holder.data.tenant_id));
      if (holderState.status === 'present') throw conflict(`A tenant with a similar name exists: ${holderState.name}`);
      try {
        await this.store.append(nameStream, [reservation], reserved[reserved.length - 1]!.revision);
      } catch (retryError) {
        if (retryError instanceof WrongExpectedRevisionError) throw conflict('A tenant with a similar name exists');
        throw retryError;
      }
    }
    const result = await handleCommand(
      this.store,
      tenantDecider,
      tenantStream(tenantId),
      {
        type: 'CreateTenant',
        data: { ...profile, tenant_id: tenantId, organization_id: organizationId, now: now() },
      },
      { ...metadata, tenantId, organizationId },
      [],
    ); // a fresh id names no stream yet: nothing to read
    return result.state as Tenant;
  }

  /**
   * A participant id registered on Peppol by another tenant of this instance is that tenant's: it
   * cannot be given to a second one (which would then send as it). Ids the tenant already has
   * are not checked again, so that other changes stay possible; sending checks them each time.
   */
  private async refuseParticipantsOfOthers(
    peppolIds: readonly string[],
    tenantId: string,
    had: readonly string[],
  ): Promise<void> {
    for (const peppolId of peppolIds) {
      if (had.some((id) => sameParticipant(id, peppolId))) continue;
      if (await registeredByAnotherTenant(this.store, peppolId, tenantId))
        throw conflict(
          `Peppol participant ${peppolId} is registered on this service by another tenant: it cannot be given to this one`,
        );
    }
  }

  /** Loads a tenant visible to the organization; another organization's tenant is not found. */
  async tenantOf(organizationId: string | null, tenantId: string): Promise<Tenant> {
    return visibleTenant(organizationId, await loadState(this.store, tenantDecider, tenantStream(tenantId)));
  }

  /** Changes the profile of an organization's tenant; the name may be repeated but not changed. */
  async updateTenant(
    organizationId: string,
    tenantId: string,
    profile: Omit<TenantProfile, 'name'> & { name?: string },
    metadata: EventMetadata,
  ): Promise<Tenant> {
    const current = await loadState(this.store, tenantDecider, tenantStream(tenantId));
    await this.refuseParticipantsOfOthers(
      profile.peppol_ids,
      tenantId,
      current.status === 'present' ? current.peppol_ids : [],
    );
    const result = await handleCommand(
      this.store,
      tenantDecider,
      tenantStream(tenantId),
      ofOrganization(organizationId, {
        type: 'UpdateTenant',
        data: { ...profile, now: now() },
      }),
      { ...metadata, tenantId, organizationId },
    );
    return presentTenant(result.state);
  }

  /**
   * Soft delete: the tenant and its history stay, it is marked deleted. Its keys stop working at
   * once because authentication reads the tenant's stream and refuses keys of deleted tenants.
   */
  async deleteTenant(organizationId: string, tenantId: string, metadata: EventMetadata): Promise<Tenant> {
    const result = await handleCommand(
      this.store,
      tenantDecider,
      tenantStream(tenantId),
      ofOrganization(organizationId, {
        type: 'DeleteTenant',
        data: { now: now() },
      }),
      { ...metadata, tenantId, organizationId },
    );
    return presentTenant(result.state);
  }

  /** A tenant that may still get new keys or key changes: visible to the organization and not deleted. */
  async activeTenantOf(organizationId: string, tenantId: string): Promise<Tenant> {
    const tenant = await this.tenantOf(organizationId, tenantId);
    if (tenant.is_deleted) throw invalidState('Tenant is deleted');
    return tenant;
  }

  // The operator's commands reach every tenant: the decider's own refusal of a missing one is the 404.
  async setTestMode(
    tenantId: string,
    testMode: boolean,
    /** Left out (undefined): the tenant's address stays as it is; null removes it. */
    email: string | null | undefined,
    metadata: EventMetadata,
  ): Promise<Tenant> {
    const result = await handleCommand(
      this.store,
      tenantDecider,
      tenantStream(tenantId),
      {
        type: 'SetTestMode',
        data: { test_mode: testMode, ...(email === undefined ? {} : { test_mode_email: email }), now: now() },
      },
      { ...metadata, tenantId },
    );
    return presentTenant(result.state);
  }

  async setRateTier(tenantId: string, tier: RateTier, metadata: EventMetadata): Promise<Tenant> {
    const result = await handleCommand(
      this.store,
      tenantDecider,
      tenantStream(tenantId),
      {
        type: 'SetRateTier',
        data: { tier, now: now() },
      },
      { ...metadata, tenantId },
    );
    return presentTenant(result.state);
  }
}

export function presentTenant(state: TenantState): Tenant {
  if (state.status === 'absent') throw notFound('Tenant not found');
  const { status: _status, ...tenant } = state;
  return tenant;
}

/** The tenant, if the organization may see it (any organization: null); otherwise not found. */
export function visibleTenant(organizationId: string | null, state: TenantState): Tenant {
  const tenant = presentTenant(state);
  if (organizationId !== null && tenant.organization_id !== organizationId) throw notFound('Tenant not found');
  return tenant;
}

/** The command, for the organization's tenant only, checked on the state it is decided on (before the decider's refusals). */
export function ofOrganization(organizationId: string, command: TenantCommand): (state: TenantState) => TenantCommand {
  return (state) => {
    visibleTenant(organizationId, state);
    return command;
  };
}
