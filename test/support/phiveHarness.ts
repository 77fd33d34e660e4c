import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { describeRequiring, type ServerTarget } from './helperServer.js';
import { repoRoot } from './testPki.js';

/**
 * The official-rules harness of test/interop/phive (`bash .ci/build-phive` builds it;
 * PHIVE_HARNESS_JAR points elsewhere): official Schematron (as XSLT) and XSDs from the
 * phive-rules-peppol jar, compiled once per process, documents pipelined through it one stdin line
 * each. The official files stay data inside that jar; nothing of them is copied here. Without Java
 * or the built jar the suites that need it are skipped with a warning, and fail under CI=true.
 */
export const PHIVE_HARNESS_JAR =
  process.env.PHIVE_HARNESS_JAR || path.join(repoRoot, 'test', 'interop', 'phive', 'target', 'phive-harness.jar');

export function harnessTarget(): ServerTarget<{ kind: 'jar'; jar: string }> {
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
export function describeWithHarness(what: string, body: (this: Mocha.Suite) => void, needs: string[] = []): void {
  const missing = needs.find((file) => !existsSync(file));
  const target = missing
    ? { kind: 'none' as const, why: `${missing} is missing (SHARED_DIR names the shared folder)` }
    : harnessTarget();
  describeRequiring(what, 'the official rules harness (Java, phive)', target, () => describe(what, body));
}

/** One answer of the harness: a Schematron's fired asserts, an XSD's errors, or why it could not judge. */
export interface HarnessAnswer {
  name: string;
  file: string;
  asserts?: { id: string; flag: string; location: string }[];
  errors?: { line: number; message: string }[];
  failure?: string;
}

export interface Harness {
  /** Artefact `name` on a file on disk (an absolute path). */
  ask(name: string, file: string): Promise<HarnessAnswer>;
  /** Writes documents to a temporary folder (removed afterwards) and hands their paths to `use`. */
  withFiles<T>(documents: readonly (string | Uint8Array)[], use: (files: string[]) => Promise<T>): Promise<T>;
  stop(): Promise<void>;
}

/** Starts one harness process with named artefacts (class-path resources of the phive-rules-peppol jar). */
export async function startHarness(artefacts: {
  xslt?: Record<string, string>;
  xsd?: Record<string, string>;
  /** Schematron sources (.sch files on disk, absolute paths), compiled to XSLT by the harness. */
  sch?: Record<string, string>;
}) {
  const target = harnessTarget();
  if (target.kind === 'none') throw new Error(target.why);
  const args = ['-jar', target.jar];
  for (const [name, resource] of Object.entries(artefacts.xslt ?? {})) args.push('--xslt', `${name}=${resource}`);
  for (const [name, resource] of Object.entries(artefacts.xsd ?? {})) args.push('--xsd', `${name}=${resource}`);
  for (const [name, file] of Object.entries(artefacts.sch ?? {})) args.push('--sch', `${name}=${file}`);
  const child: ChildProcessWithoutNullStreams = spawn('java', args, { stdio: ['pipe', 'pipe', 'pipe'] });
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'official-rules-'));
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const waiting: { resolve: (a: HarnessAnswer) => void; reject: (e: Error) => void }[] = [];
  let ready: (() => void) | undefined;
  let exited: Error | undefined;
  const started = new Promise<void>((resolve, reject) => {
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
    const answer = JSON.parse(line) as HarnessAnswer & { ready?: boolean };
    if (answer.ready) ready?.();
    else waiting.shift()?.resolve(answer);
  });
  await started;

  let batch = 0;
  const harness: Harness = {
    ask(name, file) {
      if (exited) return Promise.reject(exited);
      const answer = new Promise<HarnessAnswer>((resolve, reject) => waiting.push({ resolve, reject }));
      child.stdin.write(`${name} ${file}\n`);
      return answer;
    },
    async withFiles(documents, use) {
      const dir = path.join(tmp, String(batch++));
      mkdirSync(dir);
      const files = documents.map((doc, i) => {
        const file = path.join(dir, `${i}.xml`);
        writeFileSync(file, doc);
        return file;
      });
      try {
        return await use(files);
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
  return harness;
}
