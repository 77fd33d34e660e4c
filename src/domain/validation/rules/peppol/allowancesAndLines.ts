// Peppol allowance/charge arithmetic and line-level rules (R040-R046, R120, R121, R130).
import { Ctx, peppolChargeIndicator, rule } from '../../context.js';
import { Decimal, dec, round2 } from '../../decimal.js';
import { all, attr, has, kid, kids, normSpace, str, type XNode } from '../../../xml/xmlTree.js';

const R = {
  R040: rule(
    'PEPPOL-EN16931-R040',
    'fatal',
    'Allowance/charge amount must equal base amount * percentage/100 if base amount and percentage exists',
  ),
  R041: rule(
    'PEPPOL-EN16931-R041',
    'fatal',
    'Allowance/charge base amount MUST be provided when allowance/charge percentage is provided.',
  ),
  R042: rule(
    'PEPPOL-EN16931-R042',
    'fatal',
    'Allowance/charge percentage MUST be provided when allowance/charge base amount is provided.',
  ),
  R043: rule('PEPPOL-EN16931-R043', 'fatal', "Allowance/charge ChargeIndicator value MUST equal 'true' or 'false'"),
  R044: rule('PEPPOL-EN16931-R044', 'fatal', "Charge on price level is NOT allowed. Only value 'false' allowed."),
  R046: rule(
    'PEPPOL-EN16931-R046',
    'fatal',
    'Item net price MUST equal (Gross price - Allowance amount) when gross price is provided.',
  ),
  R120: rule(
    'PEPPOL-EN16931-R120',
    'fatal',
    'Invoice line net amount MUST equal (Invoiced quantity * (Item net price/item price base quantity) + Sum of invoice line charge amount - sum of invoice line allowance amount',
  ),
  R121: rule('PEPPOL-EN16931-R121', 'fatal', 'Base quantity MUST be a positive number above zero.'),
  R130: rule('PEPPOL-EN16931-R130', 'fatal', 'Unit code of price base quantity MUST be same as invoiced quantity.'),
};

const TOLERANCE = new Decimal('0.02');

/** Document- and line-level allowance/charge: the first matching context wins (R041, then R042, then R040/R043). */
function allowanceCharge(ctx: Ctx, ac: XNode): void {
  const hasFactor = has(ac, 'cbc:MultiplierFactorNumeric');
  const hasBase = has(ac, 'cbc:BaseAmount');
  if (hasFactor && !hasBase) return ctx.fail(R.R041, ac);
  if (hasBase && !hasFactor) return ctx.fail(R.R042, ac);
  if (hasFactor && hasBase) {
    const base = dec(kid(ac, 'cbc:BaseAmount'));
    const factor = dec(kid(ac, 'cbc:MultiplierFactorNumeric'));
    const amount = has(ac, 'cbc:Amount') ? dec(kid(ac, 'cbc:Amount')) : new Decimal(0);
    const ok =
      base !== null &&
      factor !== null &&
      amount !== null &&
      amount.minus(base.times(factor).div(100)).abs().lte(TOLERANCE);
    ctx.check(R.R040, ac, ok);
  }
  ctx.check(R.R043, ac, peppolChargeIndicator(ac) !== undefined);
}

export function allowanceAndLineRules(ctx: Ctx): void {
  for (const ac of kids(ctx.root, 'cac:AllowanceCharge')) allowanceCharge(ctx, ac);
  for (const line of ctx.lines) {
    for (const ac of kids(line, 'cac:AllowanceCharge')) allowanceCharge(ctx, ac);
    for (const price of kids(line, 'cac:Price')) {
      for (const pac of kids(price, 'cac:AllowanceCharge')) {
        ctx.check(R.R044, pac, normSpace(str(kid(pac, 'cbc:ChargeIndicator'))) === 'false');
        if (has(pac, 'cbc:BaseAmount')) {
          const priceAmount = dec(kid(price, 'cbc:PriceAmount'));
          const base = dec(kid(pac, 'cbc:BaseAmount'));
          const amount = dec(kid(pac, 'cbc:Amount'));
          ctx.check(
            R.R046,
            pac,
            priceAmount !== null && base !== null && amount !== null && priceAmount.eq(base.minus(amount)),
          );
        }
      }
      for (const bq of kids(price, 'cbc:BaseQuantity')) {
        ctx.check(R.R121, bq, dec(bq)?.gt(0) ?? false);
        const unit = attr(bq, 'unitCode');
        const qty = kid(line, ctx.qtyName);
        if (unit !== undefined && qty) ctx.check(R.R130, bq, attr(qty, 'unitCode') === unit);
      }
    }

    // R120: quantity x (price / base quantity) + round2(charges) - round2(allowances), within 0.02.
    const lea = dec(kid(line, 'cbc:LineExtensionAmount')) ?? new Decimal(0);
    const qty = kid(line, ctx.qtyName) ? (dec(kid(line, ctx.qtyName)) ?? new Decimal(0)) : new Decimal(1);
    const priceAmount = dec(all(line, 'cac:Price/cbc:PriceAmount')[0]) ?? new Decimal(0);
    let baseQty = dec(all(line, 'cac:Price/cbc:BaseQuantity')[0]) ?? new Decimal(1);
    if (baseQty.isZero()) baseQty = new Decimal(1);
    let charges = new Decimal(0);
    let allowances = new Decimal(0);
    for (const ac of kids(line, 'cac:AllowanceCharge')) {
      const ci = peppolChargeIndicator(ac);
      // Every amount the allowance or charge carries is summed (a second one too, as the official rule does).
      for (const amt of kids(ac, 'cbc:Amount').map((a) => dec(a))) {
        if (!amt) continue;
        if (ci === 'true') charges = charges.plus(amt);
        else if (ci === 'false') allowances = allowances.plus(amt);
      }
    }
    const expected = qty.times(priceAmount.div(baseQty)).plus(round2(charges)).minus(round2(allowances));
    ctx.check(R.R120, line, lea.minus(expected).abs().lte(TOLERANCE));
  }
}
