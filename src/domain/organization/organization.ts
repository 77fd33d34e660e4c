import { assertNever, type Decider, type Event } from '../decider.js';
import { conflict, invalid, notFound } from '../errors.js';
import { DEFAULT_RETENTION_YEARS, isRetentionYears, MAX_RETENTION_YEARS, MIN_RETENTION_YEARS } from './retention.js';

/** A reseller organization: the holder of organization (admin) keys, owner of tenants. */
export type OrganizationCreated = Event<
  'OrganizationCreated',
  { organization_id: string; name: string; created_at: string }
>;
/** How long its tenants' accounting documents are kept (retention.ts); set by the operator, with the reason. */
export type OrganizationRetentionChanged = Event<
  'OrganizationRetentionChanged',
  { organization_id: string; retention_years: number; reason: string; changed_at: string }
>;
export type OrganizationEvent = OrganizationCreated | OrganizationRetentionChanged;

export type OrganizationCommand =
  | { type: 'CreateOrganization'; data: { organization_id: string; name: string; now: string } }
  | { type: 'SetRetention'; data: { retention_years: number; reason: string; now: string } };

export type OrganizationState =
  { status: 'absent' } | { status: 'active'; id: string; name: string; created_at: string; retention_years: number };

export const organizationStream = (id: string) => `organization-${id}`;

export const organizationDecider: Decider<OrganizationState, OrganizationCommand, OrganizationEvent> = {
  initialState: () => ({ status: 'absent' }),

  decide(command, state) {
    switch (command.type) {
      case 'CreateOrganization':
        if (state.status !== 'absent') throw conflict(`Organization ${command.data.organization_id} already exists`);
        return [
          {
            type: 'OrganizationCreated',
            data: {
              organization_id: command.data.organization_id,
              name: command.data.name,
              created_at: command.data.now,
            },
          },
        ];
      case 'SetRetention': {
        if (state.status !== 'active') throw notFound('Organization not found');
        const { retention_years, reason, now } = command.data;
        if (!isRetentionYears(retention_years))
          throw invalid(
            `retention_years must be a whole number of years from ${MIN_RETENTION_YEARS} to ${MAX_RETENTION_YEARS}`,
            ['body', 'retention_years'],
          );
        const why = reason.trim();
        if (why.length === 0 || why.length > 1000)
          throw invalid('reason must say why (1 to 1000 characters): the law or agreement it follows', [
            'body',
            'reason',
          ]);
        if (retention_years === state.retention_years) return [];
        return [
          {
            type: 'OrganizationRetentionChanged',
            data: { organization_id: state.id, retention_years, reason: why, changed_at: now },
          },
        ];
      }
      default:
        return assertNever(command);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'OrganizationCreated':
        return {
          status: 'active',
          id: event.data.organization_id,
          name: event.data.name,
          created_at: event.data.created_at,
          retention_years: DEFAULT_RETENTION_YEARS,
        };
      case 'OrganizationRetentionChanged':
        return state.status === 'active' ? { ...state, retention_years: event.data.retention_years } : state;
      default:
        return assertNever(event);
    }
  },
};
