// Greek national rules (GR-R-*, GR-S-*).
// Triggers: the document-number and seller rules use the VAT-based seller country (GR or EL); the
// invoice-mark / invoice-URL and endpoint rules use the seller postal country; buyer rules need both Greek.
import { Ctx, rule } from '../../../context.js';
import { all, attr, kids, normSpace, str, type XNode } from '../../../../xml/xmlTree.js';
import {
  accountingSupplierCountry,
  customerCountryByVat,
  postalCountry,
  supplierCountryByVat,
  vatCompanyIds,
} from './countries.js';

const R = {
  R001_1: rule('GR-R-001-1', 'fatal', 'When the Supplier is Greek, the Invoice Id should consist of 6 segments'),
  R001_2: rule(
    'GR-R-001-2',
    'fatal',
    "When the Supplier is Greek, the Invoice Id first segment must be a valid TIN Number and match either the Supplier's or the Tax Representative's Tin Number",
  ),
  R001_3: rule(
    'GR-R-001-3',
    'fatal',
    'When the Supplier is Greek, the Invoice Id second segment must be a valid Date that matches the invoice Issue Date',
  ),
  R001_4: rule(
    'GR-R-001-4',
    'fatal',
    'When Supplier is Greek, the Invoice Id third segment must be a positive integer',
  ),
  R001_5: rule(
    'GR-R-001-5',
    'fatal',
    'When Supplier is Greek, the Invoice Id in the fourth segment must be a valid greek document type',
  ),
  R001_6: rule('GR-R-001-6', 'fatal', 'When Supplier is Greek, the Invoice Id fifth segment must not be empty'),
  R001_7: rule('GR-R-001-7', 'fatal', 'When Supplier is Greek, the Invoice Id sixth segment must not be empty'),
  R002: rule(
    'GR-R-002',
    'fatal',
    'Greek Suppliers must provide their full name as they are registered in the Greek Business Registry (G.E.MH.) as a legal entity or in the Tax Registry as a natural person',
  ),
  R003: rule(
    'GR-R-003',
    'fatal',
    "For the Greek Suppliers, the VAT must start with 'EL' and must be a valid TIN number",
  ),
  R004_1: rule('GR-R-004-1', 'fatal', 'When Supplier is Greek, there must be one MARK Number'),
  R004_2: rule('GR-R-004-2', 'fatal', 'When Supplier is Greek, the MARK Number must be a positive integer'),
  R005: rule('GR-R-005', 'fatal', 'Greek Suppliers must provide the full name of the buyer'),
  R006: rule('GR-R-006', 'fatal', 'Greek suppliers must provide the VAT number of the buyer, if the buyer is Greek'),
  S008_1: rule('GR-S-008-1', 'warning', 'When Supplier is Greek, there should be one invoice url'),
  R008_2: rule('GR-R-008-2', 'fatal', 'When Supplier is Greek, there should be no more than one invoice url'),
  R008_3: rule(
    'GR-R-008-3',
    'fatal',
    'When Supplier is Greek and the INVOICE URL Document reference exists, the External Reference URI should be present',
  ),
  R009: rule(
    'GR-R-009',
    'fatal',
    "The Greek Supplier's Peppol Electronic Address (endpoint) must have schemeID 9933 and be a valid TIN",
  ),
  R010: rule(
    'GR-R-010',
    'fatal',
    "The Greek Buyer's Peppol Electronic Address (endpoint) must have schemeID 9933 and be a valid TIN",
  ),
  S011: rule('GR-S-011', 'warning', 'Greek suppliers should provide their VAT identifier (tax registration number)'),
};

const DOCUMENT_TYPES = new Set(
  '1.1 1.2 1.3 1.4 1.5 1.6 2.1 2.2 2.3 2.4 3.1 3.2 4 5.1 5.2 6.1 6.2 7.1 8.1 8.2 11.1 11.2 11.3 11.4 11.5'.split(' '),
);
const DATE_RE = /^(0?[1-9]|[12][0-9]|3[01])[-/ ]?(0?[1-9]|1[0-2])[-/ ]?(19|20)[0-9]{2}/;
const isGreek = (c: string) => c === 'GR' || c === 'EL';

/** Greek TIN check digit: first 8 digits weighted 2^8 … 2^1, sum mod 11 mod 10. */
export function greekTinOk(v: string): boolean {
  if (!/^[0-9]{9}/.test(v)) return false;
  let sum = 0;
  for (let i = 0; i < 8; i++) sum += Number(v[i]) * 2 ** (8 - i);
  return (sum % 11) % 10 === Number(v[8]);
}

function greekVatOk(party: XNode | undefined): boolean {
  const ids = kids(party, 'cac:PartyTaxScheme')
    .filter((p) => all(p, 'cac:TaxScheme/cbc:ID').some((id) => normSpace(str(id)) === 'VAT'))
    .flatMap((p) => kids(p, 'cbc:CompanyID'));
  if (ids.length !== 1) return false;
  const v = str(ids[0]);
  return v.slice(0, 2) === 'EL' && greekTinOk(v.slice(2));
}

function documentNumber(ctx: Ctx, id: XNode): void {
  const seg = str(id).split('|');
  ctx.check(R.R001_1, id, seg.length === 6);
  const tins = [...vatCompanyIds(ctx.seller), ...vatCompanyIds(ctx.taxRep)].map((c) => str(c).slice(2, 11));
  const s1 = seg[0] ?? '';
  ctx.check(R.R001_2, id, normSpace(s1).length === 9 && greekTinOk(s1) && tins.includes(s1));
  const s2 = seg[1] ?? '';
  const idDate = s2.split('/');
  const issue = str(kids(ctx.root, 'cbc:IssueDate')[0]).split('-');
  ctx.check(
    R.R001_3,
    id,
    normSpace(s2).length > 0 &&
      DATE_RE.test(s2) &&
      idDate[0] === issue[2] &&
      idDate[1] === issue[1] &&
      idDate[2] === issue[0],
  );
  const s3 = seg[2] ?? '';
  ctx.check(R.R001_4, id, normSpace(s3).length > 0 && /^\s*[+-]?[0-9]+\s*$/.test(s3) && Number(s3) >= 0);
  const s4 = seg[3] ?? '';
  ctx.check(R.R001_5, id, normSpace(s4).length > 0 && DOCUMENT_TYPES.has(s4));
  ctx.check(R.R001_6, id, (seg[4] ?? '').length > 0);
  ctx.check(R.R001_7, id, (seg[5] ?? '').length > 0);
}

export function grRules(ctx: Ctx): void {
  const { root, seller } = ctx;
  const greekSender = isGreek(supplierCountryByVat(ctx));
  const greekReceiver = isGreek(customerCountryByVat(ctx));
  // The MARK rules apply to a Greek seller (by VAT identifier) whose postal country is literally 'GR';
  // the document URL presence and the seller endpoint rule read the seller's own country.
  const greekMarkSender = greekSender && postalCountry(seller) === 'GR';
  const greekAccountingSupplier = isGreek(accountingSupplierCountry(ctx));

  if (greekSender) {
    for (const id of kids(root, 'cbc:ID')) documentNumber(ctx, id);
    for (const party of all(root, 'cac:AccountingSupplierParty/cac:Party')) {
      ctx.check(
        R.R002,
        party,
        all(party, 'cac:PartyName/cbc:Name').some((n) => str(n).length > 0),
      );
      // Checked on each seller VAT identifier (a seller represented by a tax representative may have none).
      for (const vat of vatCompanyIds(party))
        ctx.check(R.R003, vat, str(vat).slice(0, 2) === 'EL' && greekTinOk(str(vat).slice(2)));
      ctx.check(R.S011, party, greekVatOk(party));
    }
  }
  const adrs = kids(root, 'cac:AdditionalDocumentReference');
  const described = (a: XNode, d: string) => kids(a, 'cbc:DocumentDescription').some((n) => str(n) === d);
  if (greekMarkSender) {
    const marks = adrs.filter((a) => described(a, '##M.AR.K##'));
    const urls = adrs.filter((a) => described(a, '##INVOICE|URL##'));
    ctx.check(R.R004_1, root, marks.length === 1);
    for (const m of marks) for (const id of kids(m, 'cbc:ID')) ctx.check(R.R004_2, id, /^[1-9]([0-9]*)/.test(str(id)));
    ctx.check(R.S008_1, root, urls.length === 1);
    ctx.check(R.R008_2, root, urls.length <= 1);
  }
  if (greekSender)
    for (const u of adrs.filter((a) => described(a, '##INVOICE|URL##')))
      ctx.check(R.R008_3, u, normSpace(str(all(u, 'cac:Attachment/cac:ExternalReference/cbc:URI')[0])).length > 0);
  // Evaluated on each seller endpoint: a seller without one is not checked here.
  if (greekAccountingSupplier)
    for (const ep of all(root, 'cac:AccountingSupplierParty/cac:Party/cbc:EndpointID'))
      ctx.check(R.R009, ep, attr(ep, 'schemeID') === '9933' && greekTinOk(ep.text));
  if (greekSender)
    for (const acp of kids(root, 'cac:AccountingCustomerParty'))
      ctx.check(
        R.R005,
        acp,
        all(acp, 'cac:Party/cac:PartyName/cbc:Name').some((n) => str(n).length > 0),
      );
  if (greekSender && greekReceiver) {
    for (const acp of kids(root, 'cac:AccountingCustomerParty')) {
      ctx.check(R.R006, acp, greekVatOk(kids(acp, 'cac:Party')[0]));
      for (const ep of all(acp, 'cac:Party/cbc:EndpointID'))
        ctx.check(R.R010, ep, attr(ep, 'schemeID') === '9933' && greekTinOk(ep.text));
    }
  }
}
