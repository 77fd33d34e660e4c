import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { As4Failure } from './as4Failure.js';

const gzip = promisify(zlib.gzip);
const gunzip = promisify(zlib.gunzip);

/** gzip, as the AS4 compression feature (CompressionType application/gzip) requires. Off the event loop. */
export const compressPayload = (payload: Buffer): Promise<Buffer> => gzip(payload);

/**
 * Decompresses a received payload, refusing to produce more than `maxBytes`: a few kB of gzip can
 * expand to gigabytes, so zlib is told to stop at the limit rather than the result being measured
 * after the fact. Corrupt data and oversize output are both EBMS:0303 DecompressionFailure.
 */
export async function decompressPayload(compressed: Buffer, maxBytes: number): Promise<Buffer> {
  try {
    return await gunzip(compressed, { maxOutputLength: maxBytes });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ERR_BUFFER_TOO_LARGE')
      throw new As4Failure('decompressionFailure', `the payload decompresses to more than ${maxBytes} bytes`);
    throw new As4Failure('decompressionFailure', `the payload is not valid gzip: ${(error as Error).message}`);
  }
}
