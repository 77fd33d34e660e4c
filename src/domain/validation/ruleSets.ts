// The releases of the business rules this validator implements, each a named rule set with the day it
// came into force. A document is validated by the set in force on the day it is validated (the
// application's clock decides the day); a caller may also name a set, to check a document against
// the next release before it is in force.

/** Release identifiers in ascending order: Peppol BIS Billing version, with the CEN artefacts it bundles. */
export type RuleSetId = 'peppol-bis-3.0.19' | 'peppol-bis-3.0.21';

export interface RuleSet {
  readonly id: RuleSetId;
  /** Peppol BIS Billing 3.0 release. */
  readonly peppol: string;
  /** CEN EN 16931 UBL validation artefacts bundled in that release. */
  readonly cen: string;
  /**
   * First day (UTC) the set is in force; it stays in force until the next set's first day. The oldest
   * set kept has none: it answers for every day before its successor.
   */
  readonly validFrom: string | null;
  /** OpenPeppol's name for the release, the folder of its official files (phive-rules-peppol). */
  readonly release: string;
  readonly name: string;
}

export const RULE_SETS: readonly RuleSet[] = [
  {
    id: 'peppol-bis-3.0.19',
    peppol: '3.0.19',
    cen: '1.3.14.1',
    validFrom: null,
    release: '2025.5',
    name: 'Peppol BIS Billing 3.0.19 with EN 16931 UBL 1.3.14.1',
  },
  {
    id: 'peppol-bis-3.0.21',
    peppol: '3.0.21',
    cen: '1.3.16',
    validFrom: '2026-08-24',
    release: '2026.5',
    name: 'Peppol BIS Billing 3.0.21 with EN 16931 UBL 1.3.16',
  },
];

export const LATEST_RULE_SET: RuleSet = RULE_SETS[RULE_SETS.length - 1]!;

export function ruleSetById(id: string): RuleSet | undefined {
  return RULE_SETS.find((set) => set.id === id);
}

/** The set in force on a day (YYYY-MM-DD, UTC); before the first set's day, the first set. */
export function ruleSetInForce(day: string): RuleSet {
  let inForce = RULE_SETS[0]!;
  for (const set of RULE_SETS) if (set.validFrom !== null && set.validFrom <= day) inForce = set;
  return inForce;
}

/** Compare dotted version strings numerically ('1.3.14.1' < '1.3.16'). */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
