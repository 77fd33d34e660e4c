import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { MLS_RULE_IDS, validateMls } from '../../../src/domain/validation/rules/mls/mlsRules.js';
import { readMls, writeMls, type MessageLevelStatus } from '../../../src/domain/peppol/mls/messageLevelStatus.js';
import { parseUntrustedXml } from '../../../src/infrastructure/xml/xmlParser.js';
import { requireVectors, vectorsDir } from '../../support/peppolVectors.js';

const mlsDir = () => path.join(vectorsDir(), 'peppol-commons', 'mls');
const firedIn = (xml: string | Buffer) => validateMls(parseUntrustedXml(xml).root).map((i) => i.rule_id);

/** The bad cases of peppol-commons: file → the one SCH-MLS rule it was made to break. */
export function mlsBadCases(): Array<{ file: string; rule: string }> {
  return fs
    .readFileSync(path.join(mlsDir(), 'mls-bad-cases.tsv'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#') && !line.startsWith('file\t'))
    .map((line) => {
      const [file, rule] = line.split('\t');
      return { file: file!, rule: rule! };
    });
}

describe('MLS rules (SCH-MLS-01 … 31) on the peppol-commons vectors', function () {
  before(function () {
    requireVectors(this, path.join(mlsDir(), 'mls-bad-cases.tsv'));
  });

  it('finds nothing wrong in any good MLS (AB, AP and RE; values padded with white space included)', () => {
    const good = fs.readdirSync(path.join(mlsDir(), 'good')).filter((f) => f.endsWith('.xml'));
    expect(good).to.have.length(8);
    for (const file of good)
      expect(firedIn(fs.readFileSync(path.join(mlsDir(), 'good', file))), file).to.deep.equal([]);
  });

  it('fires on every bad MLS the rule it breaks, and every rule fires on some file', () => {
    const cases = mlsBadCases();
    expect(cases).to.have.length(66);
    for (const { file, rule } of cases)
      expect(firedIn(fs.readFileSync(path.join(mlsDir(), 'bad', file))), file).to.include(rule);
    expect([...new Set(cases.map((c) => c.rule))].sort()).to.deep.equal([...MLS_RULE_IDS].sort());
  });

  it("fires only rules of the file's own group on a bad file whose fault is local (the template is clean)", () => {
    expect(firedIn(fs.readFileSync(path.join(mlsDir(), 'bad', 'mls-template.xml')))).to.deep.equal([]);
    expect(firedIn(fs.readFileSync(path.join(mlsDir(), 'bad', 'mls-26a.xml')))).to.deep.equal(['SCH-MLS-26']);
  });
});

describe('MLS documents we write', () => {
  const mls = (over: Partial<MessageLevelStatus> = {}): MessageLevelStatus => ({
    id: 'c3a1f7a2-0000-4000-8000-000000000001',
    issueDate: '2026-03-01',
    issueTime: '10:15:00Z',
    sender: '000001',
    receiver: '000002',
    referenceId: 'f00d@e-invoicing.peppol',
    code: 'AP',
    description: null,
    issues: [],
    ...over,
  });

  it('an AP, an AB and an RE with its business-rule issues pass every rule, and read back as written', () => {
    const re = mls({
      code: 'RE',
      description: 'The document fails 1 business rule',
      issues: [
        {
          location: '/Invoice/cbc:IssueDate',
          description: '[BR-03] An Invoice shall have an issue date',
          reason: 'BV',
        },
      ],
    });
    for (const written of [mls(), mls({ code: 'AB' }), re]) expect(firedIn(writeMls(written))).to.deep.equal([]);
    const read = readMls(parseUntrustedXml(writeMls(re)).root);
    expect(read).to.deep.equal({
      id: re.id,
      code: 'RE',
      description: 'The document fails 1 business rule',
      referenceId: re.referenceId,
      sender: '0242:000001',
      receiver: '0242:000002',
      issues: [
        {
          location: '/Invoice/cbc:IssueDate',
          description: '[BR-03] An Invoice shall have an issue date',
          reason: 'BV',
        },
      ],
    });
  });

  it('an RE without issues, or an AP with a failure, breaks the rules that say so', () => {
    expect(firedIn(writeMls(mls({ code: 'RE', description: 'no' })))).to.have.members(['SCH-MLS-23', 'SCH-MLS-24']);
    expect(
      firedIn(writeMls(mls({ issues: [{ location: 'NA', description: 'could not deliver', reason: 'FD' }] }))),
    ).to.deep.equal(['SCH-MLS-25']);
  });
});
