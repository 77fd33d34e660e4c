import { expect } from 'chai';
import { toResponse } from '../../../src/domain/document/invoice/documentModel.js';
import { completeDocument } from '../../../src/domain/document/invoice/documentTotals.js';
import { writeUbl } from '../../../src/domain/document/ubl/ublWriter.js';
import { validateAgainstSchema } from '../../../src/infrastructure/xml/schemaValidator.js';
import { examplesDir, expectedExamples, readExample } from './sharedDir.js';
import { validateUbl, readUblText } from '../../../src/infrastructure/xml/ublText.js';

// The official EN 16931 / Peppol examples are read from ../shared at run time (never copied here).
const rows = expectedExamples();

describe('Official UBL examples (conformance corpus)', function () {
  if (rows === null) {
    it(`is skipped: no conformance examples at ${examplesDir()} (set SHARED_DIR)`, function () {
      this.skip();
    });
    return;
  }
  const documents = rows.filter((r) => r.root === 'Invoice' || r.root === 'CreditNote');

  it('Given EXPECTED.tsv, Then it lists the Invoice and CreditNote examples', () => {
    expect(documents.length).to.be.at.least(70);
  });

  describe('our XSD agrees with the official schema verdict', () => {
    for (const r of rows) {
      it(`${r.path} is ${r.xsdValid ? 'valid' : 'rejected'}`, () => {
        const issues = validateAgainstSchema(readExample(r.path));
        if (r.xsdValid) expect(issues).to.deep.equal([]);
        else expect(issues).to.not.be.empty;
      });
    }
  });

  describe('UBL -> model -> UBL -> model yields the same model', () => {
    for (const r of documents) {
      it(r.path, () => {
        const first = readUblText(readExample(r.path));
        const regenerated = writeUbl(first);
        const second = readUblText(regenerated);
        expect(toResponse(second)).to.deep.equal(toResponse(first));
        expect(first.items.length).to.be.greaterThan(0);
        expect(second.document_type.endsWith('CREDIT_NOTE')).to.equal(r.root === 'CreditNote');
        // Our regenerated UBL stays schema-valid whenever the original was.
        if (r.xsdValid) expect(validateAgainstSchema(regenerated)).to.deep.equal([]);
      });
    }
  });

  describe('regenerated Peppol examples stay free of fatal rule violations', () => {
    const clean = documents.filter((r) => r.xsdValid && r.cenFatal.length === 0 && r.peppolFatal.length === 0);
    it('Given the corpus, Then there are clean Peppol examples to check', () =>
      expect(clean.length).to.be.at.least(20));
    for (const r of clean) {
      it(`${r.path}: no fatal issue, and the totals read back agree with EN 16931`, () => {
        const model = readUblText(readExample(r.path));
        expect(completeDocument(model, 'rules').problems).to.deep.equal([]);
        const fatal = validateUbl(writeUbl(model)).filter((i) => i.flag === 'fatal');
        expect(fatal.map((i) => `${i.rule_id}: ${i.message}`)).to.deep.equal([]);
      });
    }
  });
});
