import { readdir } from 'node:fs/promises';
import path from 'node:path';

/** README.md and every Markdown file under docs/, relative to the root. */
export async function documentationFiles(root: string): Promise<string[]> {
  const walk = async (dir: string): Promise<string[]> => {
    const entries = await readdir(path.join(root, dir), { withFileTypes: true });
    const nested = await Promise.all(
      entries.map((e) =>
        e.isDirectory()
          ? walk(path.join(dir, e.name))
          : Promise.resolve(e.name.endsWith('.md') ? [path.join(dir, e.name)] : []),
      ),
    );
    return nested.flat();
  };
  return ['README.md', ...(await walk('docs')).sort()];
}

/** The text with fenced code blocks blanked out (line numbers kept): links and headings in code are not links or headings. */
export function withoutCode(text: string): string {
  const lines = text.split('\n');
  let fence: string | null = null;
  return lines
    .map((line) => {
      const opening = /^\s*(```+|~~~+)/.exec(line);
      if (fence === null && opening) {
        fence = opening[1]!;
        return '';
      }
      if (fence !== null) {
        if (line.trim().startsWith(fence)) fence = null;
        return '';
      }
      return line.replace(/`[^`\n]*`/g, (code) => ' '.repeat(code.length));
    })
    .join('\n');
}

/** Fenced code blocks: their info string and their text. */
export function fencedBlocks(text: string): Array<{ info: string; body: string; line: number }> {
  const blocks: Array<{ info: string; body: string; line: number }> = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const opening = /^(```+)\s*([\w-]*)/.exec(lines[i]!);
    if (!opening) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !lines[i]!.startsWith(opening[1]!); i++) body.push(lines[i]!);
    blocks.push({ info: opening[2] ?? '', body: body.join('\n'), line: start + 1 });
  }
  return blocks;
}

/** Links and images (`[text](target)`, `![alt](target)`) outside code, with their lines. */
export function linksOf(text: string): Array<{ target: string; line: number }> {
  const clean = withoutCode(text);
  const found: Array<{ target: string; line: number }> = [];
  for (const match of clean.matchAll(/!?\[(?:[^\]\n]|\][^(])*?\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    found.push({ target: match[1]!, line: clean.slice(0, match.index).split('\n').length });
  }
  for (const match of clean.matchAll(/^\s*\[[^\]]+\]:\s+(\S+)/gm)) {
    found.push({ target: match[1]!, line: clean.slice(0, match.index).split('\n').length });
  }
  return found;
}

/**
 * A heading's anchor as GitHub makes it (github-slugger): the rendered text in lower case,
 * punctuation and symbols removed (letters, digits, marks, `_`, `-` and spaces kept), spaces as `-`.
 */
export function githubSlug(heading: string): string {
  const rendered = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/`/g, '')
    .replace(/\*\*|\*/g, '')
    .trim();
  return rendered
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors a file offers: its headings' (repeats numbered -1, -2 … as GitHub does) and explicit ids. */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | null = null;
  for (const line of text.split('\n')) {
    const marker = /^\s*(```+|~~~+)/.exec(line);
    if (marker && (fence === null || line.trim().startsWith(fence))) {
      fence = fence === null ? marker[1]! : null;
      continue;
    }
    const heading = fence === null && /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = githubSlug(heading[1]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  for (const match of text.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(match[1]!);
  return anchors;
}
