/** One problem of a request's input, in the spec's 422 shape. */
export interface InputProblem {
  loc: Array<string | number>;
  msg: string;
  type: string;
}

/**
 * Text that XML 1.0 cannot carry (C0 controls other than tab, LF and CR; U+FFFE, U+FFFF; lone
 * UTF-16 surrogates). It can reach nothing useful: PostgreSQL refuses NUL in text, and no UBL
 * document may contain any of it. So it is refused where input arrives, naming the field,
 * wherever it comes from (path, query, JSON), instead of failing deep inside.
 */
export const NOT_XML_TEXT =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export interface HygieneLimits {
  /** Longest string anywhere in a JSON body, attachment content excepted (MAX_STRING_LENGTH). */
  maxStringLength: number;
  /** Deepest nesting of a JSON body (MAX_JSON_DEPTH). */
  maxDepth: number;
}

/** The defaults of MAX_STRING_LENGTH and MAX_JSON_DEPTH. */
export const DEFAULT_HYGIENE_LIMITS: Readonly<HygieneLimits> = { maxStringLength: 10_000, maxDepth: 32 };

/** Fields whose strings are file content, bounded by the body limit rather than the string limit. */
const CONTENT_FIELDS = new Set(['file_data']);

export const describeBadText = (text: string): string => {
  const match = NOT_XML_TEXT.exec(text);
  const code = match ? match[0].charCodeAt(0) : 0;
  return `Text contains a character not allowed in e-invoices (U+${code.toString(16).toUpperCase().padStart(4, '0')} at position ${match?.index ?? 0})`;
};

export const problem = (loc: Array<string | number>, msg: string, type: string): InputProblem => ({ loc, msg, type });

interface Visit {
  value: unknown;
  /** Where the value is, as a chain back to the body: a path is only built for a problem. */
  parent: Visit | null;
  key: string | number;
  depth: number;
}

const locOf = (visit: Visit): Array<string | number> => {
  const loc: Array<string | number> = [];
  for (let v: Visit | null = visit; v; v = v.parent) loc.push(v.key);
  return loc.reverse();
};

/**
 * Problems of a JSON value: bad characters in strings and keys, strings over the limit, nesting
 * over the limit. Iterative (a hostile depth cannot overflow the stack), allocation-light (a
 * body of millions of values is walked in well under a second), stops at the first few problems.
 */
export function jsonProblems(body: unknown, limits: HygieneLimits): InputProblem[] {
  const problems: InputProblem[] = [];
  const stack: Visit[] = [{ value: body, parent: null, key: 'body', depth: 0 }];
  while (stack.length > 0 && problems.length < 10) {
    const visit = stack.pop()!;
    const { value } = visit;
    if (typeof value === 'string') {
      const key = visit.key;
      if (value.length > limits.maxStringLength && !(typeof key === 'string' && CONTENT_FIELDS.has(key))) {
        problems.push(
          problem(
            locOf(visit),
            `String should have at most ${limits.maxStringLength} characters (limit MAX_STRING_LENGTH)`,
            'string_too_long',
          ),
        );
      } else if (NOT_XML_TEXT.test(value)) {
        problems.push(problem(locOf(visit), describeBadText(value), 'invalid_character'));
      }
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (visit.depth >= limits.maxDepth) {
      problems.push(
        problem(
          locOf(visit),
          `JSON nested deeper than ${limits.maxDepth} levels (limit MAX_JSON_DEPTH)`,
          'limit_exceeded',
        ),
      );
      continue;
    }
    const depth = visit.depth + 1;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) {
        const item: unknown = value[i];
        // Numbers, booleans and nulls need no look: most of a large body is these.
        if (typeof item === 'string' || (typeof item === 'object' && item !== null))
          stack.push({ value: item, parent: visit, key: i, depth });
      }
      continue;
    }
    const keys = Object.keys(value);
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i]!;
      if (NOT_XML_TEXT.test(key)) {
        problems.push(problem([...locOf(visit), key], `Field name: ${describeBadText(key)}`, 'invalid_character'));
        continue;
      }
      const item: unknown = (value as Record<string, unknown>)[key];
      if (typeof item === 'string' || (typeof item === 'object' && item !== null))
        stack.push({ value: item, parent: visit, key, depth });
    }
  }
  return problems;
}
