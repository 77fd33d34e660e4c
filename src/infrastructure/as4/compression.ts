import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { As4Failure } from './as4Failure.js';

const gzip = promisify(zlib.gzip);
const gunzip = promisify(zlib.gunzip);

/**
 * Below this, (de)compression runs on the calling thread: for a typical invoice it takes tens of
 * microseconds, less than handing it to the thread pool and back costs. Larger payloads go there.
 * Which thread does the work changes no result: the mutation run leaves these choices out (the
 * `Stryker disable` comments), and the tests check the results both ways.
 */
// Stryker disable next-line ArithmeticOperator: which thread does the work, not what it gives
const INLINE_BYTES = 128 * 1024;

/** gzip, as the AS4 compression feature (CompressionType application/gzip) requires. */
export const compressPayload = async (payload: Buffer): Promise<Buffer> =>
  // Stryker disable next-line ConditionalExpression,EqualityOperator: which thread does the work, not what it gives
  payload.length <= INLINE_BYTES ? zlib.gzipSync(payload) : gzip(payload);

/**
 * Decompresses a received payload, refusing to produce more than `maxBytes`: a few kB of gzip can
 * expand to gigabytes, so zlib is told to stop at the limit rather than the result being measured
 * after the fact. A small input is first tried inline, bounded by the inline share as well; when
 * that gives nothing (it expands further, or it is not gzip), the thread pool decompresses it
 * whole, bounded by `maxBytes`, and its answer is the answer. Corrupt data and oversize output are
 * both EBMS:0303 DecompressionFailure.
 */
export async function decompressPayload(compressed: Buffer, maxBytes: number): Promise<Buffer> {
  try {
    const inline =
      // Stryker disable next-line ConditionalExpression,EqualityOperator,ArithmeticOperator: which thread does the work, not what it gives
      compressed.length <= INLINE_BYTES / 8 ? gunzipOrNull(compressed, Math.min(maxBytes, INLINE_BYTES)) : null;
    return inline ?? (await gunzip(compressed, { maxOutputLength: maxBytes }));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ERR_BUFFER_TOO_LARGE')
      throw new As4Failure('decompressionFailure', `the payload decompresses to more than ${maxBytes} bytes`);
    throw new As4Failure('decompressionFailure', `the payload is not valid gzip: ${(error as Error).message}`);
  }
}

// Stryker disable BlockStatement: an emptied block answers undefined, which `??` takes as null: the thread pool does the work and gives the same answer
/** zlib's gunzip bounded by `maxBytes`, or null when it refuses (then the thread pool tries). */
function gunzipOrNull(compressed: Buffer, maxBytes: number): Buffer | null {
  try {
    return zlib.gunzipSync(compressed, { maxOutputLength: maxBytes });
  } catch {
    return null;
  }
}
// Stryker restore BlockStatement
