import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { CheckpointConflictError, type ReadModelStore } from '../../src/application/ports/readModelStore.js';

export interface ReadModelStoreFixture {
  store: ReadModelStore;
  /** Whether writes and the checkpoint commit atomically (a failing batch leaves nothing). */
  atomicCheckpoint: boolean;
  dispose(): Promise<void>;
}

interface Doc {
  id: string;
  tenant_id: string;
  name: string;
  total: number;
  created_at: string;
  tags?: string[];
  party?: { country: string | null };
}

const docs: Doc[] = [
  {
    id: 'a',
    tenant_id: 't1',
    name: 'Acme 100% Widgets',
    total: 100.5,
    created_at: '2026-01-03T10:00:00Z',
    party: { country: 'BE' },
  },
  {
    id: 'b',
    tenant_id: 't1',
    name: 'beta_corp',
    total: 20,
    created_at: '2026-01-01T10:00:00Z',
    party: { country: 'NL' },
  },
  { id: 'c', tenant_id: 't1', name: 'Gamma', total: 3, created_at: '2026-01-02T10:00:00Z', party: { country: null } },
  { id: 'd', tenant_id: 't2', name: 'Delta', total: 1000, created_at: '2026-01-04T10:00:00Z' },
];

/** The behaviour every read-model store adapter must have; each adapter's test calls this. */
export function readModelStoreContract(adapterName: string, create: () => Promise<ReadModelStoreFixture>): void {
  describe(`ReadModelStore contract: ${adapterName}`, function () {
    let fixture: ReadModelStoreFixture;
    let store: ReadModelStore;
    let name: string;

    before(async () => {
      fixture = await create();
      store = fixture.store;
    });
    after(async () => fixture?.dispose());

    beforeEach(async () => {
      name = `c_${randomBytes(4).toString('hex')}`;
      const definition = {
        name,
        indexes: [
          { fields: [{ field: 'tenant_id' }, { field: 'created_at', direction: 'desc' as const }] },
          { fields: [{ field: 'party.country' }] },
        ],
      };
      await store.ensureCollections([definition]);
      await store.ensureCollections([definition]); // idempotent
      for (const doc of docs) await store.collection<Doc>(name).upsert(doc.id, doc);
    });

    it('gets, replaces and deletes by key', async () => {
      const c = store.collection<Doc>(name);
      expect(await c.get('a')).to.deep.include({ name: 'Acme 100% Widgets', total: 100.5 });
      await c.upsert('a', { ...docs[0]!, name: 'Renamed' });
      expect((await c.get('a'))!.name).to.equal('Renamed');
      await c.delete('a');
      expect(await c.get('a')).to.equal(null);
      expect(await c.get('nope')).to.equal(null);
    });

    it('upserts many at once: new keys inserted, existing ones replaced, nothing for none', async () => {
      const c = store.collection<Doc>(name);
      await c.upsertMany([]);
      await c.upsertMany([
        ['a', { ...docs[0]!, name: 'Replaced' }],
        ['z1', { ...docs[1]!, id: 'z1' }],
        ['z2', { ...docs[2]!, id: 'z2', name: 'New "quoted" \\ name' }],
      ]);
      expect((await c.get('a'))!.name).to.equal('Replaced');
      expect((await c.get('z1'))!.tenant_id).to.equal(docs[1]!.tenant_id);
      expect((await c.get('z2'))!.name).to.equal('New "quoted" \\ name');
      await c.upsertMany([['z1', { ...docs[1]!, id: 'z1', name: 'Alone' }]]);
      expect((await c.get('z1'))!.name).to.equal('Alone');
      expect((await c.find()).total).to.equal(docs.length + 2);
    });

    it('gets several by key at once, skipping keys that do not exist', async () => {
      const c = store.collection<Doc>(name);
      const found = await c.getMany(['b', 'nope', 'c']);
      expect(found.map((d) => d.id).sort()).to.deep.equal(['b', 'c']);
      expect(await c.getMany([])).to.deep.equal([]);
    });

    it('filters by equality, inequality and membership, including nested fields and null', async () => {
      const c = store.collection<Doc>(name);
      const ids = async (filter: Parameters<typeof c.find>[0]) => (await c.find(filter)).items.map((d) => d.id).sort();
      expect(await ids({ filter: { op: 'eq', field: 'tenant_id', value: 't1' } })).to.deep.equal(['a', 'b', 'c']);
      expect(await ids({ filter: { op: 'ne', field: 'tenant_id', value: 't1' } })).to.deep.equal(['d']);
      expect(await ids({ filter: { op: 'in', field: 'name', values: ['Gamma', 'Delta', 'x'] } })).to.deep.equal([
        'c',
        'd',
      ]);
      expect(await ids({ filter: { op: 'in', field: 'name', values: [] } })).to.deep.equal([]);
      expect(await ids({ filter: { op: 'eq', field: 'party.country', value: 'NL' } })).to.deep.equal(['b']);
      expect(await ids({ filter: { op: 'eq', field: 'party.country', value: null } })).to.deep.equal(['c', 'd']);
    });

    it('compares numbers numerically and strings lexically', async () => {
      const c = store.collection<Doc>(name);
      const ids = async (filter: Parameters<typeof c.find>[0]) => (await c.find(filter)).items.map((d) => d.id).sort();
      expect(await ids({ filter: { op: 'gt', field: 'total', value: 20 } })).to.deep.equal(['a', 'd']);
      expect(await ids({ filter: { op: 'gte', field: 'total', value: 20 } })).to.deep.equal(['a', 'b', 'd']);
      expect(await ids({ filter: { op: 'lt', field: 'total', value: 20 } })).to.deep.equal(['c']);
      expect(await ids({ filter: { op: 'lte', field: 'created_at', value: '2026-01-02T10:00:00Z' } })).to.deep.equal([
        'b',
        'c',
      ]);
    });

    it('matches substrings case-insensitively, with % and _ taken literally', async () => {
      const c = store.collection<Doc>(name);
      const ids = async (value: string) =>
        (await c.find({ filter: { op: 'contains', field: 'name', value } })).items.map((d) => d.id).sort();
      expect(await ids('ACME')).to.deep.equal(['a']);
      expect(await ids('100%')).to.deep.equal(['a']);
      expect(await ids('a_c')).to.deep.equal(['b']);
      expect(await ids('%')).to.deep.equal(['a']);
      expect(await ids('zzz')).to.deep.equal([]);
    });

    it('combines filters with and/or', async () => {
      const c = store.collection<Doc>(name);
      const page = await c.find({
        filter: {
          op: 'and',
          filters: [
            { op: 'eq', field: 'tenant_id', value: 't1' },
            {
              op: 'or',
              filters: [
                { op: 'contains', field: 'name', value: 'gam' },
                { op: 'gt', field: 'total', value: 50 },
              ],
            },
          ],
        },
      });
      expect(page.items.map((d) => d.id).sort()).to.deep.equal(['a', 'c']);
    });

    it('sorts, pages and counts the whole match', async () => {
      const c = store.collection<Doc>(name);
      const byTotalDesc = await c.find({ sort: [{ field: 'total', direction: 'desc' }] });
      expect(byTotalDesc.items.map((d) => d.id)).to.deep.equal(['d', 'a', 'b', 'c']);
      const page = await c.find({
        filter: { op: 'eq', field: 'tenant_id', value: 't1' },
        sort: [{ field: 'created_at', direction: 'asc' }],
        skip: 1,
        limit: 1,
      });
      expect(page.items.map((d) => d.id)).to.deep.equal(['c']);
      expect(page.total).to.equal(3);
      const beyond = await c.find({ filter: { op: 'eq', field: 'tenant_id', value: 't1' }, skip: 10, limit: 5 });
      expect(beyond.items).to.deep.equal([]);
      expect(beyond.total).to.equal(3);
      const byName = await c.find({
        sort: [
          { field: 'tenant_id', direction: 'desc' },
          { field: 'name', direction: 'asc' },
        ],
      });
      expect(byName.items.map((d) => d.id)).to.deep.equal(['d', 'a', 'c', 'b']);
    });

    it('commits writes together with the checkpoint and refuses a stale checkpoint', async () => {
      const checkpoint = `cp_${name}`;
      expect(await store.getCheckpoint(checkpoint)).to.equal(null);
      await store.commitWithCheckpoint(checkpoint, null, 5n, async (session) => {
        await session.collection<Doc>(name).upsert('e', { ...docs[0]!, id: 'e' });
      });
      expect(await store.getCheckpoint(checkpoint)).to.equal(5n);
      expect(await store.collection<Doc>(name).get('e')).to.not.equal(null);

      let error: unknown = null;
      try {
        await store.commitWithCheckpoint(checkpoint, 3n, 9n, async (session) => {
          await session.collection<Doc>(name).upsert('f', { ...docs[0]!, id: 'f' });
          await session.collection<Doc>(name).upsertMany([
            ['g', { ...docs[0]!, id: 'g' }],
            ['h', { ...docs[0]!, id: 'h' }],
          ]);
        });
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(CheckpointConflictError);
      expect(await store.getCheckpoint(checkpoint)).to.equal(5n);
      expect(await store.collection<Doc>(name).get('f')).to.equal(null);
      expect(await store.collection<Doc>(name).getMany(['g', 'h'])).to.deep.equal([]);

      error = null;
      try {
        await store.commitWithCheckpoint(checkpoint, null, 9n, async () => undefined);
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(CheckpointConflictError);

      await store.resetCheckpoint(checkpoint);
      expect(await store.getCheckpoint(checkpoint)).to.equal(null);
    });

    it('leaves neither writes nor checkpoint behind when the batch fails (atomic adapters)', async function () {
      if (!fixture.atomicCheckpoint) {
        // Not a skip: a non-transactional adapter must still leave the checkpoint unmoved.
        const checkpoint = `cp_fail_${name}`;
        await store
          .commitWithCheckpoint(checkpoint, null, 1n, async () => {
            throw new Error('handler failed');
          })
          .catch(() => undefined);
        expect(await store.getCheckpoint(checkpoint)).to.equal(null);
        return;
      }
      const checkpoint = `cp_fail_${name}`;
      await store
        .commitWithCheckpoint(checkpoint, null, 1n, async (session) => {
          await session.collection<Doc>(name).upsert('g', { ...docs[0]!, id: 'g' });
          throw new Error('handler failed');
        })
        .catch(() => undefined);
      expect(await store.getCheckpoint(checkpoint)).to.equal(null);
      expect(await store.collection<Doc>(name).get('g')).to.equal(null);
    });

    it('clears collections', async () => {
      await store.clearCollections([name]);
      expect((await store.collection<Doc>(name).find()).total).to.equal(0);
    });
  });
}
