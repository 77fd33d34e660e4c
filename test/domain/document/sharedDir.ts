import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '../../support/repoRoot.js';

/** ../shared next to the repository, or SHARED_DIR. */
export const sharedDir = (): string => process.env.SHARED_DIR ?? path.resolve(repoRoot, '..', 'shared');

export const examplesDir = (): string => path.join(sharedDir(), 'conformance', 'examples');

export interface ExampleRow {
  path: string;
  root: 'Invoice' | 'CreditNote' | string;
  xsdValid: boolean;
  cenFatal: string[];
  peppolFatal: string[];
}

/** EXPECTED.tsv, or null when the shared folder is absent (fatal on CI, where it must be present). */
export const expectedExamples = (): ExampleRow[] | null => {
  const file = path.join(examplesDir(), 'EXPECTED.tsv');
  if (!fs.existsSync(file)) {
    if (process.env.CI === 'true') throw new Error(`conformance examples missing at ${file} (required when CI=true)`);
    return null;
  }
  const ids = (s: string | undefined) => (!s || s === '-' ? [] : s.split(','));
  return fs
    .readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split('\t'))
    .map((c) => ({ path: c[0]!, root: c[1]!, xsdValid: c[2] === 'yes', cenFatal: ids(c[3]), peppolFatal: ids(c[5]) }));
};

export const readExample = (rel: string): string => fs.readFileSync(path.join(examplesDir(), rel), 'utf8');
