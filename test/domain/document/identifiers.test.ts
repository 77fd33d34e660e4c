import { expect } from 'chai';
import {
  derivePeppolId,
  formatPeppolId,
  gs1CheckDigitValid,
  parsePeppolId,
  peppolIdProblem,
} from '../../../src/domain/document/invoice/peppolId.js';
import {
  belgianEnterpriseNumber,
  isValidBelgianEnterpriseNumber,
  isValidBelgianVat,
  isValidDutchKvk,
  isValidDutchVat,
  vatNumberProblem,
} from '../../../src/domain/document/invoice/vatNumber.js';

describe('VAT numbers and company numbers', () => {
  it('Belgian mod-97: 97 - (first 8 digits mod 97) must equal the last 2', () => {
    expect(isValidBelgianEnterpriseNumber('0123456749')).to.equal(true); // 1234567 mod 97 = 48, 97 - 48 = 49
    expect(isValidBelgianEnterpriseNumber('0123456748')).to.equal(false);
    expect(isValidBelgianEnterpriseNumber('0202239951')).to.equal(true);
    expect(isValidBelgianEnterpriseNumber('2123456749')).to.equal(false); // must start with 0 or 1
  });
  it('Belgian VAT: BE + 10 digits, separators tolerated', () => {
    expect(isValidBelgianVat('BE0123456749')).to.equal(true);
    expect(isValidBelgianVat('BE 0123.456.749')).to.equal(true);
    expect(isValidBelgianVat('BE0123456748')).to.equal(false);
    expect(vatNumberProblem('BE0123456748')).to.match(/mod-97/);
    expect(belgianEnterpriseNumber('BE0123.456.749')).to.equal('0123456749');
  });
  it('Dutch KvK is 8 digits and Dutch VAT is NL + 9 digits + B + 2 digits', () => {
    expect(isValidDutchKvk('34567890')).to.equal(true);
    expect(isValidDutchKvk('3456789')).to.equal(false);
    expect(isValidDutchVat('NL853746221B01')).to.equal(true);
    expect(isValidDutchVat('NL853746221')).to.equal(false);
  });
  it('Other VAT numbers need a country prefix', () => {
    expect(vatNumberProblem('DE123456789')).to.equal(null);
    expect(vatNumberProblem('123456789')).to.match(/country prefix/);
    expect(vatNumberProblem('DE12345')).to.match(/German/);
  });
});

describe('Peppol participant identifiers', () => {
  it('parses <scheme>:<identifier> and formats it back', () => {
    const r = parsePeppolId('0208:0123456749');
    expect(r.ok).to.equal(true);
    if (r.ok) expect(formatPeppolId(r.value)).to.equal('0208:0123456749');
    expect(parsePeppolId('iso6523-actorid-upis::0106:34567890').ok).to.equal(true);
  });
  it('rejects a bad format, an unknown scheme and identifiers failing their scheme check', () => {
    expect(peppolIdProblem('0123456749')).to.match(/<scheme>:<identifier>/);
    expect(peppolIdProblem('1234:abc')).to.match(/unknown Peppol identifier scheme 1234/);
    expect(peppolIdProblem('0208:0123456748')).to.match(/mod-97/);
    expect(peppolIdProblem('0106:1234')).to.match(/KvK/);
    expect(peppolIdProblem('0088:5790000435976')).to.match(/GS1/);
    expect(peppolIdProblem('0088:5790000435975')).to.equal(null);
    expect(peppolIdProblem('9956:0123456749')).to.equal(null);
    expect(peppolIdProblem('9999:123456789')).to.equal(null);
  });
  it('GS1 check digits as PEPPOL-COMMON-R040 computes them', () => {
    expect(gs1CheckDigitValid('5790000435975')).to.equal(true);
    expect(gs1CheckDigitValid('4000001000005')).to.equal(true);
    expect(gs1CheckDigitValid('4000001000006')).to.equal(false);
  });
  it('derives 0208:<digits> from a Belgian tax id, 0106 from a Dutch KvK, the VAT EAS otherwise', () => {
    expect(derivePeppolId('BE0123456749', null)).to.deep.equal({ scheme: '0208', identifier: '0123456749' });
    expect(derivePeppolId('NL853746221B01', '34567890')).to.deep.equal({ scheme: '0106', identifier: '34567890' });
    expect(derivePeppolId('DE123456789', null)).to.deep.equal({ scheme: '9930', identifier: 'DE123456789' });
    expect(derivePeppolId('0088:5790000435975', null)).to.deep.equal({ scheme: '0088', identifier: '5790000435975' });
    expect(derivePeppolId(null, null)).to.equal(null);
  });
});
