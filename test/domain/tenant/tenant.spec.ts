import { deciderSpec } from '../../support/deciderSpec.js';
import { tenantDecider, tenantNameKey, type TenantEvent } from '../../../src/domain/tenant/tenant.js';
import { expect } from 'chai';

const spec = deciderSpec(tenantDecider);
const created: TenantEvent = {
  type: 'TenantCreated',
  data: {
    tenant_id: 't1',
    organization_id: 'o1',
    name: 'acme',
    description: null,
    company_number: '0123456749',
    company_tax_id: 'BE0123456749',
    peppol_ids: ['0208:0123456749'],
    created_at: '2026-01-01T00:00:00.000Z',
  },
};
const now = '2026-02-01T00:00:00.000Z';

describe('Tenant decider', () => {
  it('creates a tenant that does not exist yet', () => {
    const { tenant_id, organization_id, created_at: _c, ...profile } = created.data;
    spec
      .given([])
      .when({ type: 'CreateTenant', data: { ...profile, tenant_id, organization_id, now: created.data.created_at } })
      .then([created]);
  });

  it('refuses to create a tenant twice', () => {
    const { tenant_id, organization_id, created_at: _c, ...profile } = created.data;
    spec
      .given([created])
      .when({ type: 'CreateTenant', data: { ...profile, tenant_id, organization_id, now } })
      .thenRefuses('conflict');
  });

  it('updates the profile but not the name', () => {
    spec
      .given([created])
      .when({
        type: 'UpdateTenant',
        data: { description: 'd', company_number: null, company_tax_id: null, peppol_ids: [], now },
      })
      .then([
        {
          type: 'TenantUpdated',
          data: {
            tenant_id: 't1',
            description: 'd',
            company_number: null,
            company_tax_id: null,
            peppol_ids: [],
            updated_at: now,
          },
        },
      ]);
  });

  it('does not update a deleted tenant, and deleting twice changes nothing', () => {
    const deleted: TenantEvent = { type: 'TenantDeleted', data: { tenant_id: 't1', deleted_at: now } };
    spec
      .given([created, deleted])
      .when({
        type: 'UpdateTenant',
        data: { description: null, company_number: null, company_tax_id: null, peppol_ids: [], now },
      })
      .thenRefuses('invalid_state');
    spec.given([created, deleted]).when({ type: 'DeleteTenant', data: { now } }).thenNothingHappens();
  });

  it('refuses a name change but accepts the unchanged name repeated', () => {
    const { tenant_id: _t, organization_id: _o, created_at: _c, name, ...profile } = created.data;
    spec
      .given([created])
      .when({ type: 'UpdateTenant', data: { ...profile, name: 'other', now } })
      .thenRefuses('invalid', /name cannot be changed/);
    spec
      .given([created])
      .when({ type: 'UpdateTenant', data: { ...profile, description: 'd', name, now } })
      .then([{ type: 'TenantUpdated', data: { ...profile, description: 'd', tenant_id: 't1', updated_at: now } }]);
  });

  it('records nothing when an update changes nothing', () => {
    const { tenant_id: _t, organization_id: _o, created_at: _c, name: _n, ...profile } = created.data;
    spec
      .given([created])
      .when({ type: 'UpdateTenant', data: { ...profile, now } })
      .thenNothingHappens();
  });

  it('refuses malformed registration numbers on create and update', () => {
    const { tenant_id, organization_id, created_at: _c, name: _n, ...profile } = created.data;
    spec
      .given([])
      .when({
        type: 'CreateTenant',
        data: { ...profile, name: 'x', company_tax_id: 'BE0123456748', tenant_id, organization_id, now },
      })
      .thenRefuses('invalid', /company_tax_id/);
    spec
      .given([created])
      .when({ type: 'UpdateTenant', data: { ...profile, company_number: '0123456748', now } })
      .thenRefuses('invalid', /company_number/);
    spec
      .given([created])
      .when({ type: 'UpdateTenant', data: { ...profile, peppol_ids: ['0208:123'], now } })
      .thenRefuses('invalid', /peppol_ids/);
  });

  it('deletes a tenant once; an absent tenant cannot be deleted', () => {
    spec
      .given([created])
      .when({ type: 'DeleteTenant', data: { now } })
      .then([{ type: 'TenantDeleted', data: { tenant_id: 't1', deleted_at: now } }]);
    spec.given([]).when({ type: 'DeleteTenant', data: { now } }).thenRefuses('not_found');
  });

  it('turns test mode on with an address, and setting the same again records nothing; anything but one e-mail address is refused', () => {
    const on: TenantEvent = {
      type: 'TenantTestModeChanged',
      data: { tenant_id: 't1', test_mode: true, test_mode_email: 'a@b.be', changed_at: now },
    };
    spec
      .given([created])
      .when({ type: 'SetTestMode', data: { test_mode: true, test_mode_email: 'a@b.be', now } })
      .then([on]);
    spec
      .given([created, on])
      .when({ type: 'SetTestMode', data: { test_mode: true, test_mode_email: 'a@b.be', now } })
      .thenNothingHappens();
    for (const bad of ['a@b.be\r\nBcc: x@evil.test', 'a@b.be, x@evil.test', 'Name <a@b.be>', 'not an address']) {
      spec
        .given([created, on])
        .when({ type: 'SetTestMode', data: { test_mode: true, test_mode_email: bad, now } })
        .thenRefuses('invalid', /^email must be one e-mail address/);
    }
  });

  it('never turns test mode on without an address; switching it off keeps the address unless null removes it', () => {
    const on: TenantEvent = {
      type: 'TenantTestModeChanged',
      data: { tenant_id: 't1', test_mode: true, test_mode_email: 'a@b.be', changed_at: now },
    };
    const off = (email: string | null): TenantEvent => ({
      type: 'TenantTestModeChanged',
      data: { tenant_id: 't1', test_mode: false, test_mode_email: email, changed_at: now },
    });
    for (const test_mode_email of [undefined, null]) {
      spec
        .given([created])
        .when({ type: 'SetTestMode', data: { test_mode: true, test_mode_email, now } })
        .thenRefuses('invalid', /^Test mode needs the e-mail address its documents go to/, ['body', 'email']);
    }
    spec
      .given([created, on])
      .when({ type: 'SetTestMode', data: { test_mode: false, now } })
      .then([off('a@b.be')]);
    // Back on without an address: the kept one.
    spec
      .given([created, on, off('a@b.be')])
      .when({ type: 'SetTestMode', data: { test_mode: true, now } })
      .then([on]);
    spec
      .given([created, on])
      .when({ type: 'SetTestMode', data: { test_mode: false, test_mode_email: null, now } })
      .then([off(null)]);
    spec
      .given([created, on])
      .when({ type: 'SetTestMode', data: { test_mode: true, test_mode_email: null, now } })
      .thenRefuses('invalid', /^Test mode needs/);
    spec
      .given([created, on])
      .when({ type: 'SetTestMode', data: { test_mode: true, now } })
      .thenNothingHappens();
  });

  it('changes the rate tier; an absent tenant is not found', () => {
    spec
      .given([created])
      .when({ type: 'SetRateTier', data: { tier: 'premium', now } })
      .then([{ type: 'TenantRateTierChanged', data: { tenant_id: 't1', tier: 'premium', changed_at: now } }]);
    spec
      .given([])
      .when({ type: 'SetRateTier', data: { tier: 'premium', now } })
      .thenRefuses('not_found');
  });

  it('starts in live mode on the standard tier', () => {
    const state = tenantDecider.evolve(tenantDecider.initialState(), created);
    expect(state).to.include({ status: 'present', test_mode: false, rate_tier: 'standard', is_deleted: false });
  });

  it('keeps the data of a deleted tenant and marks it deleted', () => {
    const state = [
      created,
      { type: 'TenantDeleted', data: { tenant_id: 't1', deleted_at: now } } as TenantEvent,
    ].reduce(tenantDecider.evolve, tenantDecider.initialState());
    expect(state).to.include({
      status: 'present',
      is_deleted: true,
      name: 'acme',
      company_tax_id: 'BE0123456749',
      updated_at: now,
    });
  });

  it('treats names differing only in case, spaces or punctuation as the same name', () => {
    expect(tenantNameKey('Acme Corp')).to.equal(tenantNameKey('acme-corp'));
    expect(tenantNameKey('acme')).to.not.equal(tenantNameKey('acme2'));
  });

  describe('Peppol registration', () => {
    const registered: TenantEvent = {
      type: 'TenantPeppolRegistered',
      data: {
        tenant_id: 't1',
        peppol_id: '0208:0123456749',
        company_name: 'Acme NV',
        country_code: 'BE',
        simulated: false,
        registered_at: now,
      },
    };
    const register = (peppol_id = '0208:0123456749', company_name = 'Acme NV') =>
      ({ type: 'RegisterPeppol', data: { peppol_id, company_name, country_code: 'BE', now } }) as const;
    const later = '2026-03-01T00:00:00.000Z';

    it('registers the profile identifier, normalised, live when not in test mode', () => {
      spec.given([created]).when(register('iso6523-actorid-upis::0208:0123456749')).then([registered]);
    });

    it('simulates the registration of a tenant in test mode', () => {
      const testMode: TenantEvent = {
        type: 'TenantTestModeChanged',
        data: { tenant_id: 't1', test_mode: true, test_mode_email: 'a@b.be', changed_at: now },
      };
      spec
        .given([created, testMode])
        .when(register())
        .then([{ ...registered, data: { ...registered.data, simulated: true } }]);
    });

    it('is idempotent for the same id, updates the card for a new name, and refuses another id with 409', () => {
      spec.given([created, registered]).when(register()).thenNothingHappens();
      spec
        .given([created, registered])
        .when(register('0208:0123456749', 'Acme BV'))
        .then([
          {
            type: 'TenantBusinessCardUpdated',
            data: { tenant_id: 't1', peppol_id: '0208:0123456749', company_name: 'Acme BV', updated_at: now },
          },
        ]);
      const noProfileId: TenantEvent = { ...created, data: { ...created.data, peppol_ids: [] } };
      spec
        .given([noProfileId, registered])
        .when(register('0208:0202239951'))
        .thenRefuses('conflict', /already registered as 0208:0123456749/);
    });

    it("refuses an id other than the profile's, a bad id, an empty name and a bad country", () => {
      spec
        .given([created])
        .when(register('0208:0202239951'))
        .thenRefuses('conflict', /peppol_ids/);
      spec
        .given([created])
        .when(register('0208:0123456748'))
        .thenRefuses('invalid', /peppol_id/);
      spec
        .given([created])
        .when(register('0208:0123456749', '  '))
        .thenRefuses('invalid', /company_name/);
      spec
        .given([created])
        .when({
          type: 'RegisterPeppol',
          data: { peppol_id: '0208:0123456749', company_name: 'A', country_code: 'XX', now },
        })
        .thenRefuses('invalid', /country_code/);
    });

    it('refuses to register a deleted or absent tenant', () => {
      const deleted: TenantEvent = { type: 'TenantDeleted', data: { tenant_id: 't1', deleted_at: now } };
      spec
        .given([created, deleted])
        .when(register())
        .thenRefuses('invalid_state', /deleted/);
      spec.given([]).when(register()).thenRefuses('not_found');
    });

    it('updates the business card name only when registered', () => {
      spec
        .given([created])
        .when({ type: 'UpdateBusinessCard', data: { company_name: 'X', now } })
        .thenRefuses('invalid_state', /not registered/);
      spec
        .given([created, registered])
        .when({ type: 'UpdateBusinessCard', data: { company_name: ' Acme NV ', now } })
        .thenNothingHappens();
      spec
        .given([created, registered])
        .when({ type: 'UpdateBusinessCard', data: { company_name: 'Acme Group', now: later } })
        .then([
          {
            type: 'TenantBusinessCardUpdated',
            data: { tenant_id: 't1', peppol_id: '0208:0123456749', company_name: 'Acme Group', updated_at: later },
          },
        ]);
    });

    it('unregisters only when registered, and can register again afterwards', () => {
      const unregistered: TenantEvent = {
        type: 'TenantPeppolUnregistered',
        data: { tenant_id: 't1', peppol_id: '0208:0123456749', unregistered_at: later },
      };
      spec
        .given([created])
        .when({ type: 'UnregisterPeppol', data: { now } })
        .thenRefuses('invalid_state', /not registered/);
      spec
        .given([created, registered])
        .when({ type: 'UnregisterPeppol', data: { now: later } })
        .then([unregistered]);
      spec.given([created, registered, unregistered]).when(register()).then([registered]);
    });

    it('refuses to move the profile away from the registered identifier', () => {
      const { tenant_id: _t, organization_id: _o, created_at: _c, name: _n, ...profile } = created.data;
      spec
        .given([created, registered])
        .when({ type: 'UpdateTenant', data: { ...profile, peppol_ids: ['0208:0202239951'], now } })
        .thenRefuses('conflict', /unregister/);
      spec
        .given([created, registered])
        .when({
          type: 'UpdateTenant',
          data: { ...profile, peppol_ids: ['iso6523-actorid-upis::0208:0123456749'], description: 'x', now },
        })
        .then([
          {
            type: 'TenantUpdated',
            data: {
              ...profile,
              peppol_ids: ['iso6523-actorid-upis::0208:0123456749'],
              description: 'x',
              tenant_id: 't1',
              updated_at: now,
            },
          },
        ]);
    });

    it('keeps the registration in the state, with the card update time', () => {
      const card: TenantEvent = {
        type: 'TenantBusinessCardUpdated',
        data: { tenant_id: 't1', peppol_id: '0208:0123456749', company_name: 'Acme Group', updated_at: later },
      };
      const state = [created, registered, card].reduce(tenantDecider.evolve, tenantDecider.initialState());
      expect(state.status === 'present' && state.peppol_registration).to.deep.equal({
        peppol_id: '0208:0123456749',
        company_name: 'Acme Group',
        country_code: 'BE',
        simulated: false,
        registered_at: now,
        updated_at: later,
      });
    });
  });
});
