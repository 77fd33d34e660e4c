import { invalid } from '../../domain/errors.js';
import { RULE_SETS, ruleSetById, ruleSetInForce, type RuleSet } from '../../domain/validation/index.js';

/**
 * The day that decides which rule set is in force (YYYY-MM-DD, UTC). Today by default; RULES_DATE
 * fixes it (to preview a release or to replay a day), and tests give their own.
 */
export interface RuleSetClock {
  today(): string;
}

/** `RuleSetClock`. */
export const RULE_SET_CLOCK = Symbol('RuleSetClock');

export const systemRuleSetClock = (fixedDay: string | null = null): RuleSetClock => ({
  today: () => fixedDay ?? new Date().toISOString().slice(0, 10),
});

/**
 * The set a document is validated by: the one the caller names (`rule_set`, by id such as
 * `peppol-bis-3.0.21` or by its Peppol version `3.0.21`), else the one in force today. A name we do
 * not know is refused rather than silently replaced by another set.
 */
export function chooseRuleSet(clock: RuleSetClock, requested?: string): RuleSet {
  if (requested === undefined) return ruleSetInForce(clock.today());
  const named = ruleSetById(requested) ?? RULE_SETS.find((set) => set.peppol === requested);
  if (!named)
    throw invalid(`Unknown rule set '${requested}'; known: ${RULE_SETS.map((set) => set.id).join(', ')}`, [
      'query',
      'rule_set',
    ]);
  return named;
}

/** The rule sets as the API lists them, with the one in force today. */
export function ruleSetsAsOf(clock: RuleSetClock) {
  const today = clock.today();
  const inForce = ruleSetInForce(today);
  return {
    today,
    in_force: inForce.id,
    rule_sets: RULE_SETS.map((set) => ({
      id: set.id,
      name: set.name,
      peppol_bis: set.peppol,
      en16931_ubl: set.cen,
      valid_from: set.validFrom,
      release: set.release,
      in_force: set.id === inForce.id,
    })),
  };
}
