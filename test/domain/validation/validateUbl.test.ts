// API and input-safety tests for validateUbl (independent of the shared conformance corpus).
import { XmlInputError } from '../../../src/domain/validation/index.js';
import { expect } from 'chai';
import { validateUbl } from '../../../src/infrastructure/xml/ublText.js';

const NS =
  'xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2"';

const minimal = `<?xml version="1.0" encoding="UTF-8"?>
<Invoice ${NS}>
  <cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0</cbc:CustomizationID>
  <cac:LegalMonetaryTotal><cbc:LineExtensionAmount currencyID="EUR">100.00</cbc:LineExtensionAmount></cac:LegalMonetaryTotal>
  <cac:InvoiceLine><cbc:ID>1</cbc:ID><cbc:LineExtensionAmount currencyID="EUR">60.005</cbc:LineExtensionAmount></cac:InvoiceLine>
  <cac:InvoiceLine><cbc:ID>2</cbc:ID><cbc:LineExtensionAmount currencyID="EUR">40.00</cbc:LineExtensionAmount></cac:InvoiceLine>
</Invoice>`;

describe('validateUbl', function () {
  it('returns issues with the official flag, type "error" and an XPath-like location', function () {
    const issues = validateUbl(minimal, { layers: ['cen'] });
    const dec = issues.find((i) => i.rule_id === 'BR-DEC-23');
    expect(dec).to.deep.equal({
      rule_id: 'BR-DEC-23',
      type: 'error',
      flag: 'fatal',
      message: dec!.message,
      location: '/Invoice/cac:InvoiceLine[1]/cbc:LineExtensionAmount',
    });
    expect(issues.some((i) => i.rule_id === 'BR-02' && i.location === '/Invoice')).to.equal(true);
    expect(issues.every((i) => !i.rule_id.startsWith('PEPPOL-'))).to.equal(true);
  });

  it('runs both layers by default and only the requested layer otherwise', function () {
    const both = validateUbl(minimal).map((i) => i.rule_id);
    expect(both.some((id) => id.startsWith('PEPPOL-'))).to.equal(true);
    expect(both.some((id) => id.startsWith('BR-'))).to.equal(true);
    const peppol = validateUbl(minimal, { layers: ['peppol'] }).map((i) => i.rule_id);
    expect(peppol.some((id) => id.startsWith('BR-'))).to.equal(false);
  });

  it('accepts a Buffer and any namespace prefixes', function () {
    const prefixed = minimal
      .replace(`<Invoice ${NS}>`, `<inv:Invoice ${NS.replace('xmlns=', 'xmlns:inv=')}>`)
      .replace('</Invoice>', '</inv:Invoice>');
    expect(validateUbl(Buffer.from(prefixed, 'utf8'), { layers: ['cen'] }).map((i) => i.rule_id)).to.deep.equal(
      validateUbl(minimal, { layers: ['cen'] }).map((i) => i.rule_id),
    );
  });

  it('rejects a DOCTYPE (entity expansion / XXE) before parsing', function () {
    const xxe = `<?xml version="1.0"?><!DOCTYPE Invoice [<!ENTITY x SYSTEM "file:///etc/passwd">]><Invoice ${NS}><cbc:ID>&x;</cbc:ID></Invoice>`;
    expect(() => validateUbl(xxe)).to.throw(XmlInputError);
  });

  it('rejects malformed XML, a foreign root element and oversized input', function () {
    expect(() => validateUbl(`<Invoice ${NS}><cbc:ID>1</Invoice>`)).to.throw(XmlInputError);
    expect(() => validateUbl('<Order xmlns="urn:oasis:names:specification:ubl:schema:xsd:Order-2"/>')).to.throw(
      XmlInputError,
    );
    expect(() => validateUbl('not xml at all')).to.throw(XmlInputError);
    expect(() => validateUbl(Buffer.alloc(21 * 1024 * 1024, 32))).to.throw(XmlInputError);
  });

  it('uses exact decimal arithmetic with ties rounding up (BR-CO-10)', function () {
    // 0.1 + 0.2 is not 0.3 in binary floating point; the engine must still accept it.
    const doc = minimal
      .replace(
        '100.00</cbc:LineExtensionAmount></cac:LegalMonetaryTotal>',
        '0.30</cbc:LineExtensionAmount></cac:LegalMonetaryTotal>',
      )
      .replace('60.005', '0.1')
      .replace('40.00', '0.2');
    expect(validateUbl(doc, { layers: ['cen'] }).some((i) => i.rule_id === 'BR-CO-10')).to.equal(false);
  });
});
