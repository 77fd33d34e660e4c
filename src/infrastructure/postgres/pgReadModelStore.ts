import type pg from 'pg';
import {
  CheckpointConflictError,
  type Collection,
  type CollectionDefinition,
  type Filter,
  type Page,
  type Query,
  type ReadModelSession,
  type ReadModelStore,
} from '../../application/ports/readModelStore.js';
import { inject, injectable } from '../../application/injection.js';
import { PG_POOL } from './tokens.js';

type Queryable = Pick<pg.Pool, 'query'> | pg.PoolClient;

const NAME = /^[a-z][a-z0-9_]{0,40}$/;
const FIELD = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

function table(name: string): string {
  if (!NAME.test(name)) throw new Error(`Invalid collection name ${name}`);
  return `rm_${name}`;
}

/** `doc->'a'->'b'` for a dotted path; the same expression is used in indexes so they match. */
function jsonPath(field: string): string {
  if (!FIELD.test(field)) throw new Error(`Invalid field path ${field}`);
  return `(doc${field
    .split('.')
    .map((part) => `->'${part}'`)
    .join('')})`;
}

function textPath(field: string): string {
  const parts = field.split('.');
  if (!FIELD.test(field)) throw new Error(`Invalid field path ${field}`);
  const head = parts
    .slice(0, -1)
    .map((p) => `->'${p}'`)
    .join('');
  return `(doc${head}->>'${parts[parts.length - 1]}')`;
}

/**
 * Translates a port filter into SQL over JSONB. Comparisons use jsonb ordering, which
 * compares numbers numerically and strings lexically, exactly like MongoDB does.
 */
function compileFilter(filter: Filter, params: unknown[]): string {
  const param = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  switch (filter.op) {
    case 'eq':
      return filter.value === null
        ? `(${jsonPath(filter.field)} IS NULL OR ${jsonPath(filter.field)} = 'null'::jsonb)`
        : `${jsonPath(filter.field)} = ${param(JSON.stringify(filter.value))}::jsonb`;
    case 'ne':
      return filter.value === null
        ? `(${jsonPath(filter.field)} IS NOT NULL AND ${jsonPath(filter.field)} <> 'null'::jsonb)`
        : `(${jsonPath(filter.field)} IS NULL OR ${jsonPath(filter.field)} <> ${param(JSON.stringify(filter.value))}::jsonb)`;
    case 'in':
      if (filter.values.length === 0) return 'false';
      return `${jsonPath(filter.field)} = ANY(${param(filter.values.map((v) => JSON.stringify(v)))}::jsonb[])`;
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte': {
      const operator = { gt: '>', gte: '>=', lt: '<', lte: '<=' }[filter.op];
      // Restrict to the same JSON type, as MongoDB does (no number/string cross-comparison).
      const type = typeof filter.value === 'number' ? 'number' : 'string';
      return `(jsonb_typeof(${jsonPath(filter.field)}) = '${type}' AND ${jsonPath(filter.field)} ${operator} ${param(JSON.stringify(filter.value))}::jsonb)`;
    }
    case 'contains':
      return `${textPath(filter.field)} ILIKE ${param(`%${filter.value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)}`;
    case 'and':
      return filter.filters.length === 0
        ? 'true'
        : `(${filter.filters.map((f) => compileFilter(f, params)).join(' AND ')})`;
    case 'or':
      return filter.filters.length === 0
        ? 'false'
        : `(${filter.filters.map((f) => compileFilter(f, params)).join(' OR ')})`;
    default: {
      const exhaustive: never = filter;
      throw new Error(`Unknown filter ${JSON.stringify(exhaustive)}`);
    }
  }
}

class PgCollection<T extends object> implements Collection<T> {
  constructor(
    private readonly db: Queryable,
    private readonly name: string,
  ) {}

  async get(id: string): Promise<T | null> {
    const { rows } = await this.db.query<{ doc: T }>(`SELECT doc FROM ${table(this.name)} WHERE id = $1`, [id]);
    return rows[0]?.doc ?? null;
  }

  async getMany(ids: readonly string[]): Promise<T[]> {
    if (ids.length === 0) return [];
    const { rows } = await this.db.query<{ doc: T }>(`SELECT doc FROM ${table(this.name)} WHERE id = ANY($1::text[])`, [
      ids,
    ]);
    return rows.map((r) => r.doc);
  }

  async upsert(id: string, doc: T): Promise<void> {
    await this.db.query(
      `INSERT INTO ${table(this.name)} (id, doc) VALUES ($1, $2::jsonb)
       ON CONFLICT (id) DO UPDATE SET doc = EXCLUDED.doc`,
      [id, JSON.stringify(doc)],
    );
  }

  async upsertMany(entries: ReadonlyArray<readonly [string, T]>): Promise<void> {
    if (entries.length === 0) return;
    if (entries.length === 1) return this.upsert(...entries[0]!);
    await this.db.query(
      `INSERT INTO ${table(this.name)} (id, doc) SELECT * FROM unnest($1::text[], $2::jsonb[])
       ON CONFLICT (id) DO UPDATE SET doc = EXCLUDED.doc`,
      [entries.map(([id]) => id), entries.map(([, doc]) => JSON.stringify(doc))],
    );
  }

  async delete(id: string): Promise<void> {
    await this.db.query(`DELETE FROM ${table(this.name)} WHERE id = $1`, [id]);
  }

  async find(query: Query = {}): Promise<Page<T>> {
    const params: unknown[] = [];
    const where = query.filter ? `WHERE ${compileFilter(query.filter, params)}` : '';
    const order = (query.sort ?? [])
      .map((s) => `${jsonPath(s.field)} ${s.direction === 'desc' ? 'DESC NULLS LAST' : 'ASC NULLS FIRST'}`)
      .concat('id ASC')
      .join(', ');
    const countParams = [...params];
    params.push(query.limit ?? null, query.skip ?? 0);
    const [items, count] = await Promise.all([
      this.db.query<{ doc: T }>(
        `SELECT doc FROM ${table(this.name)} ${where} ORDER BY ${order} LIMIT $${params.length - 1} OFFSET $${params.length}`,
        params,
      ),
      this.db.query<{ total: string }>(`SELECT count(*) AS total FROM ${table(this.name)} ${where}`, countParams),
    ]);
    return { items: items.rows.map((r) => r.doc), total: Number(count.rows[0]!.total) };
  }
}

/** Read models as JSONB documents, one table per collection, with expression indexes. */
@injectable()
export class PgReadModelStore implements ReadModelStore {
  constructor(@inject(PG_POOL) private readonly pool: pg.Pool) {}

  collection<T extends object>(name: string): Collection<T> {
    return new PgCollection<T>(this.pool, name);
  }

  async ensureCollections(definitions: CollectionDefinition[]): Promise<void> {
    for (const definition of definitions) {
      const name = table(definition.name);
      await this.pool.query(`CREATE TABLE IF NOT EXISTS ${name} (id text PRIMARY KEY, doc jsonb NOT NULL)`);
      for (const index of definition.indexes ?? []) {
        const indexName = `${name}_${index.fields.map((f) => f.field.replace(/\./g, '_')).join('_')}`.slice(0, 63);
        const expressions = index.fields
          .map((f) => `${jsonPath(f.field)}${f.direction === 'desc' ? ' DESC' : ''}`)
          .join(', ');
        await this.pool.query(
          `CREATE ${index.unique ? 'UNIQUE ' : ''}INDEX IF NOT EXISTS ${indexName} ON ${name} (${expressions})`,
        );
      }
    }
  }

  async clearCollections(names: string[]): Promise<void> {
    for (const name of names) await this.pool.query(`TRUNCATE ${table(name)}`);
  }

  async commitWithCheckpoint(
    checkpointName: string,
    from: bigint | null,
    to: bigint,
    work: (session: ReadModelSession) => Promise<void>,
  ): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      // Moving the checkpoint first takes its row lock: a second worker on the same projection
      // waits here, then finds the checkpoint moved and backs off without writing anything.
      const moved =
        from === null
          ? await client.query(
              `INSERT INTO rm_checkpoints (name, position) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`,
              [checkpointName, String(to)],
            )
          : await client.query(`UPDATE rm_checkpoints SET position = $3 WHERE name = $1 AND position = $2`, [
              checkpointName,
              String(from),
              String(to),
            ]);
      if (moved.rowCount !== 1) throw new CheckpointConflictError(checkpointName);
      const session: ReadModelSession = {
        collection: <T extends object>(name: string) => new PgCollection<T>(client, name),
      };
      await work(session);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async getCheckpoint(checkpointName: string): Promise<bigint | null> {
    const { rows } = await this.pool.query<{ position: string }>(
      'SELECT position FROM rm_checkpoints WHERE name = $1',
      [checkpointName],
    );
    return rows[0] ? BigInt(rows[0].position) : null;
  }

  async resetCheckpoint(checkpointName: string): Promise<void> {
    await this.pool.query('DELETE FROM rm_checkpoints WHERE name = $1', [checkpointName]);
  }

  async close(): Promise<void> {}
}
