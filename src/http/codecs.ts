import * as t from 'io-ts';
import { isLeft } from 'fp-ts/lib/Either.js';
import { HttpError, problemsFromIoTs } from './errors.js';
import { EMAIL_ADDRESS_RULE, isEmailAddress } from '../domain/emailAddress.js';
import { describedAs } from './jsonSchema.js';

/** Decodes a request part or answers 422 with the offending fields. */
export function decode<C extends t.Any>(codec: C, value: unknown, root: 'body' | 'query' | 'path'): t.TypeOf<C> {
  const result = codec.decode(value);
  if (isLeft(result)) throw new HttpError(422, problemsFromIoTs(result.left, root));
  return result.right;
}

interface NonEmptyStringBrand {
  readonly NonEmptyString: unique symbol;
}
export const NonEmptyString = t.brand(
  t.string,
  (s): s is t.Branded<string, NonEmptyStringBrand> => s.trim().length > 0 && s.length <= 500,
  'NonEmptyString',
);

export const Nullable = <C extends t.Mixed>(codec: C) => t.union([codec, t.null]);

/** One e-mail address (see isEmailAddress); a refinement of string, with a message saying what is expected. */
export const Email = new t.RefinementType<t.StringC, string, string, unknown>(
  'Email',
  (u): u is string => typeof u === 'string' && isEmailAddress(u),
  (u, c) =>
    typeof u === 'string' && isEmailAddress(u)
      ? t.success(u)
      : t.failure(u, c, `Input should be ${EMAIL_ADDRESS_RULE}`),
  t.identity,
  t.string,
  isEmailAddress,
);

/** Query integers arrive as strings: "20" is 20, "abc" or "1.5" is a 422. */
export const QueryInt = (name: string, min: number, max: number) =>
  new t.Type<number, string, unknown>(
    name,
    (u): u is number => typeof u === 'number',
    (u, c) => {
      const n = typeof u === 'string' && /^-?\d+$/.test(u) ? Number(u) : typeof u === 'number' ? u : NaN;
      return Number.isInteger(n) && n >= min && n <= max
        ? t.success(n)
        : t.failure(u, c, `Input should be an integer from ${min} to ${max}`);
    },
    String,
  );

/** `skip` and `limit` of the offset-paged lists. */
export const SkipLimitQuery = t.partial({
  skip: QueryInt('skip', 0, Number.MAX_SAFE_INTEGER),
  limit: QueryInt('limit', 1, 1000),
});

/** `page` and `page_size` of the page-numbered lists. */
export const PAGE_FIELDS = { page: QueryInt('page', 1, 1_000_000), page_size: QueryInt('page_size', 1, 100) };

/**
 * `as_of`: answer as the API did at a moment of the log, a global position (an integer) or a
 * date-time with its zone. Read by application/asOf/asOfMoment.ts, which names ["query", "as_of"]
 * in a 422 for a malformed one or one in the future.
 */
export const AS_OF_FIELDS = {
  as_of: describedAs(new t.Type<string, string, unknown>('AsOf', t.string.is, t.string.validate, t.identity), {
    type: 'string',
    description:
      'Answer as of this moment: a global log position (e.g. 1234) or a date-time with its zone (e.g. 2025-03-01T12:00:00Z, the last position recorded at or before it). A document that did not exist then is not found (404); a moment in the future is a 422. See docs/using/as-of.md',
    examples: ['1234', '2025-03-01T12:00:00Z'],
  }),
};
export const AsOfQuery = t.partial(AS_OF_FIELDS);
