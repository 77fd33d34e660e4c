import { expect } from 'chai';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { InvalidBlobKeyError } from '../../../src/application/ports/blobStore.js';
import { FsBlobStore } from '../../../src/infrastructure/blobs/fsBlobStore.js';
import { blobStoreContract } from '../../contracts/blobStoreContract.js';

const blobPath = (root: string, sha256: string) => path.join(root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);

/** Every file under `folder`, as paths relative to it. */
async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)));
}

blobStoreContract('filesystem', async () => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'blobs-'));
  return {
    store: await FsBlobStore.open(root),
    corrupt: async (sha256) => {
      const file = blobPath(root, sha256);
      const bytes = await readFile(file);
      bytes[0] = bytes[0]! ^ 1;
      await chmod(file, 0o644);
      await writeFile(file, bytes);
    },
    count: async () => (await filesUnder(root)).filter((file) => !file.startsWith(`tmp${path.sep}`)).length,
    leftovers: () => readdir(path.join(root, 'tmp')),
    // Below a regular file, no path can be opened (ENOTDIR).
    unreachable: () => new FsBlobStore('/dev/null/blobs'),
    dispose: () => rm(root, { recursive: true, force: true }),
  };
});

describe('Filesystem blob store', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'blobs-'));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('creates its folder, and files each blob read-only under ab/cd/<hash>', async () => {
    const store = await FsBlobStore.open(path.join(root, 'new', 'store'));
    const ref = await store.put(Buffer.from('%PDF-1.7'));
    const file = blobPath(path.join(root, 'new', 'store'), ref.sha256);
    expect(await readFile(file, 'utf8')).to.equal('%PDF-1.7');
    expect((await stat(file)).mode & 0o777).to.equal(0o444);
    expect(await readdir(path.join(root, 'new', 'store', 'tmp'))).to.deep.equal([]);
  });

  it('never turns a key into a path outside its folder', async () => {
    // Files a naive join of these keys would reach.
    await writeFile(path.join(root, 'secret'), 'not a blob');
    const store = await FsBlobStore.open(path.join(root, 'store'));
    await mkdir(path.join(root, 'store', 'ab', 'cd'), { recursive: true });
    for (const key of [
      '../../etc/passwd',
      '../secret',
      '../../../secret',
      `ab/cd/../../../secret`,
      '/etc/passwd',
      `..${path.sep}secret`,
    ]) {
      for (const call of [() => store.get(key), () => store.has(key), () => store.stream(key)]) {
        const error = await call().then(
          () => null,
          (e: unknown) => e,
        );
        expect(error, key).to.be.instanceOf(InvalidBlobKeyError);
      }
    }
  });

  it('takes a truncated file for corrupted, not for a shorter blob', async () => {
    const store = await FsBlobStore.open(root);
    const ref = await store.put(Buffer.from('0123456789'));
    const file = blobPath(root, ref.sha256);
    await chmod(file, 0o644);
    await writeFile(file, '01234');
    expect(
      await store.get(ref.sha256).then(
        () => 'returned',
        (e: Error) => e.name,
      ),
    ).to.equal('BlobCorruptedError');
  });

  it('lets a put fail cleanly when the folder cannot take the file, leaving no temporary file', async () => {
    const store = await FsBlobStore.open(root);
    const bytes = Buffer.from('attachment');
    const { createHash } = await import('node:crypto');
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    // A file where the blob's folder must go.
    await writeFile(path.join(root, sha256.slice(0, 2)), 'in the way');
    const error = await store.put(bytes).then(
      () => null,
      (e: NodeJS.ErrnoException) => e,
    );
    expect(error?.code).to.be.oneOf(['ENOTDIR', 'EEXIST']);
    expect(await readdir(path.join(root, 'tmp'))).to.deep.equal([]);
  });
});
