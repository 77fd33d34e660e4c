// Where our validator and the official XSLT of a release may disagree, each with its reason. The
// conformance runner and the differential suite fail on every disagreement that is not listed here.
// Keep it small: a difference belongs here only when following the official artefact is wrong or
// impossible for us (say so in one line), never to get a suite green.
import type { RuleSetId } from '../../../../src/domain/validation/index.js';

export interface ExplainedDifference {
  /**
   * The document: 'unit/<testSet file>#<test index>', 'examples/<path>', 'differential:<mutation>';
   * a trailing '*' matches every document that starts with what comes before it.
   */
  where: string;
  release: RuleSetId | '*';
  /** The rule id reported by one side only, or OFFICIAL_FAILURE. */
  rule: string;
  reason: string;
}

/**
 * The official XSLT stopped with an error on the document (a dynamic type error, …): there is no
 * official set to compare with. Accepted only when listed here and we refuse the document (a fatal).
 */
export const OFFICIAL_FAILURE = '(official XSLT failed)';

export const EXPLAINED_DIFFERENCES: readonly ExplainedDifference[] = [
  {
    where: 'unit/en16931-1.3.14.1/Invoice-unit-UBL/BR-CL-23.xml#*',
    release: '*',
    rule: OFFICIAL_FAILURE,
    reason:
      'an empty quantity/amount makes the official CEN XSLT stop with a type error (no verdict); we refuse it with a fatal',
  },
  {
    where: 'differential:*',
    release: '*',
    rule: OFFICIAL_FAILURE,
    reason:
      'a mutated value that is not a number/date (empty, text, 2026-13-01) or a duplicated single element makes the official XSLT stop with a type error: it refuses without a rule list; we refuse with a fatal rule or our UBL schema check',
  },
];

function matches(pattern: string, value: string): boolean {
  return pattern.endsWith('*') ? value.startsWith(pattern.slice(0, -1)) : pattern === value;
}

/** The entry that explains `rule` disagreeing on document `where` under `release`, if any. */
export function explanationOf(where: string, release: RuleSetId, rule: string): ExplainedDifference | undefined {
  return EXPLAINED_DIFFERENCES.find(
    (d) => d.rule === rule && (d.release === '*' || d.release === release) && matches(d.where, where),
  );
}

/** Rule ids in exactly one of two sets, sorted. */
export function symmetricDifference(ours: Iterable<string>, official: Iterable<string>): string[] {
  const a = new Set(ours);
  const b = new Set(official);
  return [...[...a].filter((x) => !b.has(x)), ...[...b].filter((x) => !a.has(x))].sort();
}
