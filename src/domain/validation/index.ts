// Native (TypeScript) business-rule validation for UBL Invoice / CreditNote: EN 16931 core rules and
// Peppol BIS Billing 3.0 rules including the national rules, per release (ruleSets.ts).
// The rules walk a tree: parsed from untrusted text at the edge (infrastructure/xml/ublText.ts),
// or built by the UBL writer for documents we write.
import { Ctx } from './context.js';
import { cenRules } from './rules/cen/index.js';
import { peppolRules } from './rules/peppol/index.js';
import { LATEST_RULE_SET, type RuleSet } from './ruleSets.js';
import type { RuleLayer, ValidationIssue } from './types.js';
import type { UblTree } from './ublTree.js';

export type { RuleFlag, RuleLayer, ValidationIssue } from './types.js';
export { XmlEncodingError, XmlInputError, XmlLimitExceeded } from './errors.js';
export { DEFAULT_XML_LIMITS, XML_LIMIT_SETTINGS, useXmlLimits, xmlLimits, type XmlLimits } from './xml/limits.js';
export { ublTreeOf, type UblTree } from './ublTree.js';
export {
  compareVersions,
  LATEST_RULE_SET,
  RULE_SETS,
  ruleSetById,
  ruleSetInForce,
  type RuleSet,
  type RuleSetId,
} from './ruleSets.js';

const ALL_LAYERS: RuleLayer[] = ['cen', 'peppol'];

/**
 * Validate a UBL Invoice or CreditNote against the business rules of a rule set (the latest when not
 * named: the service always names the set in force). Returns every rule firing (one per offending
 * element) with the rule's official flag; an empty array means no rule fired.
 */
export function validateUblTree(
  { root, kind }: UblTree,
  options?: { layers?: RuleLayer[]; ruleSet?: RuleSet },
): ValidationIssue[] {
  const layers = options?.layers ?? ALL_LAYERS;
  const ctx = new Ctx(root, kind, options?.ruleSet ?? LATEST_RULE_SET);
  if (layers.includes('cen')) cenRules(ctx);
  if (layers.includes('peppol')) peppolRules(ctx);
  return ctx.result();
}
