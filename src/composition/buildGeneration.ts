import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The build generation a process runs from (scripts/build/generations.mjs lays them out). */
export interface BuildGeneration {
  /** build/<id>/ */
  id: string;
  builtAt: string | null;
  /** Whether the hold could be recorded (a read-only checkout cannot: see docs/operating/production.md). */
  held: boolean;
}

/**
 * Records in build/running/<pid> that this process runs from its generation, so that no later
 * build removes the files it, its task workers and its console still load; the record goes at
 * exit (a killed process's is cleared by the next build). Null when this runs from a developer's
 * bare `tsc` output (dist/), which has no BUILD.json and no generations.
 */
export function holdBuildGeneration(): BuildGeneration | null {
  // This compiled file is <generation>/src/composition/buildGeneration.js.
  const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
  let build: { built_at?: string };
  try {
    build = JSON.parse(readFileSync(path.join(dir, 'BUILD.json'), 'utf8')) as { built_at?: string };
  } catch {
    return null;
  }
  const id = path.basename(dir);
  const record = path.join(path.dirname(dir), 'running', String(process.pid));
  let held = true;
  try {
    mkdirSync(path.dirname(record), { recursive: true });
    writeFileSync(record, id);
    process.on('exit', () => rmSync(record, { force: true }));
  } catch {
    held = false;
  }
  return { id, builtAt: build.built_at ?? null, held };
}
