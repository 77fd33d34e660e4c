import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline, type Readable } from 'node:stream';
import { assertBlobKey, blobMediaType, type BlobRef, type BlobStore } from '../../application/ports/blobStore.js';
import { checkedBytes, checkingStream, sha256HexInTurns } from './blobDigest.js';

/**
 * Blobs as files under one folder (BLOB_DIR), for hosts that keep payloads on a disk or a shared
 * file system of their own: `<dir>/ab/cd/abcd…` (the hash's first two bytes fan the files out over
 * 65,536 folders, so no folder grows huge). Files are written to `<dir>/tmp/` first, flushed to
 * disk, then renamed into place: a reader sees a whole blob or none, and a blob whose put
 * returned survives a power cut. Blob files are read-only (0444): nothing here rewrites one in
 * place. Leftovers in tmp/ (a process killed mid-write) are garbage and may be removed when older
 * than any write could take.
 */
export class FsBlobStore implements BlobStore {
  private readonly tmpDir: string;

  /** `root` must exist with tmp/ in it (see `open`); a store built on a missing folder fails on first use. */
  constructor(private readonly root: string) {
    this.tmpDir = path.join(root, 'tmp');
  }

  /** The store in `root`, creating the folder (and its tmp/) when missing. */
  static async open(root: string): Promise<FsBlobStore> {
    const absolute = path.resolve(root);
    await mkdir(path.join(absolute, 'tmp'), { recursive: true });
    return new FsBlobStore(absolute);
  }

  async put(bytes: Uint8Array, options: { mediaType?: string } = {}): Promise<BlobRef> {
    const mediaType = blobMediaType(options.mediaType);
    const sha256 = await sha256HexInTurns(bytes);
    const ref = { sha256, size: bytes.length, mediaType };
    const file = this.pathOf(sha256);
    // Already there and intact: nothing to write. (Reading costs less than writing and flushing,
    // and a corrupted copy is replaced below.)
    if (await this.intact(file, sha256)) return ref;

    // A name of its own for each writer: concurrent puts of the same bytes each write a whole
    // file and rename it into place; the renames replace identical content atomically.
    const tmp = path.join(this.tmpDir, `${sha256}.${randomBytes(6).toString('hex')}`);
    try {
      const handle = await open(tmp, 'wx', 0o444);
      try {
        await handle.writeFile(bytes);
        await handle.sync();
      } finally {
        await handle.close();
      }
      const folder = path.dirname(file);
      const created = await mkdir(folder, { recursive: true });
      // New folders are entries in their parents: flushed too, or a crash could lose the path.
      if (created) for (const parent of [path.dirname(folder), this.root]) await syncFolder(parent);
      await rename(tmp, file);
      await syncFolder(folder);
    } catch (error) {
      await rm(tmp, { force: true });
      throw error;
    }
    return ref;
  }

  async get(sha256: string): Promise<Buffer | null> {
    assertBlobKey(sha256);
    const bytes = await readFile(this.pathOf(sha256)).catch(absentAsNull);
    return bytes ? await checkedBytes(sha256, bytes) : null;
  }

  async has(sha256: string): Promise<boolean> {
    assertBlobKey(sha256);
    const stats = await stat(this.pathOf(sha256)).catch(absentAsNull);
    return stats?.isFile() ?? false;
  }

  async stream(sha256: string): Promise<Readable | null> {
    assertBlobKey(sha256);
    const handle = await open(this.pathOf(sha256), 'r').catch(absentAsNull);
    if (!handle) return null;
    let size: number;
    try {
      size = (await handle.stat()).size;
    } catch (error) {
      await handle.close();
      throw error;
    }
    const checker = checkingStream(sha256, size);
    // An error on either side reaches the consumer through the checker; the file closes either way.
    pipeline(handle.createReadStream(), checker, () => undefined);
    return checker;
  }

  /** Every key stored, in no particular order (backups: scripts/backup.ts). Leftovers in tmp/ are not blobs. */
  async *keys(): AsyncIterable<string> {
    const fan = /^[0-9a-f]{2}$/;
    for (const first of (await readdir(this.root)).filter((name) => fan.test(name)).sort())
      for (const second of (await readdir(path.join(this.root, first))).filter((name) => fan.test(name)).sort())
        for (const name of await readdir(path.join(this.root, first, second)))
          if (/^[0-9a-f]{64}$/.test(name) && name.startsWith(first + second)) yield name;
  }

  /** Only ever called with a checked key, so the path stays inside the root. */
  private pathOf(sha256: string): string {
    return path.join(this.root, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
  }

  private async intact(file: string, sha256: string): Promise<boolean> {
    const bytes = await readFile(file).catch(absentAsNull);
    return bytes !== null && (await sha256HexInTurns(bytes)) === sha256;
  }
}

async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function absentAsNull(error: NodeJS.ErrnoException): null {
  if (error.code === 'ENOENT') return null;
  throw error;
}
