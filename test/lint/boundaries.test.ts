import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describeCycle, findFolderCycles, scanImports } from '../../scripts/lint/folderCycles.js';
import { repoRoot } from '../support/repoRoot.js';

// The repository, where eslint.config.js is.
const root = repoRoot;

/**
 * The repository's own ESLint configuration, as `npm run lint` runs it, less the type-aware rules:
 * those need every linted file in the TypeScript program, and the probes below are not files.
 */
const eslint = new ESLint({ cwd: root, overrideConfig: tseslint.configs.disableTypeChecked });

async function lint(code: string, file: string): Promise<Linter.LintMessage[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result.messages;
}

const rules = (messages: Linter.LintMessage[]) => messages.map((m) => m.ruleId);

/** A TypeScript file of this folder (found, not named, so that a file renamed elsewhere does not break the test). */
async function someFileIn(folder: string): Promise<string> {
  const names = (await readdir(path.join(root, folder))).filter((name) => name.endsWith('.ts')).sort();
  expect(names, `a .ts file in ${folder}`).to.not.be.empty;
  return `${folder}/${names[0]}`;
}

/** The specifier one file uses for another under nodenext: relative, with `.js`. */
function specifier(fromFile: string, toFile: string): string {
  const relative = path.posix.relative(path.posix.dirname(fromFile), toFile).replace(/\.ts$/, '.js');
  return relative.startsWith('.') ? relative : `./${relative}`;
}

const importOf = (fromFile: string, toFile: string) =>
  `import * as target from '${specifier(fromFile, toFile)}';\nexport const probe = target;\n`;

describe('Lint: import boundaries', function () {
  // The first lint loads the TypeScript parser and the import resolver.
  this.timeout(60_000);

  it('fails the domain importing infrastructure, and lets it import the domain', async () => {
    const probe = 'src/domain/boundaryProbe.ts';
    const infrastructure = await someFileIn('src/infrastructure/postgres');
    expect(rules(await lint(importOf(probe, infrastructure), probe))).to.deep.equal(['import-x/no-restricted-paths']);
    const domain = await someFileIn('src/domain/webhook');
    expect(await lint(importOf(probe, domain), probe)).to.deep.equal([]);
  });

  it('fails the domain importing libxmljs or a node:* module, and lets it import decimal.js', async () => {
    const probe = 'src/domain/document/boundaryProbe.ts';
    const libxml = await lint(`import libxmljs from 'libxmljs';\nexport const probe = libxmljs;\n`, probe);
    expect(rules(libxml)).to.deep.equal(['@typescript-eslint/no-restricted-imports']);
    expect(libxml[0].message).to.contain('src/domain imports no framework');
    const fs = await lint(`import { readFileSync } from 'node:fs';\nexport const probe = readFileSync;\n`, probe);
    expect(rules(fs)).to.deep.equal(['@typescript-eslint/no-restricted-imports']);
    const dynamic = await lint(`export const probe = () => import('node:fs');\n`, probe);
    expect(rules(dynamic)).to.deep.equal(['no-restricted-syntax']);
    expect(
      await lint(`import Decimal from 'decimal.js';\nexport const probe = new Decimal(1);\n`, probe),
    ).to.deep.equal([]);
  });

  it('fails http importing infrastructure/postgres or pg, and lets infrastructure import them', async () => {
    const probe = 'src/http/boundaryProbe.ts';
    const postgres = await someFileIn('src/infrastructure/postgres');
    expect(rules(await lint(importOf(probe, postgres), probe))).to.deep.equal(['import-x/no-restricted-paths']);
    const pg = await lint(`import pg from 'pg';\nexport const probe = pg;\n`, probe);
    expect(rules(pg)).to.deep.equal(['@typescript-eslint/no-restricted-imports']);
    const typeOnly = await lint(`import type { Pool } from 'pg';\nexport type Probe = Pool;\n`, probe);
    expect(rules(typeOnly)).to.deep.equal(['@typescript-eslint/no-restricted-imports']);
    const adapter = 'src/infrastructure/boundaryProbe.ts';
    expect(await lint(importOf(adapter, postgres), adapter)).to.deep.equal([]);
    expect(await lint(`import pg from 'pg';\nexport const probe = pg;\n`, adapter)).to.deep.equal([]);
  });

  it('fails the application importing projections, and lets projections import the application', async () => {
    const probe = 'src/application/documents/boundaryProbe.ts';
    const projection = await someFileIn('src/projections');
    const messages = await lint(importOf(probe, projection), probe);
    expect(rules(messages)).to.deep.equal(['import-x/no-restricted-paths']);
    expect(messages[0].message).to.contain('src/application may import only src/domain, src/application');
    const port = await someFileIn('src/application/ports');
    const projectionProbe = 'src/projections/boundaryProbe.ts';
    expect(await lint(importOf(projectionProbe, port), projectionProbe)).to.deep.equal([]);
  });

  it('lets the composition roots import every layer', async () => {
    const probe = 'src/composition/boundaryProbe.ts';
    const postgres = await someFileIn('src/infrastructure/postgres');
    const projection = await someFileIn('src/projections');
    const code = `${importOf(probe, postgres)}import * as projection from '${specifier(probe, projection)}';\nimport pg from 'pg';\nexport const all = [projection, pg];\n`;
    expect(await lint(code, probe)).to.deep.equal([]);
  });

  describe('a cycle between two files of src', () => {
    const folder = `src/lintCycleProbe${process.pid}`;
    const files = { a: `${folder}/a.ts`, b: `${folder}/b.ts`, c: `${folder}/c.ts` };

    before(async () => {
      await mkdir(path.join(root, folder), { recursive: true });
      await writeFile(
        path.join(root, files.a),
        `import { b } from './b.js';\nexport const a = (): number => b() + 1;\n`,
      );
      await writeFile(
        path.join(root, files.b),
        `import { a } from './a.js';\nexport const b = (): number => a() - 1;\n`,
      );
      // c imports a, but nothing leads back to c: on the path to a cycle, not in one.
      await writeFile(path.join(root, files.c), `import { a } from './a.js';\nexport const c = a;\n`);
    });

    after(async () => {
      await rm(path.join(root, folder), { recursive: true, force: true });
    });

    it('fails both files of the cycle, and not a file that only imports one of them', async () => {
      const results = await eslint.lintFiles([files.a, files.b, files.c].map((file) => path.join(root, file)));
      const byFile = new Map(
        results.map((result) => [
          path.relative(root, result.filePath).split(path.sep).join('/'),
          rules(result.messages),
        ]),
      );
      expect(byFile.get(files.a)).to.deep.equal(['import-x/no-cycle']);
      expect(byFile.get(files.b)).to.deep.equal(['import-x/no-cycle']);
      expect(byFile.get(files.c)).to.deep.equal([]);
    });
  });
});

describe('Lint: cycles between folders', () => {
  const edge = (from: string, to: string) => ({ from, to });

  it('finds two sibling folders that import each other', () => {
    const cycles = findFolderCycles([
      edge('src/application/documents/documentCommands.ts', 'src/application/delivery/deliveryProcess.ts'),
      edge('src/application/delivery/deliveryProcess.ts', 'src/application/documents/documentWork.ts'),
      edge('src/application/delivery/deliveryProcess.ts', 'src/domain/retrySchedule.ts'),
    ]);
    expect(cycles.map((cycle) => cycle.folders)).to.deep.equal([
      ['src/application/delivery', 'src/application/documents'],
    ]);
    expect(cycles[0].imports).to.have.length(2);
    expect(describeCycle(cycles[0])).to.contain('src/application/documents -> src/application/delivery: 1 import(s)');
  });

  it('finds a cycle between layers that no two leaf folders close', () => {
    const cycles = findFolderCycles([
      edge('src/application/documents/documentQueries.ts', 'src/projections/documentsProjection.ts'),
      edge('src/projections/documentsProjection.ts', 'src/application/ports/readModelStore.ts'),
      edge('src/application/ports/readModelStore.ts', 'src/domain/errors.ts'),
    ]);
    expect(cycles.map((cycle) => cycle.folders)).to.deep.equal([['src/application', 'src/projections']]);
  });

  it('finds a loop of three folders once, at the deepest level it appears', () => {
    const cycles = findFolderCycles([
      edge('src/domain/validation/rules/cen/core.ts', 'src/domain/validation/xml/tree.ts'),
      edge('src/domain/validation/xml/tree.ts', 'src/domain/validation/limits/limits.ts'),
      edge('src/domain/validation/limits/limits.ts', 'src/domain/validation/rules/cen/codeLists.ts'),
    ]);
    expect(cycles.map((cycle) => cycle.folders)).to.deep.equal([
      ['src/domain/validation/limits', 'src/domain/validation/rules/cen', 'src/domain/validation/xml'],
    ]);
  });

  it('takes a folder and its subfolders as one: an index above them and a kernel they share make no cycle', () => {
    expect(
      findFolderCycles([
        edge('src/domain/validation/index.ts', 'src/domain/validation/rules/cen/index.ts'),
        edge('src/domain/validation/rules/cen/core.ts', 'src/domain/validation/context.ts'),
        edge('src/http/app.ts', 'src/http/routes/index.ts'),
        edge('src/http/routes/documents/documentRoutes.ts', 'src/http/errors.ts'),
      ]),
    ).to.deep.equal([]);
    // ...while two of its subfolders importing each other still do.
    expect(
      findFolderCycles([
        edge('src/domain/validation/rules/national/de.ts', 'src/domain/validation/rules/peppol/shared.ts'),
        edge('src/domain/validation/rules/peppol/index.ts', 'src/domain/validation/rules/national/index.ts'),
      ]).map((cycle) => cycle.folders),
    ).to.deep.equal([['src/domain/validation/rules/national', 'src/domain/validation/rules/peppol']]);
  });

  it('finds nothing where the imports point one way', () => {
    expect(
      findFolderCycles([
        edge('src/http/routes/documents.ts', 'src/application/documents/documentCommands.ts'),
        edge('src/application/documents/documentCommands.ts', 'src/domain/document/lifecycle/documentAggregate.ts'),
        edge('src/domain/document/lifecycle/documentAggregate.ts', 'src/domain/document/invoice/documentModel.ts'),
        edge('src/infrastructure/postgres/pgEventStore.ts', 'src/application/ports/eventStore.ts'),
        edge('src/main.ts', 'src/http/app.ts'),
      ]),
    ).to.deep.equal([]);
  });

  describe('on files', () => {
    let scratch: string;

    before(async () => {
      scratch = await mkdtemp(path.join(os.tmpdir(), 'folder-cycles-'));
      await mkdir(path.join(scratch, 'src/one'), { recursive: true });
      await mkdir(path.join(scratch, 'src/two'), { recursive: true });
      // A type-only import still ties the folders (ESLint's no-cycle does not count it).
      await writeFile(
        path.join(scratch, 'src/one/a.ts'),
        `import type { B } from '../two/b.js';\nexport interface A { b: B }\n`,
      );
      await writeFile(
        path.join(scratch, 'src/two/b.ts'),
        `// import { nothing } from '../one/a.js' in a comment is no import\nexport const b = () => import('../one/a.js');\nexport type B = number;\n`,
      );
    });

    after(async () => {
      await rm(scratch, { recursive: true, force: true });
    });

    it('reads imports of every kind, resolving .js to .ts, and not those in comments', () => {
      expect(scanImports(path.join(scratch, 'src'))).to.deep.equal([
        edge('src/one/a.ts', 'src/two/b.ts'),
        edge('src/two/b.ts', 'src/one/a.ts'),
      ]);
    });

    it('fails the command line on a cycle and passes it without one', async () => {
      const script = fileURLToPath(new URL('../../scripts/lint/folderCycles.js', import.meta.url));
      const failed = await promisify(execFile)(process.execPath, [script, path.join(scratch, 'src')]).then(
        () => undefined,
        (error: { code: number; stderr: string }) => error,
      );
      expect(failed?.code).to.equal(1);
      expect(failed?.stderr).to.contain('folder cycle: src/one <-> src/two');
      await writeFile(path.join(scratch, 'src/two/b.ts'), `export type B = number;\n`);
      const passed = await promisify(execFile)(process.execPath, [script, path.join(scratch, 'src')]);
      expect(passed.stdout).to.contain('no folder cycles');
    });
  });
});
