import { assertNever, type Decider, type Event } from '../decider.js';
import { conflict, invalid, invalidState, notFound } from '../errors.js';
import { checkCompanyIdentifiers } from './tenantProfile.js';

/** A reseller's customer organization: the owner of documents, keys and a Peppol identity. */
export type RateTier = 'standard' | 'premium';

export interface TenantProfile {
  name: string;
  description: string | null;
  company_number: string | null;
  company_tax_id: string | null;
  peppol_ids: string[];
}

export type TenantCreated = Event<'TenantCreated', TenantProfile & { tenant_id: string; organization_id: string; created_at: string }>;
export type TenantUpdated = Event<'TenantUpdated', Omit<TenantProfile, 'name'> & { tenant_id: string; updated_at: string }>;
export type TenantDeleted = Event<'TenantDeleted', { tenant_id: string; deleted_at: string }>;
export type TenantTestModeChanged = Event<
  'TenantTestModeChanged',
  { tenant_id: string; test_mode: boolean; test_mode_email: string | null; changed_at: string }
>;
export type TenantRateTierChanged = Event<'TenantRateTierChanged', { tenant_id: string; tier: RateTier; changed_at: string }>;

export type TenantEvent = TenantCreated | TenantUpdated | TenantDeleted | TenantTestModeChanged | TenantRateTierChanged;

export type TenantCommand =
  | { type: 'CreateTenant'; data: TenantProfile & { tenant_id: string; organization_id: string; now: string } }
  /** `name` may be repeated unchanged (a PUT of the whole resource) but never changed. */
  | { type: 'UpdateTenant'; data: Omit<TenantProfile, 'name'> & { name?: string; now: string } }
  | { type: 'DeleteTenant'; data: { now: string } }
  | { type: 'SetTestMode'; data: { test_mode: boolean; test_mode_email: string | null; now: string } }
  | { type: 'SetRateTier'; data: { tier: RateTier; now: string } };

export interface Tenant extends TenantProfile {
  id: string;
  organization_id: string;
  created_at: string;
  updated_at: string;
  is_deleted: boolean;
  test_mode: boolean;
  test_mode_email: string | null;
  rate_tier: RateTier;
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
      case 'SetTestMode':
        requirePresent(state);
        if (state.test_mode === command.data.test_mode && state.test_mode_email === command.data.test_mode_email) return [];
        return [
          {
            type: 'TenantTestModeChanged',
            data: {
              tenant_id: state.id,
              test_mode: command.data.test_mode,
              test_mode_email: command.data.test_mode_email,
              changed_at: command.data.now,
            },
          },
        ];
      case 'SetRateTier':
        requirePresent(state);
        if (state.rate_tier === command.data.tier) return [];
        return [{ type: 'TenantRateTierChanged', data: { tenant_id: state.id, tier: command.data.tier, changed_at: command.data.now } }];
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
        return { ...state, test_mode: event.data.test_mode, test_mode_email: event.data.test_mode_email, updated_at: event.data.changed_at };
      case 'TenantRateTierChanged':
        return { ...state, rate_tier: event.data.tier, updated_at: event.data.changed_at };
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
export const tenantNameStream = (name: string) => `tenantname-${tenantNameKey(name)}`;
