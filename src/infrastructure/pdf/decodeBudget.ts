import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/*
 * A bound on the bytes the PDF reader's worker decompresses for one upload, over every stream
 * pdf-lib and pdfjs-dist decode (content streams, object streams, fonts, CMaps, embedded files),
 * however the filters are chained (Flate in Flate, LZW, RunLength, encrypted streams...).
 *
 * Why here: a few megabytes of FlateDecode can inflate to gigabytes, and decoded streams live in
 * ArrayBuffers, outside the V8 heap that the worker's resourceLimits cap. The libraries offer no
 * hook, so each is bounded where it allocates decoded bytes:
 * - pdf-lib (CommonJS): its DecodeStream.prototype.ensureBuffer, patched at run time;
 * - pdfjs-dist: the worker half of pdfjs (which runs in our thread, as its "fake worker") is
 *   loaded from its own file with DecodeStream's ensureBuffer charging the budget, and content
 *   streams and CMaps, which pdfjs 5 inflates with the global DecompressionStream (native zlib,
 *   not its own DecodeStream), get a DecompressionStream that stops at the budget.
 * Only this worker thread is affected: its globals are its own.
 *
 * Decoding stops at the first byte past the budget; the libraries may swallow the error (pdfjs
 * skips what it cannot read), so the budget remembers, and the reader refuses the file.
 * The worker reads one file at a time (pdfContentReader.ts), so one budget is current at a time.
 */

export class DecodeLimitExceeded extends Error {
  constructor(limit: number) {
    super(`decompressed streams exceed ${limit} bytes`);
    this.name = 'DecodeLimitExceeded';
  }
}

export class DecodeBudget {
  used = 0;
  exceeded = false;
  constructor(readonly limit: number) {}

  /** Bytes that may still be decoded. */
  get remaining(): number {
    return Math.max(0, this.limit - this.used);
  }

  /** Counts `bytes` more decoded bytes; past the limit, remembers it and throws. */
  charge(bytes: number): void {
    this.used += bytes;
    if (this.used > this.limit) {
      this.exceeded = true;
      throw new DecodeLimitExceeded(this.limit);
    }
  }
}

let current: DecodeBudget | null = null;

/** Runs one file's reading with `budget` charged for everything decoded meanwhile. */
export async function withDecodeBudget<T>(budget: DecodeBudget, read: () => Promise<T>): Promise<T> {
  if (current) throw new Error('the PDF reader reads one file at a time');
  current = budget;
  try {
    return await read();
  } finally {
    current = null;
  }
}

/** Outside a reading (there is none: decoding only happens while reading), nothing is decoded. */
const charge = (bytes: number): void => {
  if (!current) throw new Error('decoding outside a bounded reading');
  current.charge(bytes);
};

const require = createRequire(import.meta.url);

/** Charges the growth of a decode buffer: what it holds is at least half of what is charged. */
function boundPdfLib(): void {
  const { default: DecodeStream } = require('pdf-lib/cjs/core/streams/DecodeStream.js') as {
    default: {
      prototype: { buffer: Uint8Array; minBufferLength: number; ensureBuffer(requested: number): Uint8Array };
    };
  };
  DecodeStream.prototype.ensureBuffer = function ensureBuffer(requested: number): Uint8Array {
    const buffer = this.buffer;
    if (requested <= buffer.byteLength) return buffer;
    let size = this.minBufferLength;
    while (size < requested) size *= 2;
    charge(size - buffer.byteLength);
    const grown = new Uint8Array(size);
    grown.set(buffer);
    return (this.buffer = grown);
  };
}

/** The text replaced in pdfjs-dist's pdf.worker.mjs (5.x): a change there fails loudly, never silently unbounded. */
const PDFJS_PATCHES: Array<[string, string]> = [
  [
    'ensureBuffer(requested) {\n    const buffer = this.buffer;\n    if (requested <= buffer.byteLength) {\n      return buffer;\n    }\n    let size = this.minBufferLength;\n    while (size < requested) {\n      size *= 2;\n    }\n',
    'ensureBuffer(requested) {\n    const buffer = this.buffer;\n    if (requested <= buffer.byteLength) {\n      return buffer;\n    }\n    let size = this.minBufferLength;\n    while (size < requested) {\n      size *= 2;\n    }\n    globalThis.__pdfDecodeBudget(size - buffer.byteLength);\n',
  ],
  // Brotli's synchronous decoder produces its whole output at once: refused (Node 20 has no
  // brotli DecompressionStream, so pdfjs would use it for every BrotliDecode stream).
  [
    'readBlock() {\n    const bytes = this.stream.getBytes();\n    const decodedData = BrotliDecode(',
    'readBlock() {\n    throw new Error("BrotliDecode streams are not read in uploads");\n    const bytes = this.stream.getBytes();\n    const decodedData = BrotliDecode(',
  ],
];

async function boundPdfjs(): Promise<void> {
  const file = require.resolve('pdfjs-dist/legacy/build/pdf.worker.mjs');
  let source = readFileSync(file, 'utf8');
  for (const [from, to] of PDFJS_PATCHES) {
    const at = source.indexOf(from);
    if (at < 0 || source.indexOf(from, at + 1) >= 0)
      throw new Error(`pdfjs-dist's ${file} is not the one decodeBudget.ts patches: bound its decoding again`);
    source = source.slice(0, at) + to + source.slice(at + from.length);
  }
  (globalThis as Record<string, unknown>).__pdfDecodeBudget = charge;
  const worker = (await import(`data:text/javascript;base64,${Buffer.from(source).toString('base64')}`)) as {
    WorkerMessageHandler: unknown;
  };
  // pdf.mjs takes its "fake worker" from here rather than importing pdf.worker.mjs.
  (globalThis as Record<string, unknown>).pdfjsWorker = { WorkerMessageHandler: worker.WorkerMessageHandler };

  const Native = globalThis.DecompressionStream;
  /** A DecompressionStream whose output ends at the budget (pdfjs then reads a truncated stream, and the file is refused). */
  class BoundedDecompressionStream {
    readonly writable: WritableStream<BufferSource>;
    readonly readable: ReadableStream<Uint8Array>;
    constructor(format: CompressionFormat) {
      const inner = new Native(format);
      this.writable = inner.writable;
      const reader = inner.readable.getReader();
      this.readable = new ReadableStream<Uint8Array>(
        {
          async pull(controller) {
            const { done, value } = await reader.read();
            if (done) return controller.close();
            try {
              charge(value.byteLength);
              controller.enqueue(value);
            } catch {
              // Stops inflating: zlib waits for its output to be read, and nothing more is.
              controller.close();
              await reader.cancel().catch(() => {});
            }
          },
          cancel: (reason) => reader.cancel(reason),
        },
        { highWaterMark: 0 },
      );
    }
  }
  globalThis.DecompressionStream = BoundedDecompressionStream as unknown as typeof DecompressionStream;
}

let bounded: Promise<void> | null = null;

/** Installs the bounds, once per thread, before pdf-lib or pdfjs decode anything. */
export function boundDecoding(): Promise<void> {
  bounded ??= (async () => {
    boundPdfLib();
    await boundPdfjs();
  })();
  return bounded;
}
