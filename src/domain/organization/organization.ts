import { assertNever, type Decider, type Event } from '../decider.js';
import { conflict } from '../errors.js';

/** A reseller organization: the holder of organization (admin) keys, owner of tenants. */
export type OrganizationEvent = Event<
  'OrganizationCreated',
  { organization_id: string; name: string; created_at: string }
>;

export type OrganizationCommand = {
  type: 'CreateOrganization';
  data: { organization_id: string; name: string; now: string };
};

export type OrganizationState =
  { status: 'absent' } | { status: 'active'; id: string; name: string; created_at: string };

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
      default:
        return assertNever(command.type);
    }
  },

  evolve(_state, event) {
    switch (event.type) {
      case 'OrganizationCreated':
        return {
          status: 'active',
          id: event.data.organization_id,
          name: event.data.name,
          created_at: event.data.created_at,
        };
      default:
        return assertNever(event.type);
    }
  },
};
