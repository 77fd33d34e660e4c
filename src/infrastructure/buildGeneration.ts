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

// This compiled file is <generation>/src/infrastructure/buildGeneration.js.
const GENERATION_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The generation this process's code comes from; null from a developer's bare `tsc` output (dist/), which has no BUILD.json. */
export function buildGeneration(): Omit<BuildGeneration, 'held'> | null {
  try {
    const build = JSON.parse(readFileSync(path.join(GENERATION_DIR, 'BUILD.json'), 'utf8')) as { built_at?: string };
    return { id: path.basename(GENERATION_DIR), builtAt: build.built_at ?? null };
  } catch {
    return null;
  }
}

/**
 * Records in build/running/<pid> that this process runs from its generation, so that no later
 * build removes the files it, its task workers and its console still load; the record goes at
 * exit (a killed process's is cleared by the next build). Null outside a generation.
 */
export function holdBuildGeneration(): BuildGeneration | null {
  const generation = buildGeneration();
  if (!generation) return null;
  const record = path.join(path.dirname(GENERATION_DIR), 'running', String(process.pid));
  try {
    mkdirSync(path.dirname(record), { recursive: true });
    writeFileSync(record, generation.id);
    process.on('exit', () => rmSync(record, { force: true }));
    return { ...generation, held: true };
  } catch {
    return { ...generation, held: false };
  }
}
