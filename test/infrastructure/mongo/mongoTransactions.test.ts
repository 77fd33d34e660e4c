import { expect } from 'chai';
import { supportsTransactions } from '../../../src/infrastructure/mongo/mongoReadModelStore.js';

describe('MongoDB read models: whether the server has transactions', () => {
  const mongod = { version: '8.0.4', ok: 1 };
  const ferretdb = { version: '7.0.77', ferretdbVersion: 'v1.24.2', ok: 1 };

  it('uses them on a replica-set member and behind a mongos', () => {
    expect(supportsTransactions({ isWritablePrimary: true, setName: 'rs0' }, mongod)).to.equal(true);
    expect(supportsTransactions({ isWritablePrimary: true, msg: 'isdbgrid' }, mongod)).to.equal(true);
  });

  it('does not on a standalone server', () => {
    expect(supportsTransactions({ isWritablePrimary: true }, mongod)).to.equal(false);
  });

  it('does not on FerretDB, even when it reports a replica set', () => {
    expect(supportsTransactions({ isWritablePrimary: true }, ferretdb)).to.equal(false);
    expect(supportsTransactions({ isWritablePrimary: true, setName: 'rs0' }, ferretdb)).to.equal(false);
  });
});
