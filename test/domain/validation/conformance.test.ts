// Conformance runner: the official EN 16931 / Peppol unit tests and example documents (shared corpus,
// read at run time from ../shared or $SHARED_DIR) must agree with validateUbl.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { ruleSetById, type ValidationIssue } from '../../../src/domain/validation/index.js';
import {
  listTestSets,
  parseTestSet,
  readExpected,
  sharedDir,
  type TestSet,
  type UnitTest,
} from './conformance/corpus.js';
import { validateUbl } from '../../../src/infrastructure/xml/ublText.js';

const shared = sharedDir();
const unitDir = path.join(shared, 'conformance', 'unit');
const examplesDir = path.join(shared, 'conformance', 'examples');
/** The corpus is the official 3.0.19 / CEN 1.3.14.1 one. */
const ruleSet = ruleSetById('peppol-bis-3.0.19')!;

function checkTest(set: TestSet, test: UnitTest): string[] {
  const issues: ValidationIssue[] = validateUbl(test.document, { layers: set.layers, ruleSet });
  const problems: string[] = [];
  for (const e of test.expectations) {
    const fired = issues.filter((i) => i.rule_id === e.rule);
    if (e.kind === 'success') {
      if (fired.length > 0)
        problems.push(
          `${e.rule} must not fire but fired ${fired.length}x (${fired.map((f) => f.location).join(', ')})`,
        );
    } else {
      const flag = e.kind === 'error' ? 'fatal' : 'warning';
      const withFlag = fired.filter((f) => f.flag === flag);
      if (withFlag.length === 0)
        problems.push(
          `${e.rule} must fire as ${flag}, ${fired.length ? `fired as ${fired[0]!.flag}` : 'did not fire'}`,
        );
      else if (e.number !== undefined && withFlag.length !== e.number)
        problems.push(`${e.rule} must fire ${e.number}x, fired ${withFlag.length}x`);
    }
  }
  return problems;
}

if (!fs.existsSync(unitDir)) {
  const why = `conformance corpus not found at ${path.join(shared, 'conformance')} (set SHARED_DIR to the folder that contains conformance/)`;
  describe('validation conformance (official unit tests)', function () {
    if (process.env.CI === 'true') {
      it('requires the shared conformance corpus in CI', () => {
        throw new Error(why);
      });
    } else {
      before(function () {
        console.log(`  [skipped] ${why}`);
        this.skip();
      });
      it('runs the official unit tests', () => {});
    }
  });
} else {
  const sets = listTestSets(unitDir).map((f) => parseTestSet(unitDir, f));
  const stats = new Map<string, { passed: number; total: number }>();
  const record = (ruleSet: string, ok: boolean) => {
    const s = stats.get(ruleSet) ?? { passed: 0, total: 0 };
    s.total++;
    if (ok) s.passed++;
    stats.set(ruleSet, s);
  };

  describe('validation conformance (official unit tests)', function () {
    after(function () {
      const rows = [...stats.entries()].sort(([a], [b]) => a.localeCompare(b));
      const total = rows.reduce((a, [, s]) => ({ passed: a.passed + s.passed, total: a.total + s.total }), {
        passed: 0,
        total: 0,
      });
      console.log('\n  Conformance per rule set (tests passed / total):');
      for (const [name, s] of rows) console.log(`    ${name.padEnd(22)} ${String(s.passed).padStart(4)} / ${s.total}`);
      console.log(`    ${'Total'.padEnd(22)} ${String(total.passed).padStart(4)} / ${total.total}`);
    });

    for (const set of sets) {
      describe(`${set.file} [${set.configuration}]`, function () {
        for (const test of set.tests) {
          it(
            `#${test.index} ${test.expectations.map((e) => `${e.kind}:${e.rule}`).join(' ')} ${test.description}`.slice(
              0,
              200,
            ),
            function () {
              let problems: string[];
              try {
                problems = checkTest(set, test);
              } catch (e) {
                problems = [`validateUbl threw: ${(e as Error).message}`];
              }
              record(set.ruleSet, problems.length === 0);
              expect(problems, problems.join('\n')).to.deep.equal([]);
            },
          );
        }
      });
    }
  });

  describe('validation conformance (official example documents)', function () {
    for (const row of readExpected(examplesDir)) {
      it(`${row.path}: CEN and Peppol firings match EXPECTED.tsv`, function () {
        const xml = fs.readFileSync(path.join(examplesDir, row.path));
        const ids = (issues: ValidationIssue[], flag: string) =>
          [...new Set(issues.filter((i) => i.flag === flag).map((i) => i.rule_id))].sort();
        const cen = validateUbl(xml, { layers: ['cen'], ruleSet });
        const peppol = validateUbl(xml, { layers: ['peppol'], ruleSet });
        expect({
          cenFatal: ids(cen, 'fatal'),
          cenWarning: ids(cen, 'warning'),
          peppolFatal: ids(peppol, 'fatal'),
          peppolWarning: ids(peppol, 'warning'),
        }).to.deep.equal({
          cenFatal: row.cenFatal,
          cenWarning: row.cenWarning,
          peppolFatal: row.peppolFatal,
          peppolWarning: row.peppolWarning,
        });
      });
    }
  });
}
