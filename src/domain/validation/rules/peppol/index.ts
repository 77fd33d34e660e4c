import type { Ctx } from '../../context.js';
import { nationalRules } from './national/index.js';
import { allowanceAndLineRules } from './allowancesAndLines.js';
import { codeRules } from './codes.js';
import { documentRules } from './document.js';
import { identifierRules } from './identifiers.js';

/** Peppol BIS Billing 3.0.19 rules (PEPPOL-EN16931-*, PEPPOL-COMMON-*) and the national rules. */
export function peppolRules(ctx: Ctx): void {
  documentRules(ctx);
  allowanceAndLineRules(ctx);
  codeRules(ctx);
  identifierRules(ctx);
  nationalRules(ctx);
}
