import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/** One read of the environment found in a source file. */
export interface EnvRead {
  file: string;
  line: number;
  /** The variable's name; null when the code computes it (`env[name]`), which the scan cannot follow. */
  name: string | null;
  text: string;
}

const PATTERNS: Array<{ regex: RegExp; group: number | null }> = [
  // env.NAME, process.env.NAME, options.env?.NAME
  { regex: /\benv\??\.([A-Za-z_][A-Za-z0-9_]*)/g, group: 1 },
  // env['NAME'], process.env["NAME"]
  { regex: /\benv\[\s*(['"`])([^'"`]+)\1\s*\]/g, group: 2 },
  // a helper given the environment and a name: integer(env, 'NAME', …)
  { regex: /\(\s*(?:process\.)?env\s*,\s*['"`]([A-Za-z_][A-Za-z0-9_]*)['"`]/g, group: 1 },
  // env[name]: a computed name
  { regex: /\benv\[\s*(?!['"`])[^\]]+\]/g, group: null },
];

/** Every read of the environment in a text (names that start with a lower-case letter are object fields, not variables). */
export function envReadsIn(file: string, text: string): EnvRead[] {
  const reads: EnvRead[] = [];
  for (const { regex, group } of PATTERNS) {
    for (const match of text.matchAll(regex)) {
      const name = group === null ? null : match[group]!;
      if (name !== null && !/^[A-Z]/.test(name)) continue;
      const line = text.slice(0, match.index).split('\n').length;
      reads.push({ file, line, name, text: match[0] });
    }
  }
  return reads;
}

export async function tsFilesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return tsFilesUnder(full);
      return Promise.resolve(entry.name.endsWith('.ts') || entry.name.endsWith('.tsx') ? [full] : []);
    }),
  );
  return nested.flat();
}

/** The files of src/ and their text, but for `except` (the settings' own reader). */
export async function sourcesOf(root: string, except: string): Promise<Array<{ file: string; text: string }>> {
  const files = (await tsFilesUnder(path.join(root, 'src'))).filter((f) => !f.startsWith(path.join(root, except)));
  return Promise.all(
    files.map(async (file) => ({ file: path.relative(root, file), text: await readFile(file, 'utf8') })),
  );
}
