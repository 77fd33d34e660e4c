import type { Ctx } from '../../context.js';

/** Peppol BIS Billing 3.0.19 rules (PEPPOL-EN16931-*, PEPPOL-COMMON-*) and the national rules. */
export function peppolRules(_ctx: Ctx): void {}
