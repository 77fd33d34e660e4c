import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The checkout: the first folder above this compiled file that holds package.json. Tests and
 * scripts run from a developer's tsc output (dist/) or from a build generation (build/<id>/, see
 * scripts/build/generations.mjs), at different depths; fixtures, the harnesses and ../shared are
 * found from here.
 */
export const repoRoot = ((): string => {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`package.json not found above ${fileURLToPath(import.meta.url)}`);
    dir = up;
  }
  return dir;
})();
