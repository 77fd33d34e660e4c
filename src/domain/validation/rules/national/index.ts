import type { Ctx } from '../../context.js';

/** National rules of the Peppol 3.0.19 rule file; each applies only to its country. */
export function nationalRules(_ctx: Ctx): void {}
