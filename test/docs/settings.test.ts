import { expect } from 'chai';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ALL_SETTINGS, SETTINGS } from '../../src/infrastructure/settings/catalogue.js';
import { choice, flag, integer, url } from '../../src/infrastructure/settings/setting.js';
import { loadConfig } from '../../src/infrastructure/config.js';
import { envReadsIn, sourcesOf } from './envReads.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SETTINGS_DIR = 'src/infrastructure/settings';

/**
 * The settings are declared once (src/infrastructure/settings/catalogue.ts) and the configuration
 * reference is generated from the declarations: here, nothing in src/ reads the environment around
 * them, and nothing declared goes unread.
 */
describe('Settings: every environment variable the code reads is declared (and so documented)', () => {
  it('the scan finds reads in every form the code may write them', () => {
    const reads = envReadsIn(
      'x.ts',
      [
        'const a = process.env.FOO_BAR;',
        "const b = env['BAZ'];",
        "const c = integer(env, 'QUX', 3);",
        'const d = env[name];',
        'const e = options.env?.NEW_ONE ?? 1;',
        'const f = config.env.lowercaseField;',
      ].join('\n'),
    );
    expect(reads.map((r) => r.name)).to.have.members(['FOO_BAR', 'BAZ', 'QUX', null, 'NEW_ONE']);
    expect(reads.find((r) => r.name === 'QUX')?.line).to.equal(3);
  });

  it('nothing in src/ reads a variable that is not declared, nor computes a name the scan cannot follow', async () => {
    const declared = new Set(ALL_SETTINGS.map((s) => s.name));
    const undeclared = (await sourcesOf(ROOT, SETTINGS_DIR))
      .flatMap(({ file, text }) => envReadsIn(file, text))
      .filter((read) => read.name === null || !declared.has(read.name))
      .map((read) => `${read.file}:${read.line}: ${read.text}`);
    expect(
      undeclared,
      'declare each setting in src/infrastructure/settings/catalogue.ts, read it with SETTINGS.NAME.read(env), then run npm run docs:generate',
    ).to.deep.equal([]);
  });

  it('every declared setting is read by the code (through its declaration), or says which library reads it', async () => {
    const sources = (await sourcesOf(ROOT, SETTINGS_DIR)).map((s) => s.text).join('\n');
    const unread = ALL_SETTINGS.filter(
      (s) => !s.readByLibrary && !new RegExp(`\\bSETTINGS\\.${s.name}\\b`).test(sources),
    );
    expect(
      unread.map((s) => s.name),
      'remove the declaration of a setting nothing reads',
    ).to.deep.equal([]);
  });

  it('each declaration is filed under its own name, with a meaning and a default', () => {
    for (const [key, setting] of Object.entries(SETTINGS)) {
      expect(setting.name, key).to.equal(key);
      expect(setting.description.length, key).to.be.greaterThan(5);
      expect(setting.defaultText, key).to.not.equal('');
    }
    expect(new Set(ALL_SETTINGS.map((s) => s.name)).size).to.equal(ALL_SETTINGS.length);
  });

  it('values that cannot be read stop the start with the setting named; unset and blank are the default', () => {
    const port = integer('SOME_PORT', 8080, { section: 'service', description: 'A port.' });
    expect(port.read({})).to.equal(8080);
    expect(port.read({ SOME_PORT: '  ' })).to.equal(8080);
    expect(port.read({ SOME_PORT: '9000' })).to.equal(9000);
    expect(() => port.read({ SOME_PORT: '1.5' })).to.throw(/SOME_PORT must be a non-negative integer/);
    const on = flag('SOME_FLAG', { section: 'service', description: 'A flag.' });
    expect(on.read({ SOME_FLAG: 'TRUE' })).to.equal(true);
    expect(() => on.read({ SOME_FLAG: 'yes' })).to.throw(/SOME_FLAG must be true or false/);
    expect(() => url('SOME_URL', { section: 'service', description: 'A URL.' }).read({ SOME_URL: 'host' })).to.throw(
      /SOME_URL must be an http\(s\) URL/,
    );
    const kind = choice('SOME_KIND', ['a', 'b'] as const, 'a', { section: 'service', description: 'A kind.' });
    expect(() => kind.read({ SOME_KIND: 'c' })).to.throw(/SOME_KIND must be one of a, b/);
    // The service's own: WORK_PROCESSES 0 is the default (the cores, at least two).
    expect(loadConfig({ WORK_PROCESSES: '0' }).work.workers).to.equal(loadConfig({}).work.workers);
    expect(loadConfig({ WORK_PROCESSES: '3' }).work.workers).to.equal(3);
    expect(() => loadConfig({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'yes' })).to.throw(/WEBHOOK_ALLOW_PRIVATE_NETWORKS/);
  });
});
