import { expect } from 'chai';
import { generateApiKey, hashApiKey, keyIdOf, keyMatchesHash } from '../../../src/application/accounts/apiKeySecret.js';

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

  it('stores the SHA-256 of the key, hex (the form every stored key hash already has)', () => {
    // FIPS 180-2 test vector: SHA-256("abc").
    expect(hashApiKey('abc')).to.equal('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(keyIdOf('abc')).to.equal('ba7816bf-8f01-cfea-4141-40de5dae2223');
  });
});
