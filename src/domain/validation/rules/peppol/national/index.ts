import type { Ctx } from '../../../context.js';
import { deRules } from './de.js';
import { dkRules } from './dk.js';
import { grRules } from './gr.js';
import { isRules } from './is.js';
import { itRules } from './it.js';
import { nlRules } from './nl.js';
import { noRules } from './no.js';
import { seRules } from './se.js';

/** National rules of the Peppol rule file (3.0.19, 3.0.21); each applies only to its country. */
export function nationalRules(ctx: Ctx): void {
  deRules(ctx);
  dkRules(ctx);
  grRules(ctx);
  isRules(ctx);
  itRules(ctx);
  nlRules(ctx);
  noRules(ctx);
  seRules(ctx);
}
