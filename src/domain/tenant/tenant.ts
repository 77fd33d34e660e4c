import { assertNever, type Decider, type Event } from '../decider.js';
import { conflict, invalid, invalidState, notFound } from '../errors.js';
import { checkCompanyIdentifiers } from './tenantProfile.js';
import { formatPeppolId, parsePeppolId } from '../document/invoice/peppolId.js';
import { isCountryCode } from '../document/invoice/codeLists.js';
import { sameParticipant } from '../peppol/participantId.js';
import { EMAIL_ADDRESS_RULE, isEmailAddress } from '../emailAddress.js';

/** A reseller's customer organization: the owner of documents, keys and a Peppol identity. */
export type RateTier = 'standard' | 'premium';

export interface TenantProfile {
  name: string;
  description: string | null;
  company_number: string | null;
  company_tax_id: string | null;
  peppol_ids: string[];
}

export type TenantCreated = Event<
  'TenantCreated',
  TenantProfile & { tenant_id: string; organization_id: string; created_at: string }
>;
export type TenantUpdated = Event<
  'TenantUpdated',
  Omit<TenantProfile, 'name'> & { tenant_id: string; updated_at: string }
>;
export type TenantDeleted = Event<'TenantDeleted', { tenant_id: string; deleted_at: string }>;
export type TenantTestModeChanged = Event<
  'TenantTestModeChanged',
  { tenant_id: string; test_mode: boolean; test_mode_email: string | null; changed_at: string }
>;
export type TenantRateTierChanged = Event<
  'TenantRateTierChanged',
  { tenant_id: string; tier: RateTier; changed_at: string }
>;

/**
 * Registration in this instance's participant registry, which its SMP publishes. A tenant in
 * test mode gets a simulated registration: kept in the registry, never published on the SMP or SML.
 */
export type TenantPeppolRegistered = Event<
  'TenantPeppolRegistered',
  {
    tenant_id: string;
    peppol_id: string;
    company_name: string;
    country_code: string;
    simulated: boolean;
    registered_at: string;
  }
>;
export type TenantBusinessCardUpdated = Event<
  'TenantBusinessCardUpdated',
  { tenant_id: string; peppol_id: string; company_name: string; updated_at: string }
>;
export type TenantPeppolUnregistered = Event<
  'TenantPeppolUnregistered',
  { tenant_id: string; peppol_id: string; unregistered_at: string }
>;

export type TenantEvent =
  | TenantCreated
  | TenantUpdated
  | TenantDeleted
  | TenantTestModeChanged
  | TenantRateTierChanged
  | TenantPeppolRegistered
  | TenantBusinessCardUpdated
  | TenantPeppolUnregistered;

export type TenantCommand =
  | { type: 'CreateTenant'; data: TenantProfile & { tenant_id: string; organization_id: string; now: string } }
  /** `name` may be repeated unchanged (a PUT of the whole resource) but never changed. */
  | { type: 'UpdateTenant'; data: Omit<TenantProfile, 'name'> & { name?: string; now: string } }
  | { type: 'DeleteTenant'; data: { now: string } }
  /**
   * `test_mode_email` left out keeps the address (switching test mode off keeps it for the next
   * time); null removes it. Test mode is never on without an address.
   */
  | { type: 'SetTestMode'; data: { test_mode: boolean; test_mode_email?: string | null; now: string } }
  | { type: 'SetRateTier'; data: { tier: RateTier; now: string } }
  | { type: 'RegisterPeppol'; data: { peppol_id: string; company_name: string; country_code: string; now: string } }
  | { type: 'UpdateBusinessCard'; data: { company_name: string; now: string } }
  | { type: 'UnregisterPeppol'; data: { now: string } };

export interface PeppolRegistration {
  peppol_id: string;
  company_name: string;
  country_code: string;
  /** Registered while in test mode: in our registry only, not published on the SMP or the SML. */
  simulated: boolean;
  registered_at: string;
  /** Last change of the business card (the registration time until then). */
  updated_at: string;
}

export interface Tenant extends TenantProfile {
  id: string;
  organization_id: string;
  created_at: string;
  updated_at: string;
  is_deleted: boolean;
  test_mode: boolean;
  test_mode_email: string | null;
  rate_tier: RateTier;
  peppol_registration: PeppolRegistration | null;
}

export type TenantState = { status: 'absent' } | ({ status: 'present' } & Tenant);

export const tenantStream = (id: string) => `tenant-${id}`;

/** The registration numbers must be well-formed: the HTTP layer reports each field, this is the last guard. */
function requireValidIdentifiers(profile: Omit<TenantProfile, 'name'>): void {
  const checked = checkCompanyIdentifiers(profile);
  if (!checked.ok) throw invalid(checked.problems.map((p) => `${p.field}: ${p.message}`).join('; '));
}

function requirePresent(state: TenantState): asserts state is { status: 'present' } & Tenant {
  if (state.status === 'absent') throw notFound('Tenant not found');
}

function requireRegistration(state: Tenant): PeppolRegistration {
  if (!state.peppol_registration) throw invalidState('Tenant is not registered on Peppol');
  return state.peppol_registration;
}

function requireCompanyName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > 500) throw invalid('company_name must be 1 to 500 characters');
  return trimmed;
}

function decideRegistration(
  state: Tenant,
  data: Extract<TenantCommand, { type: 'RegisterPeppol' }>['data'],
): TenantEvent[] {
  if (state.is_deleted) throw invalidState('Tenant is deleted');
  const parsed = parsePeppolId(data.peppol_id);
  if (!parsed.ok) throw invalid(`peppol_id: ${parsed.message}`);
  const peppolId = formatPeppolId(parsed.value);
  const companyName = requireCompanyName(data.company_name);
  if (!isCountryCode(data.country_code)) throw invalid('country_code must be an ISO 3166-1 alpha-2 code');
  // The profile's identifier is the one documents are sent from; registering another would
  // receive where the tenant does not send from.
  const profileId = state.peppol_ids[0];
  if (profileId !== undefined && !sameParticipant(profileId, peppolId)) {
    throw conflict(
      `The tenant's Peppol identifier is ${profileId}; change the tenant's peppol_ids before registering ${peppolId}`,
    );
  }
  const current = state.peppol_registration;
  if (current) {
    if (!sameParticipant(current.peppol_id, peppolId))
      throw conflict(`Tenant is already registered as ${current.peppol_id}; unregister it first`);
    // Registering the same id again is idempotent; a new name updates the business card.
    if (current.company_name === companyName) return [];
    return [
      {
        type: 'TenantBusinessCardUpdated',
        data: { tenant_id: state.id, peppol_id: current.peppol_id, company_name: companyName, updated_at: data.now },
      },
    ];
  }
  return [
    {
      type: 'TenantPeppolRegistered',
      data: {
        tenant_id: state.id,
        peppol_id: peppolId,
        company_name: companyName,
        country_code: data.country_code,
        simulated: state.test_mode,
        registered_at: data.now,
      },
    },
  ];
}

export const tenantDecider: Decider<TenantState, TenantCommand, TenantEvent> = {
  initialState: () => ({ status: 'absent' }),

  decide(command, state) {
    switch (command.type) {
      case 'CreateTenant': {
        if (state.status !== 'absent') throw conflict('Tenant already exists');
        requireValidIdentifiers(command.data);
        const { now, ...data } = command.data;
        return [{ type: 'TenantCreated', data: { ...data, created_at: now } }];
      }
      case 'UpdateTenant': {
        requirePresent(state);
        if (state.is_deleted) throw invalidState('Tenant is deleted');
        const { now, name, ...data } = command.data;
        // The name is the tenant's unique handle (reserved in its own stream): renaming would free
        // or clash with reservations, so it is refused rather than silently ignored.
        if (name !== undefined && name !== state.name) throw invalid('The tenant name cannot be changed');
        requireValidIdentifiers(data);
        const registered = state.peppol_registration;
        if (
          registered &&
          data.peppol_ids.length > 0 &&
          !data.peppol_ids.some((id) => sameParticipant(id, registered.peppol_id))
        ) {
          throw conflict(
            `Tenant is registered on Peppol as ${registered.peppol_id}; unregister it before changing peppol_ids`,
          );
        }
        const unchanged =
          data.description === state.description &&
          data.company_number === state.company_number &&
          data.company_tax_id === state.company_tax_id &&
          JSON.stringify(data.peppol_ids) === JSON.stringify(state.peppol_ids);
        if (unchanged) return [];
        return [{ type: 'TenantUpdated', data: { ...data, tenant_id: state.id, updated_at: now } }];
      }
      case 'DeleteTenant':
        requirePresent(state);
        if (state.is_deleted) return [];
        return [{ type: 'TenantDeleted', data: { tenant_id: state.id, deleted_at: command.data.now } }];
      case 'SetTestMode': {
        requirePresent(state);
        const given = command.data.test_mode_email;
        // Test-mode mail goes to this address: one address, nothing a mail header could take for more.
        if (given !== undefined && given !== null && !isEmailAddress(given)) {
          throw invalid(`email must be ${EMAIL_ADDRESS_RULE}`, ['body', 'email']);
        }
        const email = given === undefined ? state.test_mode_email : given;
        if (command.data.test_mode && email === null) {
          throw invalid(
            'Test mode needs the e-mail address its documents go to: give email (this tenant has none yet)',
            ['body', 'email'],
          );
        }
        if (state.test_mode === command.data.test_mode && state.test_mode_email === email) return [];
        return [
          {
            type: 'TenantTestModeChanged',
            data: {
              tenant_id: state.id,
              test_mode: command.data.test_mode,
              test_mode_email: email,
              changed_at: command.data.now,
            },
          },
        ];
      }
      case 'SetRateTier':
        requirePresent(state);
        if (state.rate_tier === command.data.tier) return [];
        return [
          {
            type: 'TenantRateTierChanged',
            data: { tenant_id: state.id, tier: command.data.tier, changed_at: command.data.now },
          },
        ];
      case 'RegisterPeppol':
        requirePresent(state);
        return decideRegistration(state, command.data);
      case 'UpdateBusinessCard': {
        requirePresent(state);
        if (state.is_deleted) throw invalidState('Tenant is deleted');
        const registration = requireRegistration(state);
        const companyName = requireCompanyName(command.data.company_name);
        if (companyName === registration.company_name) return [];
        return [
          {
            type: 'TenantBusinessCardUpdated',
            data: {
              tenant_id: state.id,
              peppol_id: registration.peppol_id,
              company_name: companyName,
              updated_at: command.data.now,
            },
          },
        ];
      }
      case 'UnregisterPeppol': {
        requirePresent(state);
        const registration = requireRegistration(state);
        return [
          {
            type: 'TenantPeppolUnregistered',
            data: { tenant_id: state.id, peppol_id: registration.peppol_id, unregistered_at: command.data.now },
          },
        ];
      }
      default:
        return assertNever(command);
    }
  },

  evolve(state, event) {
    if (event.type === 'TenantCreated') {
      const { tenant_id, created_at, ...profile } = event.data;
      return {
        status: 'present',
        ...profile,
        id: tenant_id,
        created_at,
        updated_at: created_at,
        is_deleted: false,
        test_mode: false,
        test_mode_email: null,
        rate_tier: 'standard',
        peppol_registration: null,
      };
    }
    if (state.status === 'absent') return state;
    switch (event.type) {
      case 'TenantUpdated': {
        const { tenant_id: _id, updated_at, ...profile } = event.data;
        return { ...state, ...profile, updated_at };
      }
      case 'TenantDeleted':
        return { ...state, is_deleted: true, updated_at: event.data.deleted_at };
      case 'TenantTestModeChanged':
        return {
          ...state,
          test_mode: event.data.test_mode,
          test_mode_email: event.data.test_mode_email,
          updated_at: event.data.changed_at,
        };
      case 'TenantRateTierChanged':
        return { ...state, rate_tier: event.data.tier, updated_at: event.data.changed_at };
      case 'TenantPeppolRegistered': {
        const { tenant_id: _id, registered_at, ...registration } = event.data;
        return { ...state, peppol_registration: { ...registration, registered_at, updated_at: registered_at } };
      }
      case 'TenantBusinessCardUpdated':
        if (!state.peppol_registration) return state;
        return {
          ...state,
          peppol_registration: {
            ...state.peppol_registration,
            company_name: event.data.company_name,
            updated_at: event.data.updated_at,
          },
        };
      case 'TenantPeppolUnregistered':
        return { ...state, peppol_registration: null };
      default:
        return assertNever(event);
    }
  },
};

/** Names compare without case, spaces or punctuation: "Acme Corp" and "acme-corp" are one name. */
export function tenantNameKey(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

export type TenantNameEvent = Event<'TenantNameReserved', { name: string; tenant_id: string; reserved_at: string }>;
/**
 * Names are unique within an organization: a conflict with another organization's tenant would
 * tell this one that the other has a customer of that name.
 */
export const tenantNameStream = (organizationId: string, name: string) =>
  `tenantname-${organizationId}-${tenantNameKey(name)}`;
