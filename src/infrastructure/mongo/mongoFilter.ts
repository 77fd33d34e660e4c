import type { Filter as MongoFilter } from 'mongodb';
import type { Filter, Query } from '../../application/ports/readModelStore.js';

/** A read-model document as stored: the port's document plus its key as `_id`. */
export interface StoredDocument {
  _id: string;
  [field: string]: unknown;
}

/** Dotted paths of plain names: no `$` operators or empty segments can be smuggled in. */
const FIELD = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;

/** A filter no document satisfies (MongoDB refuses an empty `$or`). */
const MATCH_NOTHING: MongoFilter<StoredDocument> = { _id: { $in: [] } };

function field(path: string): string {
  if (!FIELD.test(path)) throw new Error(`Invalid field path ${path}`);
  return path;
}

/** Escapes every regular-expression metacharacter so the input is matched literally. */
export function escapeRegex(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|\-/]/g, '\\$&');
}

/**
 * Translates a port filter into a MongoDB query with the PostgreSQL adapter's semantics:
 * - eq null matches a missing field or null, ne null an existing non-null field;
 * - ne v also matches documents where the field is missing or null;
 * - range comparisons only match values of the same type (numbers or strings);
 * - contains is a literal, case-insensitive substring match.
 * Known difference: MongoDB matches eq/in/ne against array elements, JSONB does not; read
 * models compare scalars, so this does not arise in practice.
 */
export function toMongoFilter(filter: Filter): MongoFilter<StoredDocument> {
  switch (filter.op) {
    case 'eq':
      // `{ f: null }` is MongoDB's "missing or null", the port's eq-null.
      return { [field(filter.field)]: { $eq: filter.value } };
    case 'ne':
      // `$ne: null` excludes missing and null; `$ne: v` includes them: both as in the port.
      return { [field(filter.field)]: { $ne: filter.value } };
    case 'in':
      return filter.values.length === 0 ? MATCH_NOTHING : { [field(filter.field)]: { $in: filter.values } };
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      return {
        [field(filter.field)]: {
          [`$${filter.op}`]: filter.value,
          $type: typeof filter.value === 'number' ? 'number' : 'string',
        },
      };
    case 'contains':
      return { [field(filter.field)]: { $regex: escapeRegex(filter.value), $options: 'i' } };
    case 'and':
      return filter.filters.length === 0 ? {} : { $and: filter.filters.map(toMongoFilter) };
    case 'or':
      return filter.filters.length === 0 ? MATCH_NOTHING : { $or: filter.filters.map(toMongoFilter) };
    default: {
      const exhaustive: never = filter;
      throw new Error(`Unknown filter ${JSON.stringify(exhaustive)}`);
    }
  }
}

/**
 * Sort specification with `_id` (the document key) as the final tie-breaker, so paging is
 * stable. MongoDB sorts missing and null lowest, like the PostgreSQL adapter's
 * NULLS FIRST ascending / NULLS LAST descending.
 */
export function toMongoSort(sort: Query['sort'] = []): Map<string, 1 | -1> {
  const spec = new Map<string, 1 | -1>();
  for (const s of sort) {
    const path = field(s.field);
    if (!spec.has(path)) spec.set(path, s.direction === 'desc' ? -1 : 1);
  }
  if (!spec.has('_id')) spec.set('_id', 1);
  return spec;
}
