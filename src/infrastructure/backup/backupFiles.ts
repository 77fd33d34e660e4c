import { createHash, type Hash } from 'node:crypto';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip, type Gzip } from 'node:zlib';
import type { BackedUpFile } from './backupManifest.js';

/** Fast compression: a backup is written while the service runs, and JSON and XML shrink well even so. */
const LEVEL = 3;

/** A gzip file of a backup being written; its size and SHA-256 (of the file as stored) come with `finish`. */
export class CompressedFile {
  private readonly gzip: Gzip;
  private readonly out: WriteStream;
  private readonly hash = createHash('sha256');
  private bytes = 0;
  private readonly done: Promise<void>;

  private constructor(
    private readonly folder: string,
    private readonly name: string,
  ) {
    this.gzip = createGzip({ level: LEVEL });
    this.out = createWriteStream(path.join(folder, name), { flags: 'wx' });
    const tap = new Transform({
      transform: (chunk: Buffer, _encoding, next) => {
        this.hash.update(chunk);
        this.bytes += chunk.length;
        next(null, chunk);
      },
    });
    this.done = pipeline(this.gzip, tap, this.out);
  }

  static async create(folder: string, name: string): Promise<CompressedFile> {
    await mkdir(path.dirname(path.join(folder, name)), { recursive: true });
    return new CompressedFile(folder, name);
  }

  /** Waits while the compressor is behind. */
  async write(chunk: string | Uint8Array): Promise<void> {
    if (!this.gzip.write(chunk)) await new Promise<void>((resolve) => this.gzip.once('drain', resolve));
  }

  async finish(): Promise<BackedUpFile> {
    this.gzip.end();
    await this.done;
    return { file: this.name, bytes: this.bytes, sha256: this.hash.digest('hex') };
  }
}

/** A backup file's content, decompressed, checked against its manifest entry once read to the end. */
export function readChecked(folder: string, entry: BackedUpFile): { content: Readable; verified(): void } {
  const hash: Hash = createHash('sha256');
  let bytes = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, next) {
      hash.update(chunk);
      bytes += chunk.length;
      next(null, chunk);
    },
  });
  const gunzip = createGunzip();
  pipeline(createReadStream(path.join(folder, entry.file)), tap, gunzip).catch((error: unknown) =>
    gunzip.destroy(error as Error),
  );
  return {
    content: gunzip,
    verified: () => {
      const sha256 = hash.digest('hex');
      if (bytes !== entry.bytes || sha256 !== entry.sha256)
        throw new Error(
          `${entry.file} is damaged: ${bytes} bytes with SHA-256 ${sha256}, the manifest says ${entry.bytes} and ${entry.sha256}`,
        );
    },
  };
}

/** The lines of a decompressed stream. */
export function linesOf(content: Readable): AsyncIterable<string> {
  return createInterface({ input: content, crlfDelay: Infinity });
}

/** One blob record of the pack: its key, its size, its bytes. */
export function blobRecord(sha256: string, bytes: Uint8Array): Buffer[] {
  const head = Buffer.alloc(40);
  Buffer.from(sha256, 'hex').copy(head, 0);
  head.writeBigUInt64BE(BigInt(bytes.length), 32);
  return [head, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)];
}

/** The blob records of a decompressed pack, in order. */
export async function* blobRecords(content: Readable): AsyncIterable<{ sha256: string; bytes: Buffer }> {
  let buffered: Buffer[] = [];
  let length = 0;
  let need: { sha256: string; size: number } | null = null;
  const take = (n: number): Buffer => {
    const all = buffered.length === 1 ? buffered[0]! : Buffer.concat(buffered, length);
    buffered = n < all.length ? [all.subarray(n)] : [];
    length -= n;
    return all.subarray(0, n);
  };
  for await (const chunk of content as AsyncIterable<Buffer>) {
    buffered.push(chunk);
    length += chunk.length;
    for (;;) {
      if (need === null) {
        if (length < 40) break;
        const head = take(40);
        need = { sha256: head.subarray(0, 32).toString('hex'), size: Number(head.readBigUInt64BE(32)) };
      }
      if (length < need.size) break;
      yield { sha256: need.sha256, bytes: Buffer.from(take(need.size)) };
      need = null;
    }
  }
  if (need !== null || length > 0) throw new Error('the blob pack ends in the middle of a blob');
}
