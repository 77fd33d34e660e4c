import { expect } from 'chai';
import { deciderSpec } from '../../support/deciderSpec.js';
import { tenantDecider, type TenantEvent } from '../../../src/domain/tenant/tenant.js';
import { ERASED } from '../../../src/domain/personalData/personalFields.js';

const spec = deciderSpec(tenantDecider);
const created: TenantEvent = {
  type: 'TenantCreated',
  data: {
    tenant_id: 't1',
    organization_id: 'o1',
    name: 'acme',
    description: null,
    company_number: null,
    company_tax_id: null,
    peppol_ids: [],
    created_at: '2026-01-01T00:00:00.000Z',
  },
};
const testMode: TenantEvent = {
  type: 'TenantTestModeChanged',
  data: { tenant_id: 't1', test_mode: true, test_mode_email: 'jan@acme.be', changed_at: '2026-01-02T00:00:00.000Z' },
};
const now = '2026-06-01T10:00:00.000Z';
const erase = (data: Partial<{ reason: string; legal_basis: string | null; retention_until: string | null }>) => ({
  type: 'ErasePersonalData' as const,
  data: { reason: 'asked', legal_basis: null, retention_until: null, key_version: 3, now, ...data },
});
const erased = (data: Partial<Extract<TenantEvent, { type: 'TenantPersonalDataErased' }>['data']>): TenantEvent => ({
  type: 'TenantPersonalDataErased',
  data: {
    tenant_id: 't1',
    reason: 'asked',
    legal_basis: null,
    retention_until: null,
    retention_overridden: false,
    key_version: 3,
    erased_at: now,
    ...data,
  },
});

describe('Tenant decider: erasure of personal data', () => {
  it('erases once the retention period is over, or when there is none', () => {
    spec
      .given([created])
      .when(erase({}))
      .then([erased({})]);
    spec
      .given([created])
      .when(erase({ retention_until: '2026-01-01' }))
      .then([erased({ retention_until: '2026-01-01' })]);
    // The retention ends at the start of its last day: on that day it is over.
    spec
      .given([created])
      .when(erase({ retention_until: '2026-06-01' }))
      .then([erased({ retention_until: '2026-06-01' })]);
  });

  it('refuses within the retention period, unless a legal basis overrides it', () => {
    spec
      .given([created])
      .when(erase({ retention_until: '2036-01-01' }))
      .thenRefuses('invalid_state', /must be kept until 2036-01-01.*legal_basis/);
    spec
      .given([created])
      .when(erase({ retention_until: '2036-01-01', legal_basis: '   ' }))
      .thenRefuses('invalid_state');
    spec
      .given([created])
      .when(erase({ retention_until: '2036-01-01', legal_basis: ' Court order 2026/123 ', reason: ' asked ' }))
      .then([
        erased({ retention_until: '2036-01-01', legal_basis: 'Court order 2026/123', retention_overridden: true }),
      ]);
  });

  it('needs a reason, and a tenant', () => {
    spec
      .given([created])
      .when(erase({ reason: ' ' }))
      .thenRefuses('invalid', /reason/, ['body', 'reason']);
    spec.given([]).when(erase({})).thenRefuses('not_found');
  });

  it('shows the test-mode address as erased afterwards, and takes it for no address', () => {
    const state = [created, testMode, erased({})].reduce(tenantDecider.evolve, tenantDecider.initialState());
    expect(state).to.include({ test_mode_email: ERASED, personal_data_erased_at: now });
    // Turning test mode on again needs a new address: the erased one is none.
    spec
      .given([created, testMode, erased({})])
      .when({ type: 'SetTestMode', data: { test_mode: true, now } })
      .thenRefuses('invalid', /e-mail address/, ['body', 'email']);
  });
});
