import { expect } from 'chai';
import { checkCompanyIdentifiers, type CompanyIdentifiers } from '../../../src/domain/tenant/tenantProfile.js';

const check = (ids: Partial<CompanyIdentifiers>) =>
  checkCompanyIdentifiers({ company_number: null, company_tax_id: null, peppol_ids: [], ...ids });
const fields = (ids: Partial<CompanyIdentifiers>) => {
  const result = check(ids);
  return result.ok ? [] : result.problems.map((p) => p.field);
};

describe('Tenant company identifiers', () => {
  it('accepts Belgian numbers with a valid mod-97 check and stores them compact', () => {
    const result = check({
      company_number: '0123.456.749',
      company_tax_id: 'be 0123 456 749',
      peppol_ids: ['0208:0123456749'],
    });
    expect(result).to.deep.equal({
      ok: true,
      value: { company_number: '0123456749', company_tax_id: 'BE0123456749', peppol_ids: ['0208:0123456749'] },
    });
  });

  it('refuses Belgian numbers failing mod-97, and an enterprise number that differs from the VAT number', () => {
    expect(fields({ company_tax_id: 'BE0123456748' })).to.deep.equal(['company_tax_id']);
    expect(fields({ company_number: '0123456748' })).to.deep.equal(['company_number']);
    expect(fields({ company_number: '0202239951', company_tax_id: 'BE0123456749' })).to.deep.equal(['company_number']);
  });

  it('checks Dutch KvK numbers (8 digits) for Dutch companies', () => {
    expect(fields({ company_number: '12345678', company_tax_id: 'NL123456789B01' })).to.deep.equal([]);
    expect(fields({ company_number: '1234567', company_tax_id: 'NL123456789B01' })).to.deep.equal(['company_number']);
    expect(fields({ company_tax_id: 'NL123456789' })).to.deep.equal(['company_tax_id']);
  });

  it('treats blank numbers as none and refuses tax ids without a country prefix', () => {
    expect(check({ company_number: ' ', company_tax_id: '' })).to.deep.include({ ok: true });
    expect(fields({ company_tax_id: '0123456749' })).to.deep.equal(['company_tax_id']);
  });

  it('checks the Peppol identifier scheme and value, with its index', () => {
    const result = check({ peppol_ids: ['0208:0123456748'] });
    expect(result.ok).to.equal(false);
    if (!result.ok) expect(result.problems[0]).to.include({ field: 'peppol_ids', index: 0 });
    expect(fields({ peppol_ids: ['1234:abc'] })).to.deep.equal(['peppol_ids']);
    expect(fields({ peppol_ids: ['0106:12345678'] })).to.deep.equal([]);
  });
});
