import { expect } from 'chai';
import { deciderSpec } from '../../support/deciderSpec.js';
import { apiKeyDecider, type ApiKeyEvent } from '../../../src/domain/apiKey/apiKey.js';
import { generateApiKey, keyIdOf, keyMatchesHash } from '../../../src/domain/apiKey/apiKeySecret.js';

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
    spec.given([]).when({ type: 'IssueApiKey', data: { ...data, now: issued_at } }).then([issued]);
    spec.given([issued]).when({ type: 'IssueApiKey', data: { ...data, now } }).thenRefuses('conflict');
  });

  it('revokes an active key; revoking again records nothing; renaming a revoked key is refused', () => {
    const revoked: ApiKeyEvent = { type: 'ApiKeyRevoked', data: { key_id: 'k1', revoked_at: now } };
    spec.given([issued]).when({ type: 'RevokeApiKey', data: { key_id: 'k1', now } }).then([revoked]);
    spec.given([issued, revoked]).when({ type: 'RevokeApiKey', data: { key_id: 'k1', now } }).thenNothingHappens();
    spec.given([issued, revoked]).when({ type: 'RenameApiKey', data: { key_id: 'k1', name: 'x', description: null, now } }).thenRefuses('invalid_state');
  });

  it('refuses to revoke or rename a key that does not exist', () => {
    spec.given([]).when({ type: 'RevokeApiKey', data: { key_id: 'k1', now } }).thenRefuses('not_found');
  });
});

describe('API key secrets', () => {
  it('generates keys that carry their record id and match only their own hash', () => {
    const a = generateApiKey();
    const b = generateApiKey();
    expect(a.key).to.match(/^ik_[0-9a-f]{32}\.[A-Za-z0-9_-]{43}$/);
    expect(keyIdOf(a.key)).to.equal(a.keyId);
    expect(keyMatchesHash(a.key, a.hash)).to.equal(true);
    expect(keyMatchesHash(b.key, a.hash)).to.equal(false);
    expect(keyMatchesHash(a.key, 'short')).to.equal(false);
    expect(a.prefix).to.equal(a.key.slice(0, 11));
  });

  it('derives a stable id for keys of another form (bootstrap keys)', () => {
    expect(keyIdOf('my-chosen-admin-key')).to.equal(keyIdOf('my-chosen-admin-key'));
    expect(keyIdOf('my-chosen-admin-key')).to.match(/^[0-9a-f-]{36}$/);
    expect(keyIdOf('my-chosen-admin-key')).to.not.equal(keyIdOf('another-key'));
  });
});
