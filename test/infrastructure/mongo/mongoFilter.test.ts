import { expect } from 'chai';
import type { Filter } from '../../../src/application/ports/readModelStore.js';
import { escapeRegex, toMongoFilter, toMongoSort } from '../../../src/infrastructure/mongo/mongoFilter.js';

describe('MongoDB filter translation', () => {
  it('translates eq and ne, null meaning "missing or null" as in the PostgreSQL adapter', () => {
    expect(toMongoFilter({ op: 'eq', field: 'tenant_id', value: 't1' })).to.deep.equal({ tenant_id: { $eq: 't1' } });
    expect(toMongoFilter({ op: 'eq', field: 'party.country', value: null })).to.deep.equal({
      'party.country': { $eq: null },
    });
    expect(toMongoFilter({ op: 'ne', field: 'party.country', value: null })).to.deep.equal({
      'party.country': { $ne: null },
    });
    expect(toMongoFilter({ op: 'ne', field: 'n', value: 3 })).to.deep.equal({ n: { $ne: 3 } });
    expect(toMongoFilter({ op: 'eq', field: 'paid', value: false })).to.deep.equal({ paid: { $eq: false } });
  });

  it('translates in, an empty list matching nothing', () => {
    expect(toMongoFilter({ op: 'in', field: 'name', values: ['a', 1, null] })).to.deep.equal({
      name: { $in: ['a', 1, null] },
    });
    expect(toMongoFilter({ op: 'in', field: 'name', values: [] })).to.deep.equal({ _id: { $in: [] } });
  });

  it('restricts range comparisons to the type of the value', () => {
    expect(toMongoFilter({ op: 'gt', field: 'total', value: 20 })).to.deep.equal({
      total: { $gt: 20, $type: 'number' },
    });
    expect(toMongoFilter({ op: 'gte', field: 'total', value: 0 })).to.deep.equal({
      total: { $gte: 0, $type: 'number' },
    });
    expect(toMongoFilter({ op: 'lt', field: 'created_at', value: '2026' })).to.deep.equal({
      created_at: { $lt: '2026', $type: 'string' },
    });
    expect(toMongoFilter({ op: 'lte', field: 'a.b', value: '' })).to.deep.equal({
      'a.b': { $lte: '', $type: 'string' },
    });
  });

  it('translates contains to a case-insensitive regex with the input taken literally', () => {
    expect(toMongoFilter({ op: 'contains', field: 'name', value: 'ACME' })).to.deep.equal({
      name: { $regex: 'ACME', $options: 'i' },
    });
    expect(toMongoFilter({ op: 'contains', field: 'name', value: 'a.b*(c)' })).to.deep.equal({
      name: { $regex: 'a\\.b\\*\\(c\\)', $options: 'i' },
    });
    // % and _ are LIKE wildcards in PostgreSQL, plain characters here.
    expect(toMongoFilter({ op: 'contains', field: 'name', value: '100%_' })).to.deep.equal({
      name: { $regex: '100%_', $options: 'i' },
    });
  });

  it('escapes every regex metacharacter, so the escaped text matches itself and only itself', () => {
    const nasty = String.raw`^$.*+?()[]{}|\-/ a_%`;
    const escaped = escapeRegex(nasty);
    expect(new RegExp(escaped).test(nasty)).to.equal(true);
    expect(new RegExp(`^${escaped}$`).test(nasty)).to.equal(true);
    expect(new RegExp(escapeRegex('a.c')).test('abc')).to.equal(false);
    expect(new RegExp(escapeRegex('[x]')).test('x')).to.equal(false);
  });

  it('combines with and/or, empty and matching everything and empty or nothing', () => {
    const filter: Filter = {
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
    };
    expect(toMongoFilter(filter)).to.deep.equal({
      $and: [
        { tenant_id: { $eq: 't1' } },
        { $or: [{ name: { $regex: 'gam', $options: 'i' } }, { total: { $gt: 50, $type: 'number' } }] },
      ],
    });
    expect(toMongoFilter({ op: 'and', filters: [] })).to.deep.equal({});
    expect(toMongoFilter({ op: 'or', filters: [] })).to.deep.equal({ _id: { $in: [] } });
  });

  it('refuses field paths that could smuggle in operators', () => {
    for (const field of ['$where', 'a.$gt', 'a..b', '', 'a b', 'a.', '.a']) {
      expect(() => toMongoFilter({ op: 'eq', field, value: 1 }), field).to.throw(/Invalid field path/);
    }
    expect(() => toMongoFilter({ op: 'and', filters: [{ op: 'eq', field: '$x', value: 1 }] })).to.throw(
      /Invalid field path/,
    );
  });

  it('refuses an unknown operator instead of ignoring it', () => {
    expect(() => toMongoFilter({ op: 'regex', field: 'a', value: '.*' } as unknown as Filter)).to.throw(
      /Unknown filter/,
    );
  });

  it('sorts in the given order with _id as the final tie-breaker', () => {
    expect([
      ...toMongoSort([
        { field: 'tenant_id', direction: 'desc' },
        { field: 'name', direction: 'asc' },
      ]),
    ]).to.deep.equal([
      ['tenant_id', -1],
      ['name', 1],
      ['_id', 1],
    ]);
    expect([...toMongoSort()]).to.deep.equal([['_id', 1]]);
    expect([...toMongoSort([{ field: '_id', direction: 'desc' }])]).to.deep.equal([['_id', -1]]);
    expect(() => toMongoSort([{ field: '$natural', direction: 'asc' }])).to.throw(/Invalid field path/);
  });
});
