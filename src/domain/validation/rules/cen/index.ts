import type { Ctx } from '../../context.js';
import { calculationRules } from './calculations.js';
import { codeListRules } from './codeLists.js';
import { coreRules } from './core.js';
import { dataTypeRules } from './dataTypes.js';
import { decimalRules } from './decimals.js';
import { restrictedRules } from './restricted.js';
import { syntaxRules } from './syntax.js';
import { vatCategoryRules } from './vatCategories.js';

/** EN 16931 rules for UBL: CEN artefacts 1.3.14.1 or 1.3.16, as the context's rule set says (ctx.cenFrom). */
export function cenRules(ctx: Ctx): void {
  coreRules(ctx);
  calculationRules(ctx);
  decimalRules(ctx);
  vatCategoryRules(ctx);
  codeListRules(ctx);
  syntaxRules(ctx);
  dataTypeRules(ctx);
  restrictedRules(ctx);
}
