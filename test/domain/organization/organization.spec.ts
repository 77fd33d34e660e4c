import { deciderSpec } from '../../support/deciderSpec.js';
import { organizationDecider } from '../../../src/domain/organization/organization.js';

const spec = deciderSpec(organizationDecider);

describe('Organization decider', () => {
  it('creates an organization once', () => {
    const created = {
      type: 'OrganizationCreated' as const,
      data: { organization_id: 'o1', name: 'Reseller', created_at: 'now' },
    };
    spec
      .given([])
      .when({ type: 'CreateOrganization', data: { organization_id: 'o1', name: 'Reseller', now: 'now' } })
      .then([created]);
    spec
      .given([created])
      .when({ type: 'CreateOrganization', data: { organization_id: 'o1', name: 'Again', now: 'later' } })
      .thenRefuses('conflict');
  });
});
