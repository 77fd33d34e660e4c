// Swedish national rules (SE-R-*): seller postal country SE.
import { Ctx, rule } from '../../../context.js';
import { dec } from '../../../decimal.js';
import { all, kid, kids, normSpace, str, type XNode } from '../../../../xml/xmlTree.js';
import { seOrgOk } from '../identifiers.js';
import { postalCountry, vatCompanyIds } from './countries.js';

const R = {
  R001: rule('SE-R-001', 'fatal', 'For Swedish suppliers, Swedish VAT-numbers must consist of 14 characters.'),
  R002: rule(
    'SE-R-002',
    'fatal',
    'For Swedish suppliers, the Swedish VAT-numbers must have the trailing 12 characters in numeric form',
  ),
  R003: rule('SE-R-003', 'fatal', 'Swedish organisation numbers should be numeric.'),
  R004: rule('SE-R-004', 'fatal', 'Swedish organisation numbers consist of 10 characters.'),
  R005: rule(
    'SE-R-005',
    'fatal',
    "For Swedish suppliers, when using Seller tax registration identifier, 'Godkänd för F-skatt' must be stated",
  ),
  R006: rule('SE-R-006', 'fatal', 'For Swedish suppliers, only standard VAT rate of 6, 12 or 25 are used'),
  R007: rule('SE-R-007', 'warning', 'For Swedish suppliers using Plusgiro, the Account ID must be numeric'),
  R008: rule('SE-R-008', 'warning', 'For Swedish suppliers using Bankgiro, the Account ID must be numeric'),
  R009: rule('SE-R-009', 'warning', 'For Swedish suppliers using Bankgiro, the Account ID must have 7-8 characters'),
  R010: rule('SE-R-010', 'warning', 'For Swedish suppliers using Plusgiro, the Account ID must have 2-8 characters'),
  R011: rule(
    'SE-R-011',
    'warning',
    'For Swedish suppliers using Swedish Bankgiro or Plusgiro, the proper way to indicate this is to use Code 30 for PaymentMeans and FinancialInstitutionBranch ID with code SE:BANKGIRO or SE:PLUSGIRO',
  ),
  R012: rule(
    'SE-R-012',
    'warning',
    'For domestic transactions between Swedish trading partners, credit transfer should be indicated by PaymentMeansCode="30"',
  ),
  R013: rule('SE-R-013', 'fatal', 'The last digit of a Swedish organization number (check digit) must be valid'),
};

/** XPath number(): a decimal-looking string (surrounding whitespace allowed), else NaN. */
function isNumber(s: string): boolean {
  return /^\s*[+-]?(\d+(\.\d*)?|\.\d+)\s*$/.test(s) && !/^\s*\+/.test(s);
}

export function seRules(ctx: Ctx): void {
  const { seller, buyer } = ctx;
  if (postalCountry(seller) !== 'SE') return;
  const vat = vatCompanyIds(seller);
  if (vat.length > 0 && str(vat[0]).slice(0, 2) === 'SE') {
    ctx.check(R.R001, seller!, normSpace(str(vat[0])).length === 14);
    ctx.check(R.R002, seller!, isNumber(str(vat[0]).slice(2, 14)));
  }
  for (const le of kids(seller, 'cac:PartyLegalEntity')) {
    const id = kid(le, 'cbc:CompanyID');
    if (!id) continue;
    ctx.check(R.R003, le, isNumber(str(id)));
    ctx.check(R.R004, le, normSpace(str(id)).length === 10);
    ctx.check(R.R013, le, seOrgOk(normSpace(str(id))));
  }
  // SE-R-005: a seller with a legal registration number; every tax registration that is not VAT
  // (a missing scheme id counts as not VAT) must be the F-tax statement.
  if (all(seller, 'cac:PartyLegalEntity/cbc:CompanyID').length > 0)
    for (const pts of kids(seller, 'cac:PartyTaxScheme')) {
      const scheme = all(pts, 'cac:TaxScheme/cbc:ID');
      if (scheme.length > 1 || normSpace(str(scheme[0]).toUpperCase()) === 'VAT') continue;
      for (const id of kids(pts, 'cbc:CompanyID'))
        ctx.check(R.R005, id, normSpace(str(id).toUpperCase()) === 'GODKÄND FÖR F-SKATT');
    }
  // SE-R-006 applies to a seller with a Swedish VAT number.
  const swedishVat = kids(seller, 'cac:PartyTaxScheme').some(
    (pts) =>
      all(pts, 'cac:TaxScheme/cbc:ID').some((s) => str(s) === 'VAT') &&
      kids(pts, 'cbc:CompanyID').some((id) => str(id).slice(0, 2) === 'SE'),
  );
  const cats: XNode[] = swedishVat ? [...ctx.desc('cac:TaxCategory'), ...ctx.desc('cac:ClassifiedTaxCategory')] : [];
  for (const tc of cats) {
    if (str(kid(tc, 'cbc:ID')) !== 'S') continue;
    const p = dec(kid(tc, 'cbc:Percent'));
    ctx.check(R.R006, tc, p !== null && (p.eq(25) || p.eq(12) || p.eq(6)));
  }
  for (const pm of ctx.desc('cac:PaymentMeans')) {
    const code = normSpace(str(kid(pm, 'cbc:PaymentMeansCode')));
    const branch = normSpace(str(all(pm, 'cac:PayeeFinancialAccount/cac:FinancialInstitutionBranch/cbc:ID')[0]));
    if (code === '30' && (branch === 'SE:PLUSGIRO' || branch === 'SE:BANKGIRO')) {
      for (const id of all(pm, 'cac:PayeeFinancialAccount/cbc:ID')) {
        const v = normSpace(str(id));
        if (branch === 'SE:PLUSGIRO') {
          ctx.check(R.R007, id, isNumber(v));
          ctx.check(R.R010, id, v.length >= 2 && v.length <= 8);
        } else {
          ctx.check(R.R008, id, isNumber(v));
          ctx.check(R.R009, id, v.length === 7 || v.length === 8);
        }
      }
    }
    const rawCode = str(kid(pm, 'cbc:PaymentMeansCode'));
    if (rawCode === '50' || rawCode === '56') ctx.fail(R.R011, pm);
    if (postalCountry(buyer) === 'SE' && rawCode === '31') ctx.fail(R.R012, pm);
  }
}
