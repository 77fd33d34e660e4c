import type { Ctx } from '../../../context.js';
import { deRules } from './de.js';
import { dkRules } from './dk.js';
import { grRules } from './gr.js';
import { itRules } from './it.js';
import { nlRules } from './nl.js';
import { noRules } from './no.js';
import { seRules } from './se.js';

/** National rules of the Peppol 3.0.19 rule file; each applies only to its country. */
export function nationalRules(ctx: Ctx): void {
  deRules(ctx);
  dkRules(ctx);
  grRules(ctx);
  itRules(ctx);
  nlRules(ctx);
  noRules(ctx);
  seRules(ctx);
}
