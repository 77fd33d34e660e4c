// Norwegian national rules (NO-R-*): seller country NO (from the VAT identifier, see countries.ts).
import { Ctx, rule } from '../../../context.js';
import { all, kids, normSpace, str } from '../../../../xml/xmlTree.js';
import { noOrgOk } from '../identifiers.js';
import { supplierCountryByVat, vatCompanyIds } from './countries.js';

const R001 = rule(
  'NO-R-001',
  'fatal',
  'For Norwegian suppliers, a VAT number MUST be the syntax of NO + 9 digit organisation number + MVA. Use the identifier "MVA" in TaxScheme/ID.',
);
const R002 = rule(
  'NO-R-002',
  'warning',
  'For Norwegian suppliers, most invoice issuers are required to append "Foretaksregisteret" to their invoice (PartyTaxScheme with TaxScheme TAX).',
);

export function noRules(ctx: Ctx): void {
  if (supplierCountryByVat(ctx) !== 'NO') return;
  for (const party of all(ctx.root, 'cac:AccountingSupplierParty/cac:Party')) {
    const taxSchemes = kids(party, 'cac:PartyTaxScheme').filter((p) =>
      all(p, 'cac:TaxScheme/cbc:ID').some((id) => normSpace(str(id)) === 'TAX'),
    );
    ctx.check(
      R002,
      party,
      taxSchemes.some((p) => kids(p, 'cbc:CompanyID').some((c) => normSpace(str(c)) === 'Foretaksregisteret')),
    );
    const vat = vatCompanyIds(party)[0];
    if (vat && str(vat).slice(0, 2) === 'NO') {
      const v = str(vat);
      ctx.check(R001, party, /^[0-9]{9}MVA$/.test(v.slice(2)) && noOrgOk(v.slice(2, 11)));
    }
  }
}
