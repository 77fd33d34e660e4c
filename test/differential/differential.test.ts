// Differential suite: our validator and the official XSLT of each release (through the phive harness)
// on the same few thousand generated and mutated documents (corpus.ts; XSD-invalid ones included:
// the Schematron layers run regardless). For every document the set of fatal rule ids of both layers
// must be the same (a self-billing document is compared with the release's self-billing Schematron
// where it has one, officialRules.ts); the suite requires ≥ 99.5 % of documents to agree per release and every
// disagreement to be explained (../domain/validation/conformance/explainedDifferences.ts).
// DIFFERENTIAL_COUNT (default 3000) and DIFFERENTIAL_SEED (default 17) choose the corpus;
// DIFFERENTIAL_REPORT names a file for the JSON summary.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setImmediate as yieldToEvents } from 'node:timers/promises';
import { expect } from 'chai';
import { RULE_SETS, type RuleLayer, type RuleSet } from '../../src/domain/validation/index.js';
import { parseUbl, validateUbl } from '../../src/infrastructure/xml/ublText.js';
import { schemaIssuesOf } from '../../src/infrastructure/xml/schemaValidator.js';
import {
  declaresSelfBilling,
  describeWithOfficialRules,
  officialArtefacts,
  startOfficialRules,
  type OfficialRelease,
  type OfficialRules,
  type OfficialVerdict,
} from '../support/officialRules.js';
import {
  explanationOf,
  OFFICIAL_FAILURE,
  outsideAgreement,
  symmetricDifference,
} from '../domain/validation/conformance/explainedDifferences.js';
import { sharedDir } from '../domain/validation/conformance/corpus.js';
import { generateCorpus, type GeneratedDocument } from './corpus.js';

export const AGREEMENT_TARGET = 0.995;
const OUR_PARSER_REFUSED = '(our parser refused the XML)';

interface Difference {
  document: string;
  rule: string;
  side: 'ours' | 'official';
  explained: boolean;
}

export interface ReleaseSummary {
  ruleSet: string;
  release: string;
  /** Documents counted in the agreement figure (the corpus less those OUTSIDE_AGREEMENT for the set). */
  documents: number;
  agreed: number;
  agreement: number;
  unexplainedDocuments: number;
  /** Documents on which an official XSLT stopped with an error (counted as agreeing when we refuse too). */
  officialFailures: number;
  /** Self-billing documents, and how many of them were compared with the official self-billing Schematron. */
  selfBilling: { documents: number; agreed: number; withSelfBillingSchematron: number };
  /** Per rule id: documents where only we report it, where only the official XSLT does (unexplained). */
  byRule: Record<string, { oursOnly: number; officialOnly: number; examples: string[] }>;
}

function fatalIds(xml: string, ruleSet: RuleSet, layers?: RuleLayer[]): string[] {
  try {
    return [
      ...new Set(
        validateUbl(xml, { ruleSet, layers })
          .filter((i) => i.flag === 'fatal')
          .map((i) => i.rule_id),
      ),
    ].sort();
  } catch {
    return [OUR_PARSER_REFUSED];
  }
}

/** Our schema check (the UBL XSD every upload meets before the rules) refuses the document. */
function schemaRefuses(xml: string): boolean {
  try {
    return schemaIssuesOf(parseUbl(xml).native).length > 0;
  } catch {
    return true;
  }
}

/**
 * The rule ids in one side only. When the official XSLT of a layer stopped with an error (no verdict),
 * that layer is one difference, OFFICIAL_FAILURE (explained only when listed and we refuse the
 * document too), and the other layer is compared alone.
 */
/** The document as explainedDifferences.ts names it: its mutations, marked when it declares self-billing. */
const whereOf = (doc: GeneratedDocument) =>
  `differential:${declaresSelfBilling(doc.xml) ? 'self-billing ' : ''}${doc.mutations.join(' ')}`;

function compare(doc: GeneratedDocument, ruleSet: RuleSet, ours: string[], official: OfficialVerdict): Difference[] {
  const where = whereOf(doc);
  const diff = (mine: string[], theirs: string[]): Difference[] =>
    symmetricDifference(mine, theirs).map((rule) => ({
      document: doc.name,
      rule,
      side: mine.includes(rule) ? 'ours' : 'official',
      explained: explanationOf(where, ruleSet.id, rule) !== undefined,
    }));
  if (!official.failure) return diff(ours, [...new Set([...official.cen.fatal, ...official.peppol.fatal])].sort());
  if (ours.includes(OUR_PARSER_REFUSED)) return [];
  const judged = (['cen', 'peppol'] as const).filter((l) => official[l].failure === undefined);
  const failure: Difference = {
    document: doc.name,
    rule: OFFICIAL_FAILURE,
    side: 'official',
    // We refuse it too: a fatal rule, or (as the service does before the rules) the schema.
    explained:
      explanationOf(where, ruleSet.id, OFFICIAL_FAILURE) !== undefined && (ours.length > 0 || schemaRefuses(doc.xml)),
  };
  if (judged.length === 0) return [failure];
  const mine = fatalIds(doc.xml, ruleSet, [...judged]);
  return [
    failure,
    ...diff(
      mine,
      judged.flatMap((l) => official[l].fatal),
    ),
  ];
}

describeWithOfficialRules(
  'differential: our validator and the official XSLT on generated documents',
  function () {
    const count = Number(process.env.DIFFERENTIAL_COUNT ?? 3000);
    const seed = Number(process.env.DIFFERENTIAL_SEED ?? 17);
    const summaries = new Map<string, ReleaseSummary>();
    const differences = new Map<string, Difference[]>();
    let corpus: GeneratedDocument[] = [];
    const harnesses: OfficialRules[] = [];
    let tmp = '';

    before(async function () {
      this.timeout(10 * 60_000);
      const started = RULE_SETS.map((set) => startOfficialRules({ release: set.release as OfficialRelease }));
      corpus = generateCorpus({ seed, count });
      tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'differential-'));
      const files = corpus.map((doc, i) => {
        const file = path.join(tmp, `${i}.xml`);
        fs.writeFileSync(file, doc.xml);
        return file;
      });
      harnesses.push(...(await Promise.all(started)));
      const officialRuns = harnesses.map((h) => h.checkFiles(files));
      // Ours, in slices, so the event loop keeps feeding the harnesses meanwhile.
      const ours = RULE_SETS.map(() => [] as string[][]);
      for (let i = 0; i < corpus.length; i += 25) {
        for (let j = i; j < Math.min(i + 25, corpus.length); j++)
          RULE_SETS.forEach((set, k) => ours[k]!.push(fatalIds(corpus[j]!.xml, set)));
        await yieldToEvents();
      }
      const official = await Promise.all(officialRuns);
      RULE_SETS.forEach((set, k) => {
        const diffs: Difference[] = [];
        let agreed = 0;
        let counted = 0;
        let officialFailures = 0;
        const selfBilling = { documents: 0, agreed: 0, withSelfBillingSchematron: 0 };
        corpus.forEach((doc, i) => {
          const d = compare(doc, set, ours[k]![i]!, official[k]![i]!);
          // Agreement: the same fatal rule ids; where the official XSLT stopped on a layer (no list),
          // we refuse too and the other layer has the same ids.
          const same = d.every((x) => x.rule === OFFICIAL_FAILURE && x.explained);
          if (!outsideAgreement(whereOf(doc), set.id)) {
            counted++;
            if (same) agreed++;
          }
          if (official[k]![i]!.failure) officialFailures++;
          if (declaresSelfBilling(doc.xml)) {
            selfBilling.documents++;
            if (same) selfBilling.agreed++;
            if (official[k]![i]!.peppolArtefact === 'peppolSb') selfBilling.withSelfBillingSchematron++;
          }
          diffs.push(...d);
        });
        const byRule: ReleaseSummary['byRule'] = {};
        for (const d of diffs.filter((x) => !x.explained)) {
          const r = (byRule[d.rule] ??= { oursOnly: 0, officialOnly: 0, examples: [] });
          if (d.side === 'ours') r.oursOnly++;
          else r.officialOnly++;
          if (r.examples.length < 3) r.examples.push(d.document);
        }
        differences.set(set.id, diffs);
        summaries.set(set.id, {
          ruleSet: set.id,
          release: set.release,
          documents: counted,
          agreed,
          agreement: agreed / counted,
          officialFailures,
          selfBilling,
          unexplainedDocuments: new Set(diffs.filter((x) => !x.explained).map((x) => x.document)).size,
          byRule,
        });
      });
    });

    after(async function () {
      for (const h of harnesses) await h.stop();
      if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
      const all = [...summaries.values()];
      if (all.length === 0) return;
      console.log(`\n  Differential agreement (seed ${seed}, ${count} documents):`);
      for (const s of all) {
        console.log(
          `    ${s.ruleSet} (official ${s.release}): ${s.agreed} / ${s.documents} = ${(100 * s.agreement).toFixed(2)} % (official XSLT stopped on ${s.officialFailures})`,
        );
        console.log(
          `      self-billing: ${s.selfBilling.agreed} / ${s.selfBilling.documents} agree (${s.selfBilling.withSelfBillingSchematron} compared with the self-billing Schematron)`,
        );
        const top = Object.entries(s.byRule)
          .sort((a, b) => b[1].oursOnly + b[1].officialOnly - (a[1].oursOnly + a[1].officialOnly))
          .slice(0, 25);
        for (const [rule, r] of top)
          console.log(
            `      ${rule.padEnd(28)} ours only ${String(r.oursOnly).padStart(4)}  official only ${String(r.officialOnly).padStart(4)}`,
          );
      }
      if (process.env.DIFFERENTIAL_REPORT)
        fs.writeFileSync(
          process.env.DIFFERENTIAL_REPORT,
          JSON.stringify({ seed, count, releases: all }, null, 2) + '\n',
        );
    });

    it('generates the corpus it was asked for, deterministically', function () {
      expect(corpus).to.have.length(count);
      // Every document counts for 3.0.21; 3.0.19 leaves the self-billing ones out (no official file).
      expect(summaries.get('peppol-bis-3.0.21')?.documents).to.equal(count);
      const again = generateCorpus({ seed, count: Math.min(count, 200) });
      expect(again.map((d) => d.xml)).to.deep.equal(corpus.slice(0, again.length).map((d) => d.xml));
      expect(new Set(corpus.map((d) => d.base)).size, 'base documents').to.be.greaterThan(20);
      expect(corpus.filter((d) => declaresSelfBilling(d.xml)).length, 'self-billing documents').to.be.greaterThan(
        count / 10,
      );
    });

    it('compares self-billing documents with the self-billing Schematron where the release has one', function () {
      for (const set of RULE_SETS) {
        const s = summaries.get(set.id)!;
        // 2026.5 ships PEPPOL-EN16931-UBL-SB.xslt; 2025.5 has none (its billing file is used).
        const expected = officialArtefacts(set.release as OfficialRelease).peppolSb ? s.selfBilling.documents : 0;
        expect(s.selfBilling.withSelfBillingSchematron, set.id).to.equal(expected);
        expect(s.selfBilling.documents, set.id).to.be.greaterThan(0);
      }
    });

    for (const set of RULE_SETS) {
      it(`${set.id}: at least ${100 * AGREEMENT_TARGET} % of documents get the official set of fatal rule ids`, function () {
        const s = summaries.get(set.id)!;
        expect(s.agreement, `${s.agreed} / ${s.documents}`).to.be.at.least(AGREEMENT_TARGET);
      });
      it(`${set.id}: every disagreement with the official XSLT is explained`, function () {
        const unexplained = differences.get(set.id)!.filter((d) => !d.explained);
        expect(
          unexplained.length,
          unexplained
            .slice(0, 20)
            .map((d) => `${d.rule} (${d.side} only): ${d.document}`)
            .join('\n'),
        ).to.equal(0);
      });
    }
  },
  [path.join(sharedDir(), 'conformance', 'examples', 'EXPECTED.tsv')],
);
