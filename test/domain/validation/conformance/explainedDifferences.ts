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
  // Release 2025.5 (3.0.19) has no self-billing Schematron: its billing one refuses every self-billing
  // document on the specification and process identifiers. We keep the billing rules with the
  // self-billing identifiers there (rules/peppol/index.ts); every other rule is compared as usual,
  // and these documents stay out of 3.0.19's agreement figure (OUTSIDE_AGREEMENT).
  ...['PEPPOL-EN16931-R004', 'PEPPOL-EN16931-R007'].map((rule) => ({
    where: 'differential:self-billing *',
    release: 'peppol-bis-3.0.19' as const,
    rule,
    reason:
      '3.0.19 ships no self-billing Schematron; its billing one refuses the self-billing identifiers, which we accept (the self-billing specification)',
  })),
];

/**
 * Documents a release's agreement figure does not count, with the reason; their differences must still
 * be explained above.
 */
export const OUTSIDE_AGREEMENT: readonly { where: string; release: RuleSetId; reason: string }[] = [
  {
    where: 'differential:self-billing *',
    release: 'peppol-bis-3.0.19',
    reason: '2025.5 has no self-billing Schematron to compare self-billing documents with (see above)',
  },
];

/** The document is left out of `release`'s agreement figure. */
export function outsideAgreement(where: string, release: RuleSetId): boolean {
  return OUTSIDE_AGREEMENT.some((d) => d.release === release && matches(d.where, where));
}

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
