// Native (TypeScript) business-rule validation for UBL Invoice / CreditNote:
// EN 16931 core rules (CEN 1.3.14.1) and Peppol BIS Billing 3.0.19 rules including the national rules.
import { Ctx } from './context.js';
import { cenRules } from './rules/cen/index.js';
import { peppolRules } from './rules/peppol/index.js';
import type { RuleLayer, ValidationIssue } from './types.js';
import type { XmlLimits } from './xml/limits.js';
import { parseOwnUbl, parseUbl, type ParsedDocument } from './xml/parse.js';

export type { RuleFlag, RuleLayer, ValidationIssue } from './types.js';
export { XmlEncodingError, XmlInputError, XmlLimitExceeded } from './errors.js';
export { decodeXmlBytes } from './xml/encoding.js';
export { DEFAULT_XML_LIMITS, XML_LIMIT_SETTINGS, useXmlLimits, xmlLimits, type XmlLimits } from './xml/limits.js';

const ALL_LAYERS: RuleLayer[] = ['cen', 'peppol'];

/**
 * Validate a UBL Invoice or CreditNote against the business rules. Returns every rule firing (one per
 * offending element) with the rule's official flag; an empty array means no rule fired.
 * Throws XmlInputError when the input is not acceptable XML (malformed, DOCTYPE/entities, wrong root),
 * XmlLimitExceeded when it is beyond `limits`, XmlEncodingError when bytes are not text in their encoding.
 */
export function validateUbl(xml: string | Buffer, options?: { layers?: RuleLayer[]; limits?: XmlLimits }): ValidationIssue[] {
  return runRules(parseUbl(xml, options?.limits), options?.layers);
}

/** The same rules on UBL this service wrote itself (ublWriter): no gate for untrusted input (parseOwnUbl). */
export function validateOwnUbl(xml: string): ValidationIssue[] {
  return runRules(parseOwnUbl(xml));
}

function runRules({ root, kind }: ParsedDocument, layers: RuleLayer[] = ALL_LAYERS): ValidationIssue[] {
  const ctx = new Ctx(root, kind);
  if (layers.includes('cen')) cenRules(ctx);
  if (layers.includes('peppol')) peppolRules(ctx);
  return ctx.result();
}
