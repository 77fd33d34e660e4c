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

export const EQUIVALENT_MUTANTS: readonly ExplainedMutant[] = [
  // documentTotals.ts lines 1-235
  {
    file: 'src/domain/document/documentTotals.ts',
    mutator: 'StringLiteral',
    original: "'strict'",
    replacement: '""',
    reason: "the default of completeDocument's mode: every use of the mode asks only `mode === 'rules'`, so a default of '' behaves exactly as 'strict'.",
  },
  {
    file: 'src/domain/document/documentTotals.ts',
    mutator: 'StringLiteral',
    original: "'-'",
    replacement: '""',
    reason: "the grouping key of a category without a rate: the key is only compared with other keys, and rate.toFixed(4) is never empty, so 'S|' is as distinct from 'S|21.0000' as 'S|-' is.",
  },
  {
    file: 'src/domain/document/documentTotals.ts',
    mutator: 'StringLiteral',
    original: "'Reverse charge'",
    replacement: '""',
    reason: 'dead entry: AE always has a standard code (DEFAULT_EXEMPTION_CODE), and the standard text is only written when there is no code, so this text is never read; the table goes with the defaults (later issue).',
  },
  {
    file: 'src/domain/document/documentTotals.ts',
    mutator: 'StringLiteral',
    original: "'Intra-community supply'",
    replacement: '""',
    reason: 'dead entry: K always has a standard code (DEFAULT_EXEMPTION_CODE), and the standard text is only written when there is no code, so this text is never read; the table goes with the defaults (later issue).',
  },
  {
    file: 'src/domain/document/documentTotals.ts',
    mutator: 'StringLiteral',
    original: "'Export outside the EU'",
    replacement: '""',
    reason: 'dead entry: G always has a standard code (DEFAULT_EXEMPTION_CODE), and the standard text is only written when there is no code, so this text is never read; the table goes with the defaults (later issue).',
  },
  {
    file: 'src/domain/document/documentTotals.ts',
    mutator: 'StringLiteral',
    original: "'Not subject to VAT'",
    replacement: '""',
    reason: 'dead entry: O always has a standard code (DEFAULT_EXEMPTION_CODE), and the standard text is only written when there is no code, so this text is never read; the table goes with the defaults (later issue).',
  },
];
