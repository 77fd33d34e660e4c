import { expect } from 'chai';
import { deciderSpec } from '../../support/deciderSpec.js';
import { organizationDecider, type OrganizationEvent } from '../../../src/domain/organization/organization.js';
import { retentionEnd, retentionOver } from '../../../src/domain/organization/retention.js';

const spec = deciderSpec(organizationDecider);
const created: OrganizationEvent = {
  type: 'OrganizationCreated',
  data: { organization_id: 'o1', name: 'Reseller', created_at: '2026-01-01T00:00:00.000Z' },
};
const set = (retention_years: number, reason = 'AWR art. 52') => ({
  type: 'SetRetention' as const,
  data: { retention_years, reason, now: '2026-02-01T00:00:00.000Z' },
});

describe('Organization retention', () => {
  it('runs ten years by default from 1 January after the document date (Belgian VAT Code art. 60 §4)', () => {
    const state = organizationDecider.evolve(organizationDecider.initialState(), created);
    expect(state).to.include({ retention_years: 10 });
    // An invoice of 15 March 2024 is kept through 31 December 2034.
    expect(retentionEnd('2024-03-15', 10)).to.equal('2035-01-01');
    expect(retentionEnd('2024-12-31T23:00:00.000Z', 10)).to.equal('2035-01-01');
    expect(retentionEnd('2024-01-01', 7)).to.equal('2032-01-01');
    expect(retentionOver('2035-01-01', '2034-12-31')).to.equal(false);
    expect(retentionOver('2035-01-01', '2035-01-01')).to.equal(true);
  });

  it('is set per organization by a whole number of years with a reason; the same value again records nothing', () => {
    spec
      .given([created])
      .when(set(7, '  Dutch tenants: AWR art. 52(4) '))
      .then([
        {
          type: 'OrganizationRetentionChanged',
          data: {
            organization_id: 'o1',
            retention_years: 7,
            reason: 'Dutch tenants: AWR art. 52(4)',
            changed_at: '2026-02-01T00:00:00.000Z',
          },
        },
      ]);
    spec.given([created]).when(set(10)).thenNothingHappens();
    const changed = {
      type: 'OrganizationRetentionChanged' as const,
      data: { organization_id: 'o1', retention_years: 7, reason: 'x', changed_at: 'now' },
    };
    expect([created, changed].reduce(organizationDecider.evolve, organizationDecider.initialState())).to.include({
      retention_years: 7,
    });
  });

  it('refuses other periods, no reason, and an organization that does not exist', () => {
    for (const years of [0, 51, 7.5, Number.NaN])
      spec
        .given([created])
        .when(set(years))
        .thenRefuses('invalid', /retention_years/, ['body', 'retention_years']);
    spec
      .given([created])
      .when(set(7, ' '))
      .thenRefuses('invalid', /reason/, ['body', 'reason']);
    spec.given([]).when(set(7)).thenRefuses('not_found');
  });
});
