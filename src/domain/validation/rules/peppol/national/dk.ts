// Danish national rules (DK-R-*): apply when the seller postal country is DK (most also need a DK buyer).
import { Ctx, rule } from '../../../context.js';
import { dec } from '../../../decimal.js';
import { all, attr, kid, kids, normSpace, str } from '../../../../xml/xmlTree.js';
import { concatPostalCountry } from './countries.js';

const R = {
  R002: rule('DK-R-002', 'fatal', 'Danish suppliers MUST provide legal entity (CVR-number)'),
  R003: rule(
    'DK-R-003',
    'warning',
    'If ItemClassification is provided from Danish suppliers, UNSPSC version 19.05.01 or 26.08.01 should be used',
  ),
  /** From 3.0.21 the UNSPSC version rule is fatal. */
  R003_FATAL: rule(
    'DK-R-003',
    'fatal',
    'If ItemClassification is provided from Danish suppliers, UNSPSC version 19.05.01 or 26.08.01 must be used',
  ),
  R017: rule(
    'DK-R-017',
    'fatal',
    'For Danish buyers, a buyer legal registration identifier (PartyLegalEntity/CompanyID) must have schemeID "0184" (DK CVR-number)',
  ),
  R004: rule(
    'DK-R-004',
    'fatal',
    "When specifying non-VAT Taxes, Danish suppliers MUST use the AllowanceChargeReasonCode='ZZZ' and the 4-digit Tax category MUST be specified in 'AllowanceChargeReason'",
  ),
  R005: rule(
    'DK-R-005',
    'fatal',
    'For Danish suppliers the following Payment means type codes are allowed: 1, 10, 31, 42, 48, 49, 50, 58, 59, 93 and 97',
  ),
  R006: rule(
    'DK-R-006',
    'fatal',
    'For Danish suppliers bank account and registration account is mandatory if payment means is 31 or 42',
  ),
  R007: rule(
    'DK-R-007',
    'fatal',
    'For Danish suppliers PaymentMandate/ID and PayerFinancialAccount/ID are mandatory when payment means is 49',
  ),
  R008: rule(
    'DK-R-008',
    'fatal',
    'For Danish Suppliers PaymentID is mandatory and MUST start with 01#, 04# or 15# (kortartkode), and PayeeFinancialAccount/ID (Giro kontonummer) is mandatory and must be 7 or 8 characters long, when payment means equals 50 (Giro)',
  ),
  R009: rule(
    'DK-R-009',
    'fatal',
    'For Danish Suppliers if the PaymentID is prefixed with 04# or 15# the 16 digits instruction Id must be added to the PaymentID eg. "04#1234567890123456" when Payment means equals 50 (Giro)',
  ),
  R010: rule(
    'DK-R-010',
    'fatal',
    'For Danish Suppliers the PaymentID is mandatory and MUST start with 71#, 73# or 75# (kortartkode) and PayeeFinancialAccount/ID (Kreditornummer) is mandatory and must be exactly 8 characters long, when payment means equals 93 (FIK)',
  ),
  R011: rule(
    'DK-R-011',
    'fatal',
    'For Danish Suppliers if the PaymentID is prefixed with 71# or 75# the 15-16 digits instruction Id must be added to the PaymentID eg. "71#1234567890123456" when payment Method equals 93 (FIK)',
  ),
  R013: rule(
    'DK-R-013',
    'fatal',
    'For Danish Suppliers it is mandatory to use schemeID when PartyIdentification/ID is used for AccountingCustomerParty or AccountingSupplierParty',
  ),
  R014: rule(
    'DK-R-014',
    'fatal',
    'For Danish Suppliers it is mandatory to specify schemeID as "0184" (DK CVR-number) when PartyLegalEntity/CompanyID is used for AccountingSupplierParty',
  ),
  R016: rule('DK-R-016', 'fatal', 'For Danish Suppliers, a Credit note cannot have a negative total (PayableAmount)'),
};

const UNSPSC_VERSIONS = new Set(['19.05.01', '19.0501', '26.08.01', '26.0801']);
const DK_PAYMENT_MEANS = new Set(['1', '10', '31', '42', '48', '49', '50', '58', '59', '93', '97']);

export function dkRules(ctx: Ctx): void {
  const { root, seller, buyer } = ctx;
  const supplierDK = concatPostalCountry(ctx, 'cac:AccountingSupplierParty') === 'DK';
  if (!supplierDK) return;
  const customerDK = concatPostalCountry(ctx, 'cac:AccountingCustomerParty') === 'DK';
  const legal = all(seller, 'cac:PartyLegalEntity/cbc:CompanyID');
  ctx.check(
    R.R002,
    root,
    legal.some((c) => normSpace(c.text) !== ''),
  );
  ctx.check(R.R014, root, !(legal.length > 0 && normSpace(attr(legal[0], 'schemeID') ?? '') !== '0184'));
  if (ctx.kind === 'CreditNote' && customerDK)
    ctx.check(R.R016, root, !(dec(kid(ctx.lmt, 'cbc:PayableAmount'))?.lt(0) ?? false));
  if (!customerDK) return;

  for (const ac of kids(root, 'cac:AllowanceCharge')) {
    if (!kids(ac, 'cbc:AllowanceChargeReasonCode').some((c) => str(c) === 'ZZZ')) continue;
    // Either a 4-digit tax category, or a text containing '#' that neither starts nor ends with it.
    const reason = normSpace(str(kid(ac, 'cbc:AllowanceChargeReason')));
    const fourDigits = /^[0-9]{4}$/.test(reason);
    const hashed = reason.includes('#') && !reason.startsWith('#') && !reason.endsWith('#');
    ctx.check(R.R004, ac, fourDigits || hashed);
  }
  if (ctx.peppolFrom('3.0.21'))
    for (const party of kids(kid(root, 'cac:AccountingCustomerParty'), 'cac:Party')) {
      const buyerLegal = all(party, 'cac:PartyLegalEntity/cbc:CompanyID');
      ctx.check(R.R017, party, !(buyerLegal.length > 0 && normSpace(attr(buyerLegal[0], 'schemeID') ?? '') !== '0184'));
    }
  const r003 = ctx.peppolFrom('3.0.21') ? R.R003_FATAL : R.R003;
  for (const line of ctx.lines) {
    // Per line: a UNSPSC classification (listID 'TST', UNTDID 7143) needs an accepted version on one
    // of the line's classification codes; versions are accepted with or without the second dot.
    const codes = all(line, 'cac:Item/cac:CommodityClassification/cbc:ItemClassificationCode');
    const unspsc = codes.some((c) => attr(c, 'listID') === 'TST');
    const versionOk = codes.some((c) => UNSPSC_VERSIONS.has(attr(c, 'listVersionID') ?? ''));
    ctx.check(r003, line, !(unspsc && !versionOk));
  }
  for (const pm of kids(root, 'cac:PaymentMeans')) {
    const code = str(kid(pm, 'cbc:PaymentMeansCode'));
    const paymentId = str(kid(pm, 'cbc:PaymentID'));
    const prefix = paymentId.slice(0, 3);
    const payee = normSpace(str(one(pm, 'cac:PayeeFinancialAccount/cbc:ID')));
    ctx.check(R.R005, pm, DK_PAYMENT_MEANS.has(code));
    if (code === '31' || code === '42')
      ctx.check(
        R.R006,
        pm,
        payee !== '' &&
          normSpace(str(one(pm, 'cac:PayeeFinancialAccount/cac:FinancialInstitutionBranch/cbc:ID'))) !== '',
      );
    if (code === '49')
      ctx.check(
        R.R007,
        pm,
        normSpace(str(one(pm, 'cac:PaymentMandate/cbc:ID'))) !== '' &&
          normSpace(str(one(pm, 'cac:PaymentMandate/cac:PayerFinancialAccount/cbc:ID'))) !== '',
      );
    if (code === '50') {
      ctx.check(
        R.R008,
        pm,
        ['01#', '04#', '15#'].includes(prefix) &&
          [7, 8].includes(str(one(pm, 'cac:PayeeFinancialAccount/cbc:ID')).length),
      );
      if (prefix === '04#' || prefix === '15#') ctx.check(R.R009, pm, paymentId.length === 19);
    }
    if (code === '93') {
      ctx.check(
        R.R010,
        pm,
        ['71#', '73#', '75#'].includes(prefix) && str(one(pm, 'cac:PayeeFinancialAccount/cbc:ID')).length === 8,
      );
      if (prefix === '71#' || prefix === '75#')
        ctx.check(R.R011, pm, paymentId.length === 18 || paymentId.length === 19);
    }
  }
  for (const party of [seller, buyer])
    for (const pi of kids(party, 'cac:PartyIdentification')) {
      const id = kid(pi, 'cbc:ID');
      ctx.check(R.R013, pi, !(id && normSpace(attr(id, 'schemeID') ?? '') === ''));
    }
}

import { one } from '../../../../xml/xmlTree.js';
