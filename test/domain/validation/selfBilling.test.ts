import { expect } from 'chai';
import { decodeDocumentInput } from '../../../src/http/codecs/documentCodec.js';
import { completeDocument } from '../../../src/domain/document/invoice/documentTotals.js';
import { writeUbl } from '../../../src/domain/document/ubl/ublWriter.js';
import { realisticDocuments } from '../document/fixtures/realisticDocuments.js';
import { validateUbl } from '../../../src/infrastructure/xml/ublText.js';

const BILLING_CUSTOMIZATION = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0';
const SELFBILLING_CUSTOMIZATION = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:selfbilling:3.0';
const BILLING_PROFILE = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0';
const SELFBILLING_PROFILE = 'urn:fdc:peppol.eu:2017:poacc:selfbilling:01:1.0';

const fired = (xml: string) =>
  validateUbl(xml)
    .filter((i) => i.flag === 'fatal')
    .map((i) => i.rule_id);

describe('Peppol identifiers of self-billing documents (PEPPOL-EN16931-R004, R007)', () => {
  const fixture = realisticDocuments().find((f) => f.body.document_type === 'SELFBILLING_INVOICE')!;
  const decoded = decodeDocumentInput(fixture.body);
  if (!decoded.ok) throw new Error('fixture does not decode');
  const xml = writeUbl(completeDocument(decoded.value).document);

  it('accepts a self-billing document under the self-billing specification and process', () => {
    expect(xml).to.contain(SELFBILLING_CUSTOMIZATION).and.contain(SELFBILLING_PROFILE);
    expect(fired(xml)).to.deep.equal([]);
  });

  it('refuses a self-billing specification with a billing process, and the reverse', () => {
    expect(fired(xml.replace(SELFBILLING_PROFILE, BILLING_PROFILE))).to.include('PEPPOL-EN16931-R007');
    expect(fired(xml.replace(SELFBILLING_CUSTOMIZATION, BILLING_CUSTOMIZATION))).to.include('PEPPOL-EN16931-R007');
  });
});
