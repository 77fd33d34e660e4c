// Conformance runner: the official EN 16931 / Peppol unit tests and example documents (shared corpus,
// read at run time from ../shared or $SHARED_DIR), per rule set:
// - peppol-bis-3.0.19: the unit tests' own assertions on the rule under test, and the whole set of
//   fatal rule ids against the official 2025.5 XSLT;
// - peppol-bis-3.0.21: the official 3.0.21 unit tests are not published with the corpus, so the same
//   documents are judged by the official 2026.5 XSLT: the verdict on each scope rule (fatal, warning,
//   not fired) and the whole set of fatal rule ids;
// - the example documents: EXPECTED.tsv (3.0.19), and whole sets (fatal and warning, per layer)
//   against the official XSLT of each release.
// The official XSLT runs in the phive harness (test/support/officialRules.ts), one process per release.
// Every disagreement fails unless conformance/explainedDifferences.ts explains it.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import {
  RULE_SETS,
  ruleSetById,
  type RuleLayer,
  type RuleSet,
  type ValidationIssue,
} from '../../../src/domain/validation/index.js';
import {
  listTestSets,
  parseTestSet,
  readExpected,
  sharedDir,
  type TestSet,
  type UnitTest,
} from './conformance/corpus.js';
import { explanationOf, OFFICIAL_FAILURE, symmetricDifference } from './conformance/explainedDifferences.js';
import { validateUbl } from '../../../src/infrastructure/xml/ublText.js';
import {
  describeWithOfficialRules,
  startOfficialRules,
  type OfficialRelease,
  type OfficialRules,
  type OfficialVerdict,
} from '../../support/officialRules.js';

const shared = sharedDir();
const unitDir = path.join(shared, 'conformance', 'unit');
const examplesDir = path.join(shared, 'conformance', 'examples');
const RULE_SET_3_0_19 = ruleSetById('peppol-bis-3.0.19')!;

type Flag = 'fatal' | 'warning' | 'none';

/** Counters per rule set, check and testSet group; printed at the end and written to $CONFORMANCE_REPORT. */
const stats = new Map<string, { ruleSet: string; check: string; group: string; passed: number; total: number }>();
function record(ruleSet: string, check: string, group: string, ok: boolean): void {
  const key = `${ruleSet}|${check}|${group}`;
  const s = stats.get(key) ?? { ruleSet, check, group, passed: 0, total: 0 };
  s.total++;
  if (ok) s.passed++;
  stats.set(key, s);
}

/** Every disagreement seen (explained or not), for the report: what the rules lanes still have to fix. */
const disagreements: {
  ruleSet: string;
  check: string;
  where: string;
  rule: string;
  ours: Flag;
  official: Flag;
  explained: boolean;
}[] = [];

function ours(xml: string | Uint8Array, layers: RuleLayer[], ruleSet: RuleSet): ValidationIssue[] {
  return validateUbl(xml, { layers, ruleSet });
}

const idsWithFlag = (issues: ValidationIssue[], flag: 'fatal' | 'warning'): string[] =>
  [...new Set(issues.filter((i) => i.flag === flag).map((i) => i.rule_id))].sort();

const flagOf = (fatal: Iterable<string>, warning: Iterable<string>, rule: string): Flag =>
  new Set(fatal).has(rule) ? 'fatal' : new Set(warning).has(rule) ? 'warning' : 'none';

function officialIds(verdict: OfficialVerdict, layers: RuleLayer[], flag: 'fatal' | 'warning'): string[] {
  return [...new Set(layers.flatMap((l) => verdict[l][flag]))].sort();
}

/**
 * Compares two sets of rule ids on one document; returns the unexplained differences as problem
 * lines (and records every difference).
 */
function compareSets(
  ruleSet: RuleSet,
  check: string,
  where: string,
  flag: 'fatal' | 'warning',
  ourIds: string[],
  officialIdsOf: string[],
): string[] {
  const problems: string[] = [];
  for (const rule of symmetricDifference(ourIds, officialIdsOf)) {
    const oursFired = ourIds.includes(rule);
    const explained = explanationOf(where, ruleSet.id, rule) !== undefined;
    disagreements.push({
      ruleSet: ruleSet.id,
      check,
      where,
      rule,
      ours: oursFired ? flag : 'none',
      official: oursFired ? 'none' : flag,
      explained,
    });
    if (!explained)
      problems.push(
        oursFired
          ? `${rule}: we report it as ${flag}, the official XSLT does not`
          : `${rule}: the official XSLT reports it as ${flag}, we do not`,
      );
  }
  return problems;
}

/**
 * When the official XSLT could not judge the document: the problems (none when explained and we
 * refuse it), else null (compare normally).
 */
function officialFailure(verdict: OfficialVerdict, ruleSet: RuleSet, check: string, where: string, ourFatal: string[]) {
  if (verdict.failure === undefined) return null;
  const explained = explanationOf(where, ruleSet.id, OFFICIAL_FAILURE) !== undefined && ourFatal.length > 0;
  disagreements.push({
    ruleSet: ruleSet.id,
    check,
    where,
    rule: OFFICIAL_FAILURE,
    ours: ourFatal.length ? 'fatal' : 'none',
    official: 'none',
    explained,
  });
  return explained ? [] : [`the official XSLT failed (${verdict.failure}); ours: ${ourFatal.join(',') || 'no fatal'}`];
}

/** The unit test's own assertions (the official 3.0.19 / CEN 1.3.14.1 expectations). */
function checkExpectations(set: TestSet, test: UnitTest): string[] {
  const issues = ours(test.document, set.layers, RULE_SET_3_0_19);
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

/** The rules a testSet is about: its scope, else the rules its tests assert. */
const rulesUnderTest = (set: TestSet): string[] =>
  set.scope.length > 0 ? set.scope : [...new Set(set.tests.flatMap((t) => t.expectations.map((e) => e.rule)))];

const unitWhere = (set: TestSet, test: UnitTest) => `unit/${set.file}#${test.index}`;

function corpusMissing(): void {
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
}

/** One harness per release for the whole file; each verdict computed once per document. */
const harnesses = new Map<OfficialRelease, Promise<OfficialRules>>();
const harness = (release: OfficialRelease) => {
  let h = harnesses.get(release);
  if (!h) harnesses.set(release, (h = startOfficialRules({ release })));
  return h;
};

function printReport(): void {
  const rows = [...stats.values()].sort(
    (a, b) => a.ruleSet.localeCompare(b.ruleSet) || a.check.localeCompare(b.check) || a.group.localeCompare(b.group),
  );
  if (rows.length === 0) return;
  console.log('\n  Conformance per rule set (passed / total):');
  let last = '';
  for (const r of rows) {
    const head = `${r.ruleSet} ${r.check}`;
    if (head !== last) {
      const all = rows.filter((x) => x.ruleSet === r.ruleSet && x.check === r.check);
      const p = all.reduce((a, x) => a + x.passed, 0);
      const t = all.reduce((a, x) => a + x.total, 0);
      console.log(`    ${head}: ${p} / ${t}`);
      last = head;
    }
    console.log(`      ${r.group.padEnd(22)} ${String(r.passed).padStart(4)} / ${r.total}`);
  }
  const byRule = new Map<string, number>();
  for (const d of disagreements.filter((x) => !x.explained)) {
    const key = `${d.ruleSet} ${d.rule} ours=${d.ours} official=${d.official}`;
    byRule.set(key, (byRule.get(key) ?? 0) + 1);
  }
  if (byRule.size > 0) {
    console.log('\n  Unexplained disagreements by rule (documents):');
    for (const [k, n] of [...byRule.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])))
      console.log(`    ${String(n).padStart(4)}  ${k}`);
  }
  if (process.env.CONFORMANCE_REPORT)
    fs.writeFileSync(process.env.CONFORMANCE_REPORT, JSON.stringify({ stats: rows, disagreements }, null, 2) + '\n');
}

if (!fs.existsSync(unitDir)) {
  corpusMissing();
} else {
  const sets = listTestSets(unitDir).map((f) => parseTestSet(unitDir, f));
  const allTests = sets.flatMap((set) => set.tests.map((test) => ({ set, test })));
  const examples = readExpected(examplesDir);

  describe('validation conformance', function () {
    after(async function () {
      printReport();
      for (const h of harnesses.values()) await (await h).stop();
    });

    describe('peppol-bis-3.0.19: official unit tests, rule under test', function () {
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
                  problems = checkExpectations(set, test);
                } catch (e) {
                  problems = [`validateUbl threw: ${(e as Error).message}`];
                }
                record(RULE_SET_3_0_19.id, 'rule under test', set.ruleSet, problems.length === 0);
                expect(problems, problems.join('\n')).to.deep.equal([]);
              },
            );
          }
        });
      }
    });

    describe('peppol-bis-3.0.19: official example documents against EXPECTED.tsv', function () {
      for (const row of examples) {
        it(`${row.path}: CEN and Peppol firings match EXPECTED.tsv`, function () {
          const xml = fs.readFileSync(path.join(examplesDir, row.path));
          const cen = ours(xml, ['cen'], RULE_SET_3_0_19);
          const peppol = ours(xml, ['peppol'], RULE_SET_3_0_19);
          expect({
            cenFatal: idsWithFlag(cen, 'fatal'),
            cenWarning: idsWithFlag(cen, 'warning'),
            peppolFatal: idsWithFlag(peppol, 'fatal'),
            peppolWarning: idsWithFlag(peppol, 'warning'),
          }).to.deep.equal({
            cenFatal: row.cenFatal,
            cenWarning: row.cenWarning,
            peppolFatal: row.peppolFatal,
            peppolWarning: row.peppolWarning,
          });
        });
      }
    });

    for (const ruleSet of RULE_SETS) {
      const release = ruleSet.release as OfficialRelease;
      describeWithOfficialRules(
        `${ruleSet.id}: against the official ${release} XSLT`,
        function () {
          const unitVerdicts: OfficialVerdict[] = [];
          const exampleVerdicts: OfficialVerdict[] = [];
          before(async function () {
            this.timeout(10 * 60_000);
            const official = await harness(release);
            const [u, e] = await Promise.all([
              official.check(allTests.map(({ test }) => test.document)),
              official.checkFiles(examples.map((row) => path.join(examplesDir, row.path))),
            ]);
            unitVerdicts.push(...u);
            exampleVerdicts.push(...e);
          });

          describe('official unit-test documents', function () {
            allTests.forEach(({ set, test }, i) => {
              const where = unitWhere(set, test);
              if (ruleSet.id !== RULE_SET_3_0_19.id)
                it(`${where}: the verdict on ${rulesUnderTest(set).join(', ')} is the official one`, function () {
                  const verdict = unitVerdicts[i]!;
                  const issues = ours(test.document, set.layers, ruleSet);
                  const failed = officialFailure(
                    verdict,
                    ruleSet,
                    'rule under test',
                    where,
                    idsWithFlag(issues, 'fatal'),
                  );
                  const problems: string[] = failed ?? [];
                  if (!failed)
                    for (const rule of rulesUnderTest(set)) {
                      const mine = flagOf(idsWithFlag(issues, 'fatal'), idsWithFlag(issues, 'warning'), rule);
                      const theirs = flagOf(
                        officialIds(verdict, set.layers, 'fatal'),
                        officialIds(verdict, set.layers, 'warning'),
                        rule,
                      );
                      if (mine === theirs) continue;
                      const explained = explanationOf(where, ruleSet.id, rule) !== undefined;
                      disagreements.push({
                        ruleSet: ruleSet.id,
                        check: 'rule under test',
                        where,
                        rule,
                        ours: mine,
                        official: theirs,
                        explained,
                      });
                      if (!explained) problems.push(`${rule}: ours ${mine}, official ${theirs}`);
                    }
                  record(ruleSet.id, 'rule under test', set.ruleSet, !failed && problems.length === 0);
                  expect(problems, problems.join('\n')).to.deep.equal([]);
                });
              it(`${where}: the whole set of fatal rule ids is the official one`, function () {
                const verdict = unitVerdicts[i]!;
                const mine = idsWithFlag(ours(test.document, set.layers, ruleSet), 'fatal');
                const theirs = officialIds(verdict, set.layers, 'fatal');
                const failed = officialFailure(verdict, ruleSet, 'whole set', where, mine);
                const problems = failed ?? compareSets(ruleSet, 'whole set', where, 'fatal', mine, theirs);
                record(ruleSet.id, 'whole set', set.ruleSet, !failed && mine.join() === theirs.join());
                expect(
                  problems,
                  `ours ${mine.join(',')}; official ${theirs.join(',')}\n${problems.join('\n')}`,
                ).to.deep.equal([]);
              });
            });
          });

          describe('official example documents', function () {
            examples.forEach((row, i) => {
              const where = `examples/${row.path}`;
              it(`${where}: fatal and warning rule ids per layer are the official ones`, function () {
                const verdict = exampleVerdicts[i]!;
                expect(verdict.failure, 'official XSLT failed').to.equal(undefined);
                const xml = fs.readFileSync(path.join(examplesDir, row.path));
                const problems: string[] = [];
                let same = true;
                for (const layer of ['cen', 'peppol'] as const) {
                  const issues = ours(xml, [layer], ruleSet);
                  for (const flag of ['fatal', 'warning'] as const) {
                    const mine = idsWithFlag(issues, flag);
                    const theirs = verdict[layer][flag];
                    if (mine.join() !== theirs.join()) same = false;
                    problems.push(
                      ...compareSets(ruleSet, 'examples', where, flag, mine, theirs).map((p) => `${layer}: ${p}`),
                    );
                  }
                }
                record(ruleSet.id, 'examples', 'Examples', same);
                expect(problems, problems.join('\n')).to.deep.equal([]);
              });
            });
          });
        },
        [unitDir],
      );
    }
  });
}
