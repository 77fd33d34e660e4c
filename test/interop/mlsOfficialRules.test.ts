import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { validateMls } from '../../src/domain/validation/rules/mls/mlsRules.js';
import { parseUntrustedXml } from '../../src/infrastructure/xml/xmlParser.js';
import { describeWithHarness, startHarness, type Harness } from '../support/phiveHarness.js';
import { vectorsDir } from '../support/peppolVectors.js';

const MLS = path.join(vectorsDir(), 'peppol-commons', 'mls');
/** The official MLS Schematron 1.0.1 (peppol-commons' source, in the shared vectors), turned into XSLT by the harness. */
const SCH_1_0_1 = path.join(MLS, 'peppol-mls-1.0.1.sch');
/** The MLS Schematron that Maven Central serves compiled: 1.0.0, inside phive-rules-peppol 4.3.7. */
const XSLT_1_0_0 = 'external/schematron/mls/1.0.0/xslt/peppol-mls-1.0.0.xslt';

const ids = (list: string[]) => [...new Set(list)].sort();

/**
 * Our MLS rules against the official Schematron, file by file over every good and bad vector: the
 * same rules fire. 1.0.1 is the version in force (the vectors are made for it); Maven Central serves
 * only 1.0.0 compiled, whose SCH-MLS-11/16 accepted any participant scheme and whose SPID pattern
 * was case-sensitive, so it differs from 1.0.1 exactly there.
 */
describeWithHarness(
  'MLS rules: ours and the official Schematron agree on every vector',
  function () {
    this.timeout(300_000);
    let harness: Harness;
    const files = () =>
      ['good', 'bad'].flatMap((dir) =>
        fs
          .readdirSync(path.join(MLS, dir))
          .filter((f) => f.endsWith('.xml'))
          .map((f) => path.join(MLS, dir, f)),
      );
    const official = async (name: string, file: string) => {
      const answer = await harness.ask(name, file);
      if (answer.failure) throw new Error(`${name} on ${file}: ${answer.failure}`);
      return ids(answer.asserts!.map((a) => a.id));
    };
    const ours = (file: string) =>
      ids(validateMls(parseUntrustedXml(fs.readFileSync(file)).root).map((i) => i.rule_id));

    before(async () => {
      harness = await startHarness({ sch: { mls101: SCH_1_0_1 }, xslt: { mls100: XSLT_1_0_0 } });
    });
    after(async () => harness?.stop());

    it('fires the rules the official 1.0.1 Schematron fires, on each of the 75 files', async () => {
      const all = files();
      expect(all).to.have.length(75);
      const differ: string[] = [];
      for (const file of all) {
        const [theirs, mine] = [await official('mls101', file), ours(file)];
        if (JSON.stringify(theirs) !== JSON.stringify(mine))
          differ.push(`${path.basename(file)}: official ${theirs.join(',')} ours ${mine.join(',')}`);
      }
      expect(differ).to.deep.equal([]);
    });

    it('differs from the 1.0.0 that Maven Central serves only where 1.0.1 changed the rules (SCH-MLS-09/11/14/16)', async () => {
      const changed = new Set(['SCH-MLS-09', 'SCH-MLS-11', 'SCH-MLS-14', 'SCH-MLS-16']);
      const differ: string[] = [];
      for (const file of files()) {
        const [old, mine] = [await official('mls100', file), ours(file)];
        const gap = [...old.filter((r) => !mine.includes(r)), ...mine.filter((r) => !old.includes(r))];
        differ.push(...gap.map((rule) => `${path.basename(file)} ${rule}`));
      }
      expect(differ.filter((d) => !changed.has(d.split(' ')[1]!))).to.deep.equal([]);
      expect(differ, 'the versions do differ on the vectors made for 1.0.1').to.not.be.empty;
    });
  },
  [SCH_1_0_1],
);
