/**
 * The mutation job's bar (`npm run mutation`, scripts/mutation-report.ts): a score per module, and
 * for every mutant allowed to survive, why it changes no behaviour a user could see.
 */
export const THRESHOLDS: Readonly<Record<string, number>> = {
  'src/domain/document/documentTotals.ts': 90,
  'src/domain/validation/rules/cen/calculations.ts': 90,
  'src/domain/document/documentAggregate.ts': 90,
  'src/domain/retrySchedule.ts': 90,
};

export interface ExplainedMutant {
  file: string;
  /** Stryker's mutator name, e.g. ConditionalExpression. */
  mutator: string;
  /** Text the mutated code contains (whitespace collapsed): identifies the mutant across line moves. */
  original: string;
  /** The replacement Stryker made; absent when every replacement of this code is explained alike. */
  replacement?: string;
  reason: string;
}

export const EQUIVALENT_MUTANTS: readonly ExplainedMutant[] = [];
