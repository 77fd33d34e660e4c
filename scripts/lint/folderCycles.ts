/**
 * Fails on cycles between folders of src: `npm run lint` runs it after ESLint.
 *   node dist/scripts/lint/folderCycles.js [root, default src]
 * ESLint's import-x/no-cycle sees cycles between files and skips type-only imports (they vanish at
 * run time); layering is about folders and about types too: application/documents importing a type
 * of application/delivery while delivery imports documents ties the two folders into one, which no
 * file-level rule reports. Each folder is a node (its own files, not its subfolders'); an import of
 * any kind (value, type, re-export, dynamic) between two files is an edge between their folders,
 * unless one folder holds the other (see nestedIn).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** One import: the importing file and the file it names, both relative to the scanned root's parent. */
export interface FileImport {
  from: string;
  to: string;
}

/** A set of folders that reach each other, with one file import for each edge between them. */
export interface FolderCycle {
  folders: string[];
  imports: FileImport[];
}

const folderOf = (file: string) => path.posix.dirname(file);

/** The folder seen from `depth` segments down: src/application/documents at depth 2 is src/application. */
const ancestorAt = (folder: string, depth: number) => folder.split('/').slice(0, depth).join('/');

/**
 * The cycles between folders that these file imports make, at every level of the tree: at the
 * deepest level each folder is a node (its own files, not its subfolders'); one level up, each
 * folder stands for itself and everything under it, and so on to the top folders of the root. So
 * application/documents <-> application/delivery is found at the level of the folders, and
 * application -> projections -> application at the level of the layers, though no two leaf folders
 * close that loop. Each loop is reported once, at the deepest level it appears.
 */
export function findFolderCycles(imports: readonly FileImport[]): FolderCycle[] {
  const deepest = Math.max(
    0,
    ...imports.flatMap(({ from, to }) => [folderOf(from), folderOf(to)]).map((f) => f.split('/').length),
  );
  const seen = new Set<string>();
  const cycles: FolderCycle[] = [];
  for (let depth = deepest; depth >= 2; depth -= 1) {
    for (const cycle of stronglyConnected(imports, (file) => ancestorAt(folderOf(file), depth))) {
      if (seen.has(cycle.folders.join('\n'))) continue;
      cycles.push(cycle);
      // The same loop seen from higher up (validation/rules/cen <-> validation becomes
      // validation/rules <-> validation) is not a second finding.
      for (let above = depth; above >= 2; above -= 1) {
        seen.add([...new Set(cycle.folders.map((folder) => ancestorAt(folder, above)))].sort().join('\n'));
      }
    }
  }
  return cycles.sort((a, b) => a.folders[0].localeCompare(b.folders[0]) || a.folders.length - b.folders.length);
}

/**
 * Whether `inner` is a folder under `outer`. A folder holds its subfolders: its own files are
 * their entry (an index that registers them) and their shared kernel (errors, context), so an
 * import between a folder and one of its subfolders stays inside the folder and is no edge
 * between two folders. Siblings and folders on different branches are what can form a cycle.
 */
const nestedIn = (inner: string, outer: string) => inner.startsWith(`${outer}/`);

/** Tarjan's strongly connected components of more than one node, each file mapped to its node. */
function stronglyConnected(imports: readonly FileImport[], nodeOf: (file: string) => string): FolderCycle[] {
  const edges = new Map<string, Map<string, FileImport[]>>();
  const nodes = new Set<string>();
  for (const fileImport of imports) {
    const from = nodeOf(fileImport.from);
    const to = nodeOf(fileImport.to);
    nodes.add(from).add(to);
    if (from === to || nestedIn(from, to) || nestedIn(to, from)) continue;
    const targets = edges.get(from) ?? new Map<string, FileImport[]>();
    edges.set(from, targets);
    const held = targets.get(to) ?? [];
    targets.set(to, held);
    held.push(fileImport);
  }

  // Iterative, so that a deep folder tree cannot overflow the stack.
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let next = 0;
  for (const root of [...nodes].sort()) {
    if (index.has(root)) continue;
    const work: { node: string; successors: string[]; at: number }[] = [];
    const visit = (node: string) => {
      index.set(node, next);
      lowLink.set(node, next);
      next += 1;
      stack.push(node);
      onStack.add(node);
      work.push({ node, successors: [...(edges.get(node)?.keys() ?? [])].sort(), at: 0 });
    };
    visit(root);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      if (frame.at < frame.successors.length) {
        const successor = frame.successors[frame.at];
        frame.at += 1;
        if (!index.has(successor)) visit(successor);
        else if (onStack.has(successor))
          lowLink.set(frame.node, Math.min(lowLink.get(frame.node)!, index.get(successor)!));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].node;
        lowLink.set(parent, Math.min(lowLink.get(parent)!, lowLink.get(frame.node)!));
      }
      if (lowLink.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        if (component.length > 1) components.push(component.sort());
      }
    }
  }

  return components.map((folders) => {
    const members = new Set(folders);
    const held = folders.flatMap((from) =>
      [...(edges.get(from) ?? [])].filter(([to]) => members.has(to)).flatMap(([, fileImports]) => fileImports),
    );
    return { folders, imports: held.sort((a, b) => a.from.localeCompare(b.from) || a.to.localeCompare(b.to)) };
  });
}

/** The TypeScript file a relative specifier names (`./x.js` is `./x.ts` under nodenext), if any. */
function resolveRelative(fromFile: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(fromFile), specifier);
  const candidates = [base.replace(/\.(m|c)?js$/, '.$1ts'), base, `${base}.ts`, path.join(base, 'index.ts')];
  return candidates.find(
    (candidate) => candidate.endsWith('.ts') && fs.existsSync(candidate) && fs.statSync(candidate).isFile(),
  );
}

/** Every import between TypeScript files under root (packages are not folders of ours). */
export function scanImports(root: string): FileImport[] {
  const rootDir = path.resolve(root);
  const base = path.dirname(rootDir);
  const files = fs
    .readdirSync(rootDir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))
    .map((name) => path.join(rootDir, name))
    .sort();
  const relative = (file: string) => path.relative(base, file).split(path.sep).join('/');
  return files.flatMap((file) => {
    // preProcessFile reads import/export declarations, `import type`, `import x = require()` and
    // `import()` the way the compiler does, so specifiers in comments or strings are not counted.
    const { importedFiles } = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
    return importedFiles
      .filter(({ fileName }) => fileName.startsWith('.'))
      .flatMap(({ fileName }) => {
        const target = resolveRelative(file, fileName);
        return target ? [{ from: relative(file), to: relative(target) }] : [];
      });
  });
}

/** The report of one cycle: its folders, then each edge between them with a few of its imports. */
export function describeCycle(cycle: FolderCycle, examples = 3): string {
  const members = [...cycle.folders].sort((a, b) => b.length - a.length);
  // The member folder that stands for a file: the longest one containing it (the cycle may be
  // between layers, src/application and src/projections, or between leaf folders).
  const memberOf = (file: string) => members.find((folder) => file.startsWith(`${folder}/`)) ?? folderOf(file);
  const edges = new Map<string, FileImport[]>();
  for (const fileImport of cycle.imports) {
    const edge = `${memberOf(fileImport.from)} -> ${memberOf(fileImport.to)}`;
    edges.set(edge, [...(edges.get(edge) ?? []), fileImport]);
  }
  const lines = [`folder cycle: ${cycle.folders.join(' <-> ')}`];
  for (const [edge, fileImports] of edges) {
    lines.push(`  ${edge}: ${fileImports.length} import(s)`);
    for (const { from, to } of fileImports.slice(0, examples)) lines.push(`    ${from} -> ${to}`);
    if (fileImports.length > examples) lines.push(`    ...`);
  }
  return lines.join('\n');
}

const isMain = process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const root = process.argv[2] ?? 'src';
  const cycles = findFolderCycles(scanImports(root));
  for (const cycle of cycles) console.error(describeCycle(cycle));
  if (cycles.length > 0) {
    console.error(`${cycles.length} folder cycle(s) under ${root}`);
    process.exitCode = 1;
  } else {
    console.log(`no folder cycles under ${root}`);
  }
}
