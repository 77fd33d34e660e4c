import type { Ctx } from '../../context.js';
import { nationalRules } from './national/index.js';
import { allowanceAndLineRules } from './allowancesAndLines.js';
import { codeRules } from './codes.js';
import { documentRules } from './document.js';
import { identifierRules } from './identifiers.js';
import { declaresSelfBilling } from './shared.js';

/**
 * Peppol BIS Billing rules (PEPPOL-EN16931-*, PEPPOL-COMMON-*) and the national rules, or, for a
 * document that declares Peppol BIS Self-Billing, the self-billing rules.
 *
 * Self-billing: from 3.0.21 the release ships its own Schematron (PEPPOL-EN16931-UBL-SB.xslt), the
 * billing rules with these differences, gated by `selfBilling` below: the self-billing specification
 * and profile identifiers (R004, R007), its own invoice / credit note type codes (P0100, P0101) for
 * profile 01 only, no P0112, R051 not on the subtotal tax amounts, and no national rules. 3.0.19 had
 * no self-billing Schematron: there a self-billing document gets the billing rules with only the
 * self-billing identifiers in R004 and R007 (as before 3.0.21 was implemented).
 */
export function peppolRules(ctx: Ctx): void {
  const declared = declaresSelfBilling(ctx);
  const selfBilling = declared && ctx.peppolFrom('3.0.21');
  documentRules(ctx, declared);
  allowanceAndLineRules(ctx);
  codeRules(ctx, selfBilling);
  identifierRules(ctx);
  if (!selfBilling) nationalRules(ctx);
}
