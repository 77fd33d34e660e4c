import { deciderSpec } from '../../support/deciderSpec.js';
import { apiKeyDecider, type ApiKeyEvent } from '../../../src/domain/apiKey/apiKey.js';

const spec = deciderSpec(apiKeyDecider);
const now = '2026-03-01T00:00:00.000Z';
const issued: ApiKeyEvent = {
  type: 'ApiKeyIssued',
  data: {
    key_id: 'k1',
    owner: { kind: 'tenant', organization_id: 'o1', tenant_id: 't1' },
    name: 'app',
    description: null,
    hash: 'ab'.repeat(32),
    prefix: 'ik_0123abcd',
    issued_at: '2026-01-01T00:00:00.000Z',
  },
};

describe('API key decider', () => {
  it('issues a key once', () => {
    const { issued_at, ...data } = issued.data;
    spec
      .given([])
      .when({ type: 'IssueApiKey', data: { ...data, now: issued_at } })
      .then([issued]);
    spec
      .given([issued])
      .when({ type: 'IssueApiKey', data: { ...data, now } })
      .thenRefuses('conflict');
  });

  it('revokes an active key; revoking again records nothing; renaming a revoked key is refused', () => {
    const revoked: ApiKeyEvent = { type: 'ApiKeyRevoked', data: { key_id: 'k1', revoked_at: now } };
    spec
      .given([issued])
      .when({ type: 'RevokeApiKey', data: { key_id: 'k1', now } })
      .then([revoked]);
    spec
      .given([issued, revoked])
      .when({ type: 'RevokeApiKey', data: { key_id: 'k1', now } })
      .thenNothingHappens();
    spec
      .given([issued, revoked])
      .when({ type: 'RenameApiKey', data: { key_id: 'k1', name: 'x', description: null, now } })
      .thenRefuses('invalid_state');
  });

  it('refuses to revoke or rename a key that does not exist', () => {
    spec
      .given([])
      .when({ type: 'RevokeApiKey', data: { key_id: 'k1', now } })
      .thenRefuses('not_found');
  });
});
