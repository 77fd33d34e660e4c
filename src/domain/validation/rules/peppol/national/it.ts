// Italian national rules (IT-R-*): seller country IT (from the VAT identifier, see countries.ts).
import { Ctx, rule } from '../../../context.js';
import { all, has, kids, normSpace, str } from '../../../../xml/xmlTree.js';
import { supplierCountryByVat } from './countries.js';

const R = {
  R001: rule(
    'IT-R-001',
    'fatal',
    'BT-32 (Seller tax registration identifier) - For Italian suppliers BT-32 minimum length 11 and maximum length shall be 16.',
  ),
  R002: rule(
    'IT-R-002',
    'fatal',
    'BT-35 (Seller Address line 1) - Italian suppliers MUST provide the postal address line 1.',
  ),
  R003: rule('IT-R-003', 'fatal', 'BT-37 (Seller city) - Italian suppliers MUST provide the postal address city.'),
  R004: rule(
    'IT-R-004',
    'fatal',
    'BT-38 (Seller post code) - Italian suppliers MUST provide the postal address post code.',
  ),
};

export function itRules(ctx: Ctx): void {
  if (supplierCountryByVat(ctx) !== 'IT') return;
  for (const party of all(ctx.root, 'cac:AccountingSupplierParty/cac:Party')) {
    // The seller tax registration identifier (BT-32: a PartyTaxScheme whose scheme is not VAT).
    for (const pts of kids(party, 'cac:PartyTaxScheme')) {
      if (normSpace(str(all(pts, 'cac:TaxScheme/cbc:ID')[0])) === 'VAT') continue;
      ctx.check(R.R001, pts, /^[A-Z0-9]{11,16}$/.test(normSpace(str(kids(pts, 'cbc:CompanyID')[0]))));
    }
    ctx.check(R.R002, party, has(party, 'cac:PostalAddress/cbc:StreetName'));
    ctx.check(R.R003, party, has(party, 'cac:PostalAddress/cbc:CityName'));
    ctx.check(R.R004, party, has(party, 'cac:PostalAddress/cbc:PostalZone'));
  }
}
