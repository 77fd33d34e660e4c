import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatedDocuments } from '../../scripts/docs/generatedDocuments.js';
import { ALL_SETTINGS } from '../../src/infrastructure/settings/catalogue.js';
import { CONFIGURATION_REFERENCE } from '../../scripts/docs/configurationReference.js';
import { EVENTS_CATALOGUE } from '../../scripts/docs/eventsCatalogue.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * The configuration reference and the events catalogue are generated from the code; the committed
 * files must be what the code gives now (a setting or an event type added, renamed or removed
 * without `npm run docs:generate` fails here).
 */
describe('Generated documents agree with the code (configuration reference, events catalogue)', function () {
  this.timeout(180_000);
  let generated: Array<{ file: string; text: string }>;
  before(async () => {
    generated = await generatedDocuments(ROOT);
  });

  it('each committed file is what npm run docs:generate writes', async () => {
    for (const { file, text } of generated) {
      const committed = await readFile(path.join(ROOT, file), 'utf8').catch(() => '(missing)');
      expect(committed === text, `${file} differs from the code: run npm run docs:generate`).to.equal(true);
    }
  });

  it('the reference names every declared setting, and the catalogue every event type of the code', async () => {
    const reference = generated.find((g) => g.file === CONFIGURATION_REFERENCE)!.text;
    for (const setting of ALL_SETTINGS) expect(reference, setting.name).to.include(`\`${setting.name}\``);
    const catalogue = generated.find((g) => g.file === EVENTS_CATALOGUE)!.text;
    // Event types the code appends, found independently of the generator: `type: 'SomethingHappened'` in src/.
    const { sourcesOf } = await import('./envReads.js');
    const appended = new Set<string>();
    for (const { text } of await sourcesOf(ROOT, 'src/http')) {
      for (const m of text.matchAll(/\btype: '([A-Z][A-Za-z0-9]+(?:ed|Received|Prepared|Scheduled|Attempted))'/g))
        appended.add(m[1]!);
    }
    expect(appended.size).to.be.greaterThan(30);
    for (const type of appended) expect(catalogue, type).to.include(`### ${type}`);
  });
});
