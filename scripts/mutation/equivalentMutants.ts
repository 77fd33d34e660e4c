/**
 * Every mutant the mutation job (`npm run mutation`, scripts/mutation-report.ts) lets survive,
 * each named exactly, with why it changes no behaviour a user could see. The modules and their
 * thresholds are in scripts/mutation/modules.json.
 */
export interface ExplainedMutant {
  file: string;
  /** Where the mutant starts, `line:column` (1-based), as docs/mutation.md lists it. */
  at: string;
  /** Stryker's mutator name, e.g. ConditionalExpression. */
  mutator: string;
  /** The text the mutant replaces, in full, white space collapsed. */
  original: string;
  /** The replacement Stryker made, white space collapsed. */
  replacement: string;
  reason: string;
}

export const EQUIVALENT_MUTANTS: readonly ExplainedMutant[] = [];
