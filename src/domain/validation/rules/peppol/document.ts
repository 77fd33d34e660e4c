// Peppol document-level rules: profile/customization, parties, tax totals, references, periods, empty elements.
import { Ctx, dateOf, rule } from '../../context.js';
import { dec } from '../../decimal.js';
import { all, attr, has, kid, kids, normSpace, str } from '../../../xml/xmlTree.js';
import {
  buyerCountry,
  PROFILE_LOOSE_RE,
  profileOf,
  SELFBILLING_CUSTOMIZATION_PREFIX,
  sellerCountry,
} from './shared.js';

const R = {
  R001: rule('PEPPOL-EN16931-R001', 'fatal', 'Business process MUST be provided.'),
  R002: rule(
    'PEPPOL-EN16931-R002',
    'fatal',
    'No more than one note is allowed on document level, unless both the buyer and seller are German organizations.',
  ),
  R003: rule('PEPPOL-EN16931-R003', 'fatal', 'A buyer reference or purchase order reference MUST be provided.'),
  R004: rule(
    'PEPPOL-EN16931-R004',
    'fatal',
    "Specification identifier MUST have the value 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0'.",
  ),
  R005: rule(
    'PEPPOL-EN16931-R005',
    'fatal',
    'VAT accounting currency code MUST be different from invoice currency code when provided.',
  ),
  R007: rule(
    'PEPPOL-EN16931-R007',
    'fatal',
    "Business process MUST be in the format 'urn:fdc:peppol.eu:2017:poacc:billing:NN:1.0' where NN indicates the process number.",
  ),
  /** From 3.0.21: the process must be one of the approved profile identifiers. */
  R007_LISTED: rule(
    'PEPPOL-EN16931-R007',
    'fatal',
    'Business process (ProfileID) must be one of the approved profile identifiers, e.g. urn:fdc:peppol.eu:2017:poacc:billing:01:1.0.',
  ),
  R008: rule('PEPPOL-EN16931-R008', 'fatal', 'Document MUST not contain empty elements.'),
  R010: rule('PEPPOL-EN16931-R010', 'fatal', 'Buyer electronic address MUST be provided'),
  R020: rule('PEPPOL-EN16931-R020', 'fatal', 'Seller electronic address MUST be provided'),
  R053: rule('PEPPOL-EN16931-R053', 'fatal', 'Only one tax total with tax subtotals MUST be provided.'),
  R054: rule(
    'PEPPOL-EN16931-R054',
    'fatal',
    'Only one tax total without tax subtotals MUST be provided when tax currency code is provided.',
  ),
  R055: rule(
    'PEPPOL-EN16931-R055',
    'fatal',
    'Invoice total VAT amount and Invoice total VAT amount in accounting currency MUST have the same operational sign',
  ),
  R061: rule('PEPPOL-EN16931-R061', 'fatal', 'Mandate reference MUST be provided for direct debit.'),
  R080: rule('PEPPOL-EN16931-R080', 'fatal', 'Only one project reference is allowed on document level'),
  R100: rule('PEPPOL-EN16931-R100', 'fatal', 'Only one invoiced object is allowed pr line'),
  R101: rule('PEPPOL-EN16931-R101', 'fatal', 'Element Document reference can only be used for Invoice line object'),
  R110: rule('PEPPOL-EN16931-R110', 'fatal', 'Start date of line period MUST be within invoice period.'),
  R111: rule('PEPPOL-EN16931-R111', 'fatal', 'End date of line period MUST be within invoice period.'),
};

const CUSTOMIZATION_PREFIX = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';
/**
 * Peppol BIS Self-Billing 3.0 applies these same rules with its own specification and process
 * identifiers in R004 and R007: a document that declares self-billing is held to those.
 */
const SELFBILLING_PROFILE_RE = /urn:fdc:peppol.eu:2017:poacc:selfbilling:([0-9]{2}):1.0/;

/** `selfBilling`: the document declares Peppol BIS Self-Billing (shared.ts declaresSelfBilling), in any release. */
export function documentRules(ctx: Ctx, selfBilling: boolean): void {
  const { root } = ctx;
  ctx.check(R.R001, root, has(root, 'cbc:ProfileID'));
  ctx.check(
    R.R002,
    root,
    kids(root, 'cbc:Note').length <= 1 || (sellerCountry(ctx) === 'DE' && buyerCountry(ctx) === 'DE'),
  );
  ctx.check(R.R003, root, has(root, 'cbc:BuyerReference') || has(root, 'cac:OrderReference/cbc:ID'));
  const customizations = kids(root, 'cbc:CustomizationID').map((c) => normSpace(str(c)));
  const customizationPrefix = selfBilling ? SELFBILLING_CUSTOMIZATION_PREFIX : CUSTOMIZATION_PREFIX;
  const profilePattern = selfBilling ? SELFBILLING_PROFILE_RE : PROFILE_LOOSE_RE;
  // R004 is evaluated on the document: a missing CustomizationID fails it too. From 3.0.21 the
  // identifier carries no version suffix ('::').
  const customization = customizations[0] ?? '';
  ctx.check(
    R.R004,
    root,
    customization.startsWith(customizationPrefix) && !(ctx.peppolFrom('3.0.21') && customization.includes('::')),
  );
  // An absent invoice currency reads as '': an empty tax currency then equals it.
  const docCur = normSpace(str(kids(root, 'cbc:DocumentCurrencyCode')[0]));
  for (const t of kids(root, 'cbc:TaxCurrencyCode')) ctx.check(R.R005, t, normSpace(str(t)) !== docCur);
  // R007 is evaluated on the document: a missing ProfileID also fails it (the profile is then 'Unknown').
  // From 3.0.21 only the listed profiles are accepted.
  if (ctx.peppolFrom('3.0.21')) ctx.check(R.R007_LISTED, root, profileOf(ctx, selfBilling) !== 'Unknown');
  else
    ctx.check(
      R.R007,
      root,
      kids(root, 'cbc:ProfileID').some((p) => profilePattern.test(normSpace(str(p)))),
    );

  for (const el of ctx.elements()) if (el.children.length === 0 && normSpace(el.text) === '') ctx.fail(R.R008, el);

  for (const p of all(root, 'cac:AccountingCustomerParty/cac:Party')) ctx.check(R.R010, p, has(p, 'cbc:EndpointID'));
  for (const p of all(root, 'cac:AccountingSupplierParty/cac:Party')) ctx.check(R.R020, p, has(p, 'cbc:EndpointID'));

  const taxTotals = kids(root, 'cac:TaxTotal');
  ctx.check(R.R053, root, taxTotals.filter((t) => has(t, 'cac:TaxSubtotal')).length === 1);
  const taxCurrency = kids(root, 'cbc:TaxCurrencyCode');
  ctx.check(
    R.R054,
    root,
    taxTotals.filter((t) => !has(t, 'cac:TaxSubtotal')).length === (taxCurrency.length > 0 ? 1 : 0),
  );
  if (taxCurrency.length > 0) {
    const amountsIn = (cur: string | undefined) =>
      cur === undefined
        ? []
        : taxTotals
            .flatMap((t) => kids(t, 'cbc:TaxAmount'))
            .filter((a) => attr(a, 'currencyID') === cur)
            .map((a) => dec(a))
            .filter((d) => d !== null);
    const inTax = amountsIn(normSpace(str(taxCurrency[0])));
    const inDoc = amountsIn(kids(root, 'cbc:DocumentCurrencyCode').map((n) => normSpace(str(n)))[0]);
    const neg = inTax.some((d) => d.lte(0)) && inDoc.some((d) => d.lte(0));
    const pos = inTax.some((d) => d.gte(0)) && inDoc.some((d) => d.gte(0));
    ctx.check(R.R055, root, neg || pos);
  }

  for (const pm of kids(root, 'cac:PaymentMeans')) {
    const code = normSpace(str(kid(pm, 'cbc:PaymentMeansCode')));
    if (code === '49' || code === '59') ctx.check(R.R061, pm, has(pm, 'cac:PaymentMandate/cbc:ID'));
  }
  if (ctx.kind === 'CreditNote')
    ctx.check(
      R.R080,
      root,
      kids(root, 'cac:AdditionalDocumentReference').filter(
        (a) => normSpace(str(kid(a, 'cbc:DocumentTypeCode'))) === '50',
      ).length <= 1,
    );

  const docPeriod = kid(root, 'cac:InvoicePeriod');
  const docStart = dateOf(kid(docPeriod, 'cbc:StartDate'));
  const docEnd = dateOf(kid(docPeriod, 'cbc:EndDate'));
  for (const line of ctx.lines) {
    const refs = kids(line, 'cac:DocumentReference');
    ctx.check(R.R100, line, refs.length <= 1);
    for (const ref of refs) ctx.check(R.R101, ref, normSpace(str(kid(ref, 'cbc:DocumentTypeCode'))) === '130');
    for (const p of kids(line, 'cac:InvoicePeriod')) {
      const s = kid(p, 'cbc:StartDate');
      const e = kid(p, 'cbc:EndDate');
      if (docStart !== undefined && s) ctx.check(R.R110, s, (dateOf(s) ?? '') >= docStart);
      if (docEnd !== undefined && e) ctx.check(R.R111, e, dateOf(e) !== undefined && dateOf(e)! <= docEnd);
    }
  }
}
