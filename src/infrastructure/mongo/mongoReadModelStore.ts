import {
  MongoClient,
  MongoServerError,
  type ClientSession,
  type Collection as MongoCollection,
  type Db,
  type Document,
} from 'mongodb';
import {
  CheckpointConflictError,
  type Collection,
  type CollectionDefinition,
  type Page,
  type Query,
  type ReadModelSession,
  type ReadModelStore,
} from '../../application/ports/readModelStore.js';
import { type StoredDocument, toMongoFilter, toMongoSort } from './mongoFilter.js';

const NAME = /^[a-z][a-z0-9_]{0,40}$/;
const CHECKPOINTS = 'rm_checkpoints';
const NAMESPACE_EXISTS = 48;
const DUPLICATE_KEY = 11000;

/** Checkpoint positions are stored as decimal strings (bigints have no JSON/BSON twin). */
interface StoredCheckpoint {
  _id: string;
  position: string;
}

function collectionName(name: string): string {
  if (!NAME.test(name)) throw new Error(`Invalid collection name ${name}`);
  const full = `rm_${name}`;
  if (full === CHECKPOINTS) throw new Error(`Collection name ${name} is reserved`);
  return full;
}

function isMongoError(error: unknown, code: number): boolean {
  return error instanceof MongoServerError && error.code === code;
}

/**
 * Whether the server runs multi-document transactions, from its `hello` and `buildInfo` answers:
 * a replica-set member (setName) or a mongos in front of replica-set shards. Not FerretDB (its
 * buildInfo carries `ferretdbVersion`): v1 has no commitTransaction and ignores the transaction
 * fields of other commands, yet reports a setName when started with --repl-set-name, so its
 * "transactions" would not be atomic.
 */
export function supportsTransactions(hello: Document, buildInfo: Document): boolean {
  if (typeof buildInfo.ferretdbVersion === 'string') return false;
  return typeof hello.setName === 'string' || hello.msg === 'isdbgrid';
}

function stripKey<T>(stored: StoredDocument): T {
  const { _id, ...doc } = stored;
  return doc as T;
}

/**
 * A document as stored: a JSON round trip gives it exactly the shape the PostgreSQL adapter
 * stores (undefined fields dropped, dates as ISO strings, toJSON honoured), keyed by `_id`.
 */
function stored(id: string, doc: object): StoredDocument {
  const plain = JSON.parse(JSON.stringify(doc)) as Record<string, unknown>;
  if ('_id' in plain) throw new Error('Read-model documents may not have an _id field: it holds the key');
  return { ...plain, _id: id } as StoredDocument;
}

class MongoDocCollection<T extends object> implements Collection<T> {
  constructor(
    private readonly collection: MongoCollection<StoredDocument>,
    private readonly session?: ClientSession,
  ) {}

  async get(id: string): Promise<T | null> {
    const stored = await this.collection.findOne({ _id: id }, { session: this.session });
    return stored ? stripKey<T>(stored) : null;
  }

  async getMany(ids: readonly string[]): Promise<T[]> {
    if (ids.length === 0) return [];
    const stored = await this.collection.find({ _id: { $in: [...ids] } }, { session: this.session }).toArray();
    return stored.map((d) => stripKey<T>(d));
  }

  async upsert(id: string, doc: T): Promise<void> {
    await this.collection.replaceOne({ _id: id }, stored(id, doc), { upsert: true, session: this.session });
  }

  async upsertMany(entries: ReadonlyArray<readonly [string, T]>): Promise<void> {
    if (entries.length === 0) return;
    await this.collection.bulkWrite(
      entries.map(([id, doc]) => ({ replaceOne: { filter: { _id: id }, replacement: stored(id, doc), upsert: true } })),
      { session: this.session, ordered: false },
    );
  }

  async delete(id: string): Promise<void> {
    await this.collection.deleteOne({ _id: id }, { session: this.session });
  }

  async find(query: Query = {}): Promise<Page<T>> {
    const filter = query.filter ? toMongoFilter(query.filter) : {};
    const items = async () => {
      // MongoDB reads limit 0 as "no limit"; the port means none.
      if (query.limit === 0) return [];
      const cursor = this.collection.find(filter, {
        session: this.session,
        sort: toMongoSort(query.sort),
        ...(query.skip ? { skip: query.skip } : {}),
        ...(query.limit === undefined ? {} : { limit: query.limit }),
      });
      return (await cursor.toArray()).map((stored) => stripKey<T>(stored));
    };
    const total = () => this.collection.countDocuments(filter, { session: this.session });
    // A transaction's session runs one operation at a time.
    if (this.session) {
      const found = await items();
      return { items: found, total: await total() };
    }
    const [found, count] = await Promise.all([items(), total()]);
    return { items: found, total: count };
  }
}

/**
 * Read models in MongoDB, one `rm_<name>` collection per read-model collection. On a replica
 * set (or sharded cluster) writes and the checkpoint commit in one transaction; on a
 * standalone server (or FerretDB, which has no transactions) they are applied in order, writes
 * first, which idempotent handlers make safe.
 */
export class MongoReadModelStore implements ReadModelStore {
  private constructor(
    private readonly client: MongoClient,
    private readonly db: Db,
    /** Whether commitWithCheckpoint is atomic (multi-document transactions are available). */
    readonly transactional: boolean,
  ) {}

  /** Connects to `url`; the database is `dbName`, else the one named in the URL. */
  static async connect(url: string, options: { dbName?: string } = {}): Promise<MongoReadModelStore> {
    const client = await new MongoClient(url, { ignoreUndefined: true }).connect();
    try {
      const admin = client.db('admin');
      const transactional = supportsTransactions(
        await admin.command({ hello: 1 }),
        await admin.command({ buildInfo: 1 }),
      );
      const store = new MongoReadModelStore(client, client.db(options.dbName), transactional);
      // Created up front: implicit creation inside a transaction is not possible everywhere.
      await store.createCollection(CHECKPOINTS);
      return store;
    } catch (error) {
      await client.close();
      throw error;
    }
  }

  collection<T extends object>(name: string): Collection<T> {
    return new MongoDocCollection<T>(this.db.collection<StoredDocument>(collectionName(name)));
  }

  private async createCollection(name: string): Promise<void> {
    try {
      await this.db.createCollection(name);
    } catch (error) {
      if (!isMongoError(error, NAMESPACE_EXISTS)) throw error;
    }
  }

  async ensureCollections(definitions: CollectionDefinition[]): Promise<void> {
    for (const definition of definitions) {
      const name = collectionName(definition.name);
      await this.createCollection(name);
      for (const index of definition.indexes ?? []) {
        const keys: Record<string, 1 | -1> = {};
        for (const f of index.fields) keys[f.field] = f.direction === 'desc' ? -1 : 1;
        // An explicit name keeps re-creation idempotent and mirrors the PostgreSQL index names.
        const indexName = `${name}_${index.fields.map((f) => f.field.replace(/\./g, '_')).join('_')}`;
        await this.db.collection(name).createIndex(keys, { name: indexName, unique: index.unique ?? false });
      }
    }
  }

  async clearCollections(names: string[]): Promise<void> {
    // deleteMany rather than drop: the collection keeps its indexes, like TRUNCATE.
    for (const name of names) await this.db.collection(collectionName(name)).deleteMany({});
  }

  async commitWithCheckpoint(
    checkpointName: string,
    from: bigint | null,
    to: bigint,
    work: (session: ReadModelSession) => Promise<void>,
  ): Promise<void> {
    if (!this.transactional) {
      // Checked first so a stale worker writes nothing (a transaction checks by moving it, below).
      if ((await this.getCheckpoint(checkpointName)) !== from) throw new CheckpointConflictError(checkpointName);
      await work(this);
      if (!(await this.moveCheckpoint(checkpointName, from, to))) throw new CheckpointConflictError(checkpointName);
      return;
    }

    const session = this.client.startSession();
    try {
      // withTransaction retries on transient errors, such as a write conflict with another
      // worker moving the same checkpoint; the retry then sees the moved checkpoint and aborts.
      await session.withTransaction(
        async () => {
          // Moving the checkpoint first claims its document: a concurrent transaction on the
          // same projection conflicts at once instead of after running its handlers.
          if (!(await this.moveCheckpoint(checkpointName, from, to, session)))
            throw new CheckpointConflictError(checkpointName);
          await work({
            collection: <T extends object>(name: string) =>
              new MongoDocCollection<T>(this.db.collection<StoredDocument>(collectionName(name)), session),
          });
        },
        { readConcern: { level: 'snapshot' }, writeConcern: { w: 'majority' } },
      );
    } finally {
      await session.endSession();
    }
  }

  /** Conditionally moves the checkpoint; false when it was not at `from` (null = absent). */
  private async moveCheckpoint(
    name: string,
    from: bigint | null,
    to: bigint,
    session?: ClientSession,
  ): Promise<boolean> {
    const checkpoints = this.db.collection<StoredCheckpoint>(CHECKPOINTS);
    if (from !== null) {
      const result = await checkpoints.updateOne(
        { _id: name, position: String(from) },
        { $set: { position: String(to) } },
        { session },
      );
      return result.matchedCount === 1;
    }
    try {
      const result = await checkpoints.updateOne(
        { _id: name },
        { $setOnInsert: { position: String(to) } },
        { upsert: true, session },
      );
      return result.upsertedCount === 1;
    } catch (error) {
      // Two concurrent first commits: the loser's upsert collides on _id.
      if (isMongoError(error, DUPLICATE_KEY)) return false;
      throw error;
    }
  }

  async getCheckpoint(checkpointName: string): Promise<bigint | null> {
    const stored = await this.db.collection<StoredCheckpoint>(CHECKPOINTS).findOne({ _id: checkpointName });
    return stored ? BigInt(stored.position) : null;
  }

  async resetCheckpoint(checkpointName: string): Promise<void> {
    await this.db.collection<StoredCheckpoint>(CHECKPOINTS).deleteOne({ _id: checkpointName });
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
