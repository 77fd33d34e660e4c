import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { As4Failure } from './as4Failure.js';

const gzip = promisify(zlib.gzip);
const gunzip = promisify(zlib.gunzip);

/**
 * Below this, (de)compression runs on the calling thread: for a typical invoice it takes tens of
 * microseconds, less than handing it to the thread pool and back costs. Larger payloads go there.
 */
const INLINE_BYTES = 128 * 1024;

/** gzip, as the AS4 compression feature (CompressionType application/gzip) requires. */
export const compressPayload = async (payload: Buffer): Promise<Buffer> =>
  payload.length <= INLINE_BYTES ? zlib.gzipSync(payload) : gzip(payload);

/**
 * Decompresses a received payload, refusing to produce more than `maxBytes`: a few kB of gzip can
 * expand to gigabytes, so zlib is told to stop at the limit rather than the result being measured
 * after the fact. A small input is tried inline with its output bounded by INLINE_BYTES; one that
 * expands further is decompressed again in the thread pool, bounded by `maxBytes`. Corrupt data and
 * oversize output are both EBMS:0303 DecompressionFailure.
 */
export async function decompressPayload(compressed: Buffer, maxBytes: number): Promise<Buffer> {
  try {
    if (compressed.length <= INLINE_BYTES / 8) {
      try {
        return zlib.gunzipSync(compressed, { maxOutputLength: Math.min(maxBytes, INLINE_BYTES) });
      } catch (error) {
        // More than the inline share: the whole of it, bounded by maxBytes, off the event loop.
        if ((error as NodeJS.ErrnoException).code !== 'ERR_BUFFER_TOO_LARGE' || maxBytes <= INLINE_BYTES) throw error;
      }
    }
    return await gunzip(compressed, { maxOutputLength: maxBytes });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ERR_BUFFER_TOO_LARGE')
      throw new As4Failure('decompressionFailure', `the payload decompresses to more than ${maxBytes} bytes`);
    throw new As4Failure('decompressionFailure', `the payload is not valid gzip: ${(error as Error).message}`);
  }
}
