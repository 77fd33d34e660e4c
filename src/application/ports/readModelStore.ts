/**
 * The read-model store port: what projections write and queries read. Documents are plain
 * JSON objects kept under a string key in named collections. Queries are written against
 * this port only, so the PostgreSQL (JSONB) and MongoDB adapters are interchangeable.
 */

export type Scalar = string | number | boolean | null;

export interface IndexDefinition {
  /** Dotted field paths, e.g. ['tenant_id', 'created_at']. */
  fields: Array<{ field: string; direction?: SortDirection }>;
  unique?: boolean;
}

export interface CollectionDefinition {
  name: string;
  indexes?: IndexDefinition[];
}

export type SortDirection = 'asc' | 'desc';

export type Filter =
  | { op: 'eq'; field: string; value: Scalar }
  | { op: 'ne'; field: string; value: Scalar }
  | { op: 'in'; field: string; values: Scalar[] }
  | { op: 'gt' | 'gte' | 'lt' | 'lte'; field: string; value: string | number }
  /** Case-insensitive substring match on a string field. */
  | { op: 'contains'; field: string; value: string }
  | { op: 'and'; filters: Filter[] }
  | { op: 'or'; filters: Filter[] };

export interface Query {
  filter?: Filter;
  sort?: Array<{ field: string; direction: SortDirection }>;
  skip?: number;
  limit?: number;
}

export interface Page<T> {
  items: T[];
  /** Number of documents matching the filter, ignoring skip and limit. */
  total: number;
}

export interface Collection<T extends object> {
  get(id: string): Promise<T | null>;
  /** The documents of those keys that exist, in no particular order. */
  getMany(ids: readonly string[]): Promise<T[]>;
  upsert(id: string, doc: T): Promise<void>;
  /** Upserts of many keys at once (one round trip where the adapter can); keys must be distinct. */
  upsertMany(entries: ReadonlyArray<readonly [id: string, doc: T]>): Promise<void>;
  delete(id: string): Promise<void>;
  find(query?: Query): Promise<Page<T>>;
}

export interface ReadModelSession {
  collection<T extends object>(name: string): Collection<T>;
}

export interface ReadModelStore extends ReadModelSession {
  /** Creates collections and their declared indexes when missing (idempotent). */
  ensureCollections(definitions: CollectionDefinition[]): Promise<void>;
  /** Removes every document of the collections (used by projection rebuilds). */
  clearCollections(names: string[]): Promise<void>;
  /**
   * Runs `work` with a session whose writes become visible together with the checkpoint
   * move from `from` to `to`. When another worker moved the checkpoint first, nothing is
   * written and CheckpointConflictError is thrown. Adapters without multi-document
   * transactions apply the writes then the checkpoint; handlers must be idempotent.
   */
  commitWithCheckpoint(
    checkpointName: string,
    from: bigint | null,
    to: bigint,
    work: (session: ReadModelSession) => Promise<void>,
  ): Promise<void>;
  /** The stored checkpoint, or null when the projection has never run. */
  getCheckpoint(checkpointName: string): Promise<bigint | null>;
  resetCheckpoint(checkpointName: string): Promise<void>;
  close(): Promise<void>;
}

export class CheckpointConflictError extends Error {
  constructor(readonly checkpointName: string) {
    super(`Checkpoint ${checkpointName} was moved by another worker`);
    this.name = 'CheckpointConflictError';
  }
}

export const READ_MODEL_STORE = Symbol('ReadModelStore');
