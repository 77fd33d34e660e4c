import { EVENT_STORE, type EventMetadata, type EventStore } from '../ports/eventStore.js';
import { SML_PUBLISHER, SmlRefusedError, type SmlPublisher } from '../ports/peppolNetwork.js';
import { inject, injectable } from '../injection.js';
import { handleCommand, loadState, loadStream, type StreamSnapshot } from '../commandHandler.js';
import { AccountCommands, ofOrganization, presentTenant, visibleTenant } from '../accounts/accountCommands.js';
import { formatPeppolId, type PeppolId } from '../../domain/document/invoice/peppolId.js';
import { vatCountry } from '../../domain/document/invoice/vatNumber.js';
import { conflict, invalidState } from '../../domain/errors.js';
import { participantKey } from '../../domain/peppol/participantId.js';
import {
  participantReservationDecider,
  participantReservationStream,
} from '../../domain/peppol/participantReservation.js';
import { countryOfScheme } from '../../domain/peppol/schemeCountry.js';
import {
  tenantDecider,
  tenantStream,
  type PeppolRegistration,
  type Tenant,
  type TenantCommand,
  type TenantState,
} from '../../domain/tenant/tenant.js';

/** A request field we cannot work with (answered 422 naming the field). */
export class RegistrationFieldError extends Error {
  constructor(
    readonly field: 'company_name' | 'country_code',
    message: string,
  ) {
    super(message);
    this.name = 'RegistrationFieldError';
  }
}

/** The SML could not be reached or failed (answered 502); nothing was changed. */
export class SmlUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SmlUnavailableError';
  }
}

/**
 * A reservation whose holder is not (or no longer) registered may be taken over, but not while
 * the holder may still be half-way through registering (the SML call can take a while).
 */
const RESERVATION_GRACE_MS = 2 * 60 * 1000;

/** Status values: 'active' (published on our SMP, and the SML when configured), 'simulated' (test mode), 'unregistered'. */
export type RegistrationStatusValue = 'active' | 'simulated' | 'unregistered';

export interface RegistrationView {
  registered: boolean;
  peppol_id: string | null;
  status: RegistrationStatusValue;
  registered_at: string | null;
  company_name: string | null;
  country_code: string | null;
  simulated: boolean;
  /** Whether the registration is published to the SML: 'published', 'off' (SML_URL not set), 'not_published' (simulated or unregistered). */
  sml: 'published' | 'off' | 'not_published';
}

const now = () => new Date().toISOString();

/**
 * Peppol registration of tenants: reserve the id on this instance, publish it at the SML
 * (when configured), record it on the tenant. Every refusal happens before anything changes.
 */
@injectable()
export class PeppolRegistrations {
  constructor(
    @inject(EVENT_STORE) private readonly store: EventStore,
    @inject(AccountCommands) private readonly accounts: AccountCommands,
    @inject(SML_PUBLISHER) private readonly sml: SmlPublisher,
  ) {}

  view(tenant: Tenant): RegistrationView {
    const registration = tenant.is_deleted ? null : tenant.peppol_registration;
    if (!registration) {
      return {
        registered: false,
        peppol_id: tenant.peppol_ids[0] ?? null,
        status: 'unregistered',
        registered_at: null,
        company_name: null,
        country_code: null,
        simulated: false,
        sml: 'not_published',
      };
    }
    return {
      registered: true,
      peppol_id: registration.peppol_id,
      status: registration.simulated ? 'simulated' : 'active',
      registered_at: registration.registered_at,
      company_name: registration.company_name,
      country_code: registration.country_code,
      simulated: registration.simulated,
      sml: registration.simulated ? 'not_published' : this.sml.enabled ? 'published' : 'off',
    };
  }

  async status(organizationId: string, tenantId: string): Promise<RegistrationView> {
    return this.view(await this.accounts.tenantOf(organizationId, tenantId));
  }

  async register(
    organizationId: string,
    tenantId: string,
    input: { peppol_id: PeppolId; company_name: string | null; country_code: string | null },
    metadata: EventMetadata,
  ): Promise<{ tenant: Tenant; changed: boolean }> {
    const loaded = await this.load(organizationId, tenantId);
    const { state, tenant } = loaded;
    if (tenant.is_deleted) throw invalidState('Tenant is deleted');
    const peppolId = formatPeppolId(input.peppol_id);
    const key = participantKey(peppolId)!;
    const current =
      tenant.peppol_registration && participantKey(tenant.peppol_registration.peppol_id) === key
        ? tenant.peppol_registration
        : null;
    const command: TenantCommand = {
      type: 'RegisterPeppol',
      data: {
        peppol_id: peppolId,
        company_name: this.companyName(tenant, input, current),
        country_code: this.countryCode(tenant, input, current),
        now: now(),
      },
    };
    const stream = tenantStream(tenant.id);
    const tenantMetadata = { ...metadata, tenantId: tenant.id, organizationId: tenant.organization_id };
    // Decide on the current state first: its refusals must come before anything is reserved or published.
    const planned = tenantDecider.decide(command, state);
    if (planned.length === 0) return { tenant, changed: false };
    if (planned[0]!.type !== 'TenantPeppolRegistered') {
      const result = await handleCommand(this.store, tenantDecider, stream, command, tenantMetadata, loaded);
      return { tenant: presentTenant(result.state), changed: result.newEvents.length > 0 };
    }

    const simulated = tenant.test_mode;
    await this.reserve(key, peppolId, tenant.id, tenantMetadata);
    let published = false;
    try {
      if (!simulated && this.sml.enabled) {
        await this.publish(() => this.sml.create(peppolId), peppolId);
        published = true;
      }
      const result = await handleCommand(this.store, tenantDecider, stream, command, tenantMetadata, loaded);
      return { tenant: presentTenant(result.state), changed: result.newEvents.length > 0 };
    } catch (error) {
      // Undo what this request did, so that a refused registration changes nothing.
      if (published) await this.sml.delete(peppolId).catch(() => undefined);
      await this.release(key, tenant.id, tenantMetadata);
      throw error;
    }
  }

  async updateBusinessCard(
    organizationId: string,
    tenantId: string,
    companyName: string,
    metadata: EventMetadata,
  ): Promise<Tenant> {
    const result = await handleCommand(
      this.store,
      tenantDecider,
      tenantStream(tenantId),
      ofOrganization(organizationId, { type: 'UpdateBusinessCard', data: { company_name: companyName, now: now() } }),
      { ...metadata, tenantId, organizationId },
    );
    return presentTenant(result.state);
  }

  /** Removes the registration: from the SML first (when published there), then our registry, then the reservation. */
  async unregister(
    organizationId: string,
    tenantId: string,
    metadata: EventMetadata,
  ): Promise<{ tenant: Tenant; registration: PeppolRegistration; unregistered_at: string }> {
    const loaded = await this.load(organizationId, tenantId);
    return this.unregisterLoaded(loaded.tenant, loaded, metadata);
  }

  /** For the tenant's soft delete: a deleted tenant must not stay reachable on Peppol. */
  async unregisterIfRegistered(organizationId: string, tenantId: string, metadata: EventMetadata): Promise<void> {
    const loaded = await this.load(organizationId, tenantId);
    if (loaded.tenant.peppol_registration) await this.unregisterLoaded(loaded.tenant, loaded, metadata);
  }

  /** `known`: the tenant's stream as `tenant` was read from, handed to handleCommand so it is not read again. */
  private async unregisterLoaded(tenant: Tenant, known: StreamSnapshot<TenantState>, metadata: EventMetadata) {
    const registration = tenant.peppol_registration;
    if (!registration) throw invalidState('Tenant is not registered on Peppol');
    const tenantMetadata = { ...metadata, tenantId: tenant.id, organizationId: tenant.organization_id };
    if (!registration.simulated && this.sml.enabled)
      await this.publish(() => this.sml.delete(registration.peppol_id), registration.peppol_id);
    const at = now();
    const result = await handleCommand(
      this.store,
      tenantDecider,
      tenantStream(tenant.id),
      { type: 'UnregisterPeppol', data: { now: at } },
      tenantMetadata,
      known,
    );
    await this.release(participantKey(registration.peppol_id)!, tenant.id, tenantMetadata);
    return { tenant: presentTenant(result.state), registration, unregistered_at: at };
  }

  /**
   * The organization's tenant with the stream it was read from, for handleCommand to start
   * from: should the tenant change meanwhile, the append conflicts and the command is decided again.
   */
  private async load(organizationId: string, tenantId: string) {
    const loaded = await loadStream(this.store, tenantDecider, tenantStream(tenantId));
    return { ...loaded, tenant: visibleTenant(organizationId, loaded.state) };
  }

  /** The given name; else the registered one; else, for a Belgian enterprise number, the tenant's own data. */
  private companyName(
    tenant: Tenant,
    input: { peppol_id: PeppolId; company_name: string | null },
    current: PeppolRegistration | null,
  ): string {
    const given = input.company_name?.trim();
    if (given) return given;
    if (current) return current.company_name;
    // The spec fetches a Belgian company's name from the enterprise register (KBO/BCE); that
    // register is not reachable from here, so the tenant's own description, else its name, stands in.
    if (input.peppol_id.scheme === '0208') return tenant.description?.trim() || tenant.name;
    throw new RegistrationFieldError(
      'company_name',
      'company_name is required unless peppol_id is a Belgian enterprise number (0208)',
    );
  }

  private countryCode(
    tenant: Tenant,
    input: { peppol_id: PeppolId; country_code: string | null },
    current: PeppolRegistration | null,
  ): string {
    const country =
      input.country_code?.trim().toUpperCase() ||
      current?.country_code ||
      countryOfScheme(input.peppol_id.scheme) ||
      (tenant.company_tax_id ? vatCountry(tenant.company_tax_id) : null);
    if (!country) {
      throw new RegistrationFieldError(
        'country_code',
        `the country cannot be derived from scheme ${input.peppol_id.scheme} or the tenant's tax id; give country_code`,
      );
    }
    return country;
  }

  private async reserve(key: string, peppolId: string, tenantId: string, metadata: EventMetadata): Promise<void> {
    const stream = participantReservationStream(key);
    const loaded = await loadStream(this.store, participantReservationDecider, stream);
    const reservation = loaded.state;
    let staleHolder: string | null = null;
    if (reservation.status === 'held' && reservation.tenant_id !== tenantId) {
      const holder = await loadState(this.store, tenantDecider, tenantStream(reservation.tenant_id));
      const holds =
        holder.status === 'present' &&
        !holder.is_deleted &&
        holder.peppol_registration !== null &&
        participantKey(holder.peppol_registration.peppol_id) === key;
      const settled =
        Date.now() - Date.parse(reservation.reserved_at) > RESERVATION_GRACE_MS ||
        (holder.status === 'present' && holder.is_deleted);
      if (!holds && settled) staleHolder = reservation.tenant_id;
    }
    await handleCommand(
      this.store,
      participantReservationDecider,
      stream,
      {
        type: 'ReserveParticipant',
        data: { participant_key: key, peppol_id: peppolId, tenant_id: tenantId, stale_holder: staleHolder, now: now() },
      },
      metadata,
      loaded,
    );
  }

  private async release(key: string, tenantId: string, metadata: EventMetadata): Promise<void> {
    await handleCommand(
      this.store,
      participantReservationDecider,
      participantReservationStream(key),
      { type: 'ReleaseParticipant', data: { tenant_id: tenantId, now: now() } },
      metadata,
    );
  }

  private async publish(call: () => Promise<void>, peppolId: string): Promise<void> {
    try {
      await call();
    } catch (error) {
      if (error instanceof SmlRefusedError && error.faultCode === 'conflict') {
        throw conflict(`Peppol participant ${peppolId} is registered by another SMP: ${error.message}`);
      }
      throw new SmlUnavailableError(
        `The SML did not accept the change: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}
