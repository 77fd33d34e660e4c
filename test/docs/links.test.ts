import { expect } from 'chai';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { anchorsOf, documentationFiles, githubSlug, linksOf } from './markdown.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Each broken relative link or anchor of the files, as `file:line: target (why)`. */
async function brokenLinks(root: string, files: string[]): Promise<string[]> {
  const texts = new Map<string, string>();
  const textOf = async (file: string) => {
    if (!texts.has(file)) texts.set(file, await readFile(path.join(root, file), 'utf8'));
    return texts.get(file)!;
  };
  const broken: string[] = [];
  for (const file of files) {
    for (const { target, line } of linksOf(await textOf(file))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto: …
      const [rawPath, anchor] = target.split('#', 2) as [string, string | undefined];
      const linked = rawPath === '' ? file : path.normalize(path.join(path.dirname(file), decodeURI(rawPath)));
      const where = `${file}:${line}: ${target}`;
      if (linked.startsWith('..')) {
        broken.push(`${where} (outside the repository)`);
        continue;
      }
      const found = await stat(path.join(root, linked)).catch(() => null);
      if (!found) {
        broken.push(`${where} (no such file)`);
        continue;
      }
      if (anchor === undefined || anchor === '') continue;
      if (!linked.endsWith('.md')) {
        broken.push(`${where} (an anchor into a file that is not Markdown)`);
        continue;
      }
      if (!anchorsOf(await textOf(linked)).has(anchor)) broken.push(`${where} (no heading with that anchor)`);
    }
  }
  return broken;
}

/** Every relative link and anchor of README.md and docs/ leads somewhere, by GitHub's rules for anchors. */
describe('Documentation links: every relative link and anchor resolves', () => {
  it('makes anchors as GitHub does', () => {
    expect(githubSlug('AS4: sending and receiving over the Peppol network')).to.equal(
      'as4-sending-and-receiving-over-the-peppol-network',
    );
    expect(githubSlug('Peppol registration, SMP and lookup')).to.equal('peppol-registration-smp-and-lookup');
    expect(githubSlug('`DATA_DIR` and `PORT`')).to.equal('data_dir-and-port');
    expect(githubSlug('First invoice in five minutes')).to.equal('first-invoice-in-five-minutes');
    expect(githubSlug('What’s on (and off) by default?')).to.equal('whats-on-and-off-by-default');
    expect(githubSlug('Sending — and receiving')).to.equal('sending--and-receiving');
    expect([...anchorsOf('# A\n\n## Notes\n\n```sh\n# not a heading\n```\n\n## Notes\n')]).to.deep.equal([
      'a',
      'notes',
      'notes-1',
    ]);
  });

  it('finds a broken link, a missing file and a missing anchor', async () => {
    const { mkdtemp, writeFile, mkdir, rm } = await import('node:fs/promises');
    const os = await import('node:os');
    const dir = await mkdtemp(path.join(os.tmpdir(), 'links-'));
    try {
      await mkdir(path.join(dir, 'docs'));
      await writeFile(path.join(dir, 'docs/a.md'), '# Title\n\n## Part one\n');
      await writeFile(
        path.join(dir, 'README.md'),
        [
          '[ok](docs/a.md#part-one) [ok too](#readme)',
          '# Readme',
          '[gone](docs/b.md) [no anchor](docs/a.md#part-two)',
          '`[in code](docs/c.md)` [web](https://example.com/x#y)',
        ].join('\n'),
      );
      expect(await brokenLinks(dir, ['README.md', 'docs/a.md'])).to.deep.equal([
        'README.md:3: docs/b.md (no such file)',
        'README.md:3: docs/a.md#part-two (no heading with that anchor)',
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('README.md and docs/**/*.md have no broken relative link or anchor', async () => {
    const files = await documentationFiles(ROOT);
    expect(files.length).to.be.greaterThan(5);
    expect(await brokenLinks(ROOT, files)).to.deep.equal([]);
  });
});
