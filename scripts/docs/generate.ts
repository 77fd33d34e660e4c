import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatedDocuments } from './generatedDocuments.js';

/**
 * `npm run docs:generate`: writes the documents generated from the code (the configuration
 * reference, the events catalogue). `--check` writes nothing and fails when a file differs from
 * what the code gives (test/docs/generatedDocs.test.ts does the same in `npm test`).
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const check = process.argv.includes('--check');
let stale = 0;
for (const { file, text } of await generatedDocuments(ROOT)) {
  const target = path.join(ROOT, file);
  const current = await readFile(target, 'utf8').catch(() => null);
  if (current === text) continue;
  if (check) {
    console.error(`${file} is not what the code gives: run npm run docs:generate`);
    stale++;
  } else {
    await writeFile(target, text);
    console.log(`wrote ${file}`);
  }
}
process.exitCode = stale > 0 ? 1 : 0;
