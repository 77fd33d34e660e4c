import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describeRequiring, type ServerTarget } from './helperServer.js';
import { repoRoot } from './testPki.js';

/**
 * The official Peppol and CEN Schematron (XSLT) of a release, run by the harness in
 * test/interop/phive (`bash .ci/build-phive` builds it; PHIVE_HARNESS_JAR points elsewhere): one Java
 * process per release, many documents pipelined through it. The official files stay data inside the
 * phive-rules-peppol jar; nothing of them is copied here. Without Java or the built jar the suites
 * that need it are skipped with a warning, and fail under CI=true.
 */
export const PHIVE_HARNESS_JAR =
  process.env.PHIVE_HARNESS_JAR || path.join(repoRoot, 'test', 'interop', 'phive', 'target', 'phive-harness.jar');

/** Releases of the official artefacts (phive-rules-peppol folders; RuleSet.release names its own). */
export type OfficialRelease = '2025.5' | '2026.5';

/** Class-path resources of each release's Schematron, by the layer names our validator uses. */
export function officialArtefacts(release: OfficialRelease): Record<'cen' | 'peppol', string> {
  const base = `external/schematron/openpeppol/${release}/xslt`;
  return { cen: `${base}/CEN-EN16931-UBL.xslt`, peppol: `${base}/PEPPOL-EN16931-UBL.xslt` };
}

export function officialRulesTarget(): ServerTarget<{ kind: 'jar'; jar: string }> {
  if (spawnSync('java', ['-version'], { stdio: 'ignore' }).error)
    return { kind: 'none', why: 'no java on the PATH (the phive harness needs Java 17+)' };
  if (!existsSync(PHIVE_HARNESS_JAR))
    return process.env.PHIVE_HARNESS_JAR
      ? { kind: 'none', why: `PHIVE_HARNESS_JAR=${PHIVE_HARNESS_JAR} does not exist` }
      : {
          kind: 'none',
          why: `the phive harness is not built at ${path.relative(process.cwd(), PHIVE_HARNESS_JAR)} (bash .ci/build-phive builds it; PHIVE_HARNESS_JAR points elsewhere)`,
        };
  return { kind: 'jar', jar: PHIVE_HARNESS_JAR };
}

/**
 * Registers the suite `what` when the harness can run and every file in `needs` is there; otherwise
 * a loud skip outside CI and a failing test under CI=true.
 */
export function describeWithOfficialRules(what: string, body: (this: Mocha.Suite) => void, needs: string[] = []): void {
  const missing = needs.find((file) => !existsSync(file));
  const target = missing
    ? { kind: 'none' as const, why: `${missing} is missing (SHARED_DIR names the shared folder)` }
    : officialRulesTarget();
  describeRequiring(what, 'the official rules harness (Java, phive)', target, () => describe(what, body));
}

/** What one official Schematron reported: rule ids per flag (sorted, distinct) and how often each fired. */
export interface OfficialLayerVerdict {
  fatal: string[];
  warning: string[];
  counts: Record<string, number>;
  /** Set when this Schematron stopped with an error on the document (no verdict). */
  failure?: string;
}

export interface OfficialVerdict {
  cen: OfficialLayerVerdict;
  peppol: OfficialLayerVerdict;
  /** Set when a Schematron could not judge the document (not well-formed, a dynamic error, …). */
  failure?: string;
}

export interface OfficialRules {
  release: OfficialRelease;
  /** The official verdict on each document, in order (documents are written to a temp folder). */
  check(documents: readonly (string | Uint8Array)[]): Promise<OfficialVerdict[]>;
  /** The same on files already on disk (absolute paths). */
  checkFiles(files: readonly string[]): Promise<OfficialVerdict[]>;
  stop(): Promise<void>;
}

interface Answer {
  name: string;
  file: string;
  asserts?: { id: string; flag: string; location: string }[];
  failure?: string;
}

function layerVerdict(answer: Answer): OfficialLayerVerdict {
  const fatal = new Set<string>();
  const warning = new Set<string>();
  const counts: Record<string, number> = {};
  for (const a of answer.asserts ?? []) {
    (a.flag === 'fatal' || a.flag === 'error' ? fatal : warning).add(a.id);
    counts[a.id] = (counts[a.id] ?? 0) + 1;
  }
  return {
    fatal: [...fatal].sort(),
    warning: [...warning].sort(),
    counts,
    ...(answer.failure !== undefined ? { failure: answer.failure } : {}),
  };
}

/** Starts the harness for `release` (compiles both Schematrons once; ~2 s). */
export async function startOfficialRules(options: { release: OfficialRelease }): Promise<OfficialRules> {
  const target = officialRulesTarget();
  if (target.kind === 'none') throw new Error(target.why);
  const artefacts = officialArtefacts(options.release);
  const args = ['-jar', target.jar];
  for (const [name, resource] of Object.entries(artefacts)) args.push('--xslt', `${name}=${resource}`);
  const child: ChildProcessWithoutNullStreams = spawn('java', args, { stdio: ['pipe', 'pipe', 'pipe'] });
  const tmp = mkdtempSync(path.join(os.tmpdir(), `official-rules-${options.release}-`));
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const waiting: { resolve: (a: Answer) => void; reject: (e: Error) => void }[] = [];
  let ready: (() => void) | undefined;
  let exited: Error | undefined;
  const readyPromise = new Promise<void>((resolve, reject) => {
    ready = resolve;
    child.on('exit', (code) => {
      exited = new Error(`phive harness exited (${code}): ${stderr}`);
      reject(exited);
      for (const w of waiting.splice(0)) w.reject(exited);
    });
    child.on('error', reject);
  });
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (!line.trim()) return;
    // Harness builds before the fix of its failure answers wrote `"asserts":,"failure":…`.
    const answer = JSON.parse(line.replace(/"(asserts|errors)":,/, '')) as Answer & { ready?: boolean };
    if (answer.ready) {
      ready?.();
      return;
    }
    waiting.shift()?.resolve(answer);
  });
  await readyPromise;

  const ask = (name: string, file: string): Promise<Answer> => {
    if (exited) return Promise.reject(exited);
    const p = new Promise<Answer>((resolve, reject) => waiting.push({ resolve, reject }));
    child.stdin.write(`${name} ${file}\n`);
    return p;
  };

  const checkFiles = async (files: readonly string[]): Promise<OfficialVerdict[]> => {
    const pending = files.map((file) => Promise.all([ask('cen', file), ask('peppol', file)]));
    const answers = await Promise.all(pending);
    return answers.map(([cen, peppol]) => {
      const failure = cen.failure ?? peppol.failure;
      return { cen: layerVerdict(cen), peppol: layerVerdict(peppol), ...(failure ? { failure } : {}) };
    });
  };

  let batch = 0;
  return {
    release: options.release,
    checkFiles,
    async check(documents) {
      const dir = path.join(tmp, String(batch++));
      mkdirSync(dir);
      const files = documents.map((doc, i) => {
        const file = path.join(dir, `${i}.xml`);
        writeFileSync(file, doc);
        return file;
      });
      try {
        return await checkFiles(files);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    async stop() {
      if (!exited) {
        const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.stdin.end();
        await gone;
      }
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}
