import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { BlobCorruptedError } from '../../application/ports/blobStore.js';

/** The key of `bytes`: their SHA-256 in lowercase hex. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** Bytes hashed per turn of the event loop. */
const HASH_SLICE = 1 << 20;

/**
 * sha256Hex for the service's own thread: a large payload (a 28,000-line document's UBL is 17 MB,
 * some 30 ms of hashing) is hashed a megabyte at a time, letting other requests in between, so
 * one tenant's large document does not hold up another's small one.
 */
export async function sha256HexInTurns(bytes: Uint8Array): Promise<string> {
  if (bytes.length <= HASH_SLICE) return sha256Hex(bytes);
  const hash = createHash('sha256');
  for (let at = 0; at < bytes.length; at += HASH_SLICE) {
    hash.update(bytes.subarray(at, at + HASH_SLICE));
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return hash.digest('hex');
}

/**
 * `bytes` as read back from storage, if they still hash to `sha256`; otherwise a
 * BlobCorruptedError. Hashing costs a few ms per MB, less than reading them did, and is the only
 * check that covers every way a copy can go wrong (disk, hand edits, a bug in an adapter).
 */
export async function checkedBytes(sha256: string, bytes: Buffer): Promise<Buffer> {
  const actual = await sha256HexInTurns(bytes);
  if (actual !== sha256) throw new BlobCorruptedError(sha256, `hashes to ${actual} (${bytes.length} bytes)`);
  return bytes;
}

/**
 * A pass-through that hashes what flows through it and, at the end, fails with a
 * BlobCorruptedError instead of ending when the bytes do not hash to `sha256` (or are not the
 * `expectedSize` the store announced). The bytes have already gone on by then: what a consumer
 * must not do is take them as complete before the stream ended.
 */
export function checkingStream(sha256: string, expectedSize?: number): Transform {
  const hash = createHash('sha256');
  let size = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      hash.update(chunk);
      size += chunk.length;
      callback(null, chunk);
    },
    flush(callback: TransformCallback) {
      const actual = hash.digest('hex');
      if (actual !== sha256) return callback(new BlobCorruptedError(sha256, `hashes to ${actual} (${size} bytes)`));
      if (expectedSize !== undefined && size !== expectedSize) {
        return callback(new BlobCorruptedError(sha256, `gave ${size} bytes where the store announced ${expectedSize}`));
      }
      callback();
    },
  });
}
