// EN 16931 decimal precision rules BR-DEC-*: at most two characters after the decimal point.
import { Ctx, cenChargeIndicator, rule, type Rule } from '../../context.js';
import { decimalsInText } from '../../decimal.js';
import { kids, type XNode } from '../../../xml/xmlTree.js';
import { anyLines } from './core.js';

const r = (id: string, bt: string) => rule(id, 'fatal', `The allowed maximum number of decimals for ${bt} is 2.`);

const DOC_AC: [boolean, string, Rule][] = [
  [false, 'cbc:Amount', r('BR-DEC-01', 'the Document level allowance amount (BT-92)')],
  [false, 'cbc:BaseAmount', r('BR-DEC-02', 'the Document level allowance base amount (BT-93)')],
  [true, 'cbc:Amount', r('BR-DEC-05', 'the Document level charge amount (BT-99)')],
  [true, 'cbc:BaseAmount', r('BR-DEC-06', 'the Document level charge base amount (BT-100)')],
];
const LINE_AC: [boolean, string, Rule][] = [
  [false, 'cbc:Amount', r('BR-DEC-24', 'the Invoice line allowance amount (BT-136)')],
  [false, 'cbc:BaseAmount', r('BR-DEC-25', 'the Invoice line allowance base amount (BT-137)')],
  [true, 'cbc:Amount', r('BR-DEC-27', 'the Invoice line charge amount (BT-141)')],
  [true, 'cbc:BaseAmount', r('BR-DEC-28', 'the Invoice line charge base amount (BT-142)')],
];
// BR-DEC-13 and BR-DEC-15 never fire in CEN 1.3.14.1 (their amount selection matches nothing); not listed.
const TOTALS: [string, Rule][] = [
  ['cbc:LineExtensionAmount', r('BR-DEC-09', 'the Sum of Invoice line net amount (BT-106)')],
  ['cbc:AllowanceTotalAmount', r('BR-DEC-10', 'the Sum of allowanced on document level (BT-107)')],
  ['cbc:ChargeTotalAmount', r('BR-DEC-11', 'the Sum of charges on document level (BT-108)')],
  ['cbc:TaxExclusiveAmount', r('BR-DEC-12', 'the Invoice total amount without VAT (BT-109)')],
  ['cbc:TaxInclusiveAmount', r('BR-DEC-14', 'the Invoice total amount with VAT (BT-112)')],
  ['cbc:PrepaidAmount', r('BR-DEC-16', 'the Paid amount (BT-113)')],
  ['cbc:PayableRoundingAmount', r('BR-DEC-17', 'the Rounding amount (BT-114)')],
  ['cbc:PayableAmount', r('BR-DEC-18', 'the Amount due for payment (BT-115)')],
];
const DEC19 = r('BR-DEC-19', 'the VAT category taxable amount (BT-116)');
const DEC20 = r('BR-DEC-20', 'the VAT category tax amount (BT-117)');
const DEC23 = r('BR-DEC-23', 'the Invoice line net amount (BT-131)');

function checkAc(ctx: Ctx, acs: XNode[], table: [boolean, string, Rule][]): void {
  for (const ac of acs) {
    const ci = cenChargeIndicator(ac);
    for (const [charge, el, rr] of table) {
      if (ci !== charge) continue;
      for (const n of kids(ac, el)) ctx.check(rr, n, decimalsInText(n) <= 2);
    }
  }
}

export function decimalRules(ctx: Ctx): void {
  checkAc(ctx, kids(ctx.root, 'cac:AllowanceCharge'), DOC_AC);
  for (const line of anyLines(ctx)) {
    checkAc(ctx, kids(line, 'cac:AllowanceCharge'), LINE_AC);
    for (const n of kids(line, 'cbc:LineExtensionAmount')) ctx.check(DEC23, n, decimalsInText(n) <= 2);
  }
  for (const lmt of kids(ctx.root, 'cac:LegalMonetaryTotal'))
    for (const [el, rr] of TOTALS) for (const n of kids(lmt, el)) ctx.check(rr, n, decimalsInText(n) <= 2);
  for (const tt of kids(ctx.root, 'cac:TaxTotal'))
    for (const st of kids(tt, 'cac:TaxSubtotal')) {
      for (const n of kids(st, 'cbc:TaxableAmount')) ctx.check(DEC19, n, decimalsInText(n) <= 2);
      for (const n of kids(st, 'cbc:TaxAmount')) ctx.check(DEC20, n, decimalsInText(n) <= 2);
    }
}
