import { MessageChannel, Worker } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import type { EmbeddedFile, PdfContent, PdfReader, PdfUnreadableReason } from '../../application/documents/pdfPorts.js';
import { PdfUnreadable } from '../../application/documents/pdfPorts.js';
import { FairQueue } from '../fairness/fairQueue.js';
import { inject, injectable } from '../../application/injection.js';

/*
 * The service's PdfReader. The reading itself (pdfContentExtraction.ts) runs in a worker thread,
 * for two reasons:
 * - pdfjs-dist's Node build installs core-js polyfills on load that replace JSON.parse,
 *   JSON.stringify and Array.prototype.push with JavaScript versions (Node 20 lacks
 *   JSON.rawJSON). Loaded in the service's thread, they slowed every request and projection;
 *   a worker has built-ins of its own.
 * - Reading a long text layer takes hundreds of milliseconds of CPU, and a hostile file may ask
 *   for far more memory: in a worker it neither stalls the API nor can exhaust the service's heap.
 */

export interface PdfReaderLimits {
  /** Pages whose text is read; an invoice longer than this is read up to here. */
  maxPages: number;
  /** Largest embedded file we decompress, in bytes (a larger one is skipped). */
  maxEmbeddedBytes: number;
  /**
   * Every byte decompressed for one file (content streams, object streams, fonts, embedded files,
   * however the filters are chained), in bytes: past it the file is refused as too large. Decoded
   * streams live outside the worker's heap, which maxHeapMb caps.
   */
  maxDecodedBytes: number;
  /** Largest image (width × height) pdfjs would decode. Text extraction decodes none; a second guard. */
  maxImagePixels: number;
  /** Heap of the reader's worker; a file that needs more is refused as too large. */
  maxHeapMb: number;
  /** Time one file may take to read, in ms: past it the worker is ended (a new one reads the next file) and the file refused. */
  timeoutMs: number;
}

export const DEFAULT_PDF_READER_LIMITS: PdfReaderLimits = {
  maxPages: 200,
  maxEmbeddedBytes: 20 * 1024 * 1024,
  maxDecodedBytes: 100 * 1024 * 1024,
  maxImagePixels: 50_000_000,
  maxHeapMb: 512,
  timeoutMs: 20_000,
};

/**
 * A worker that decompressed more than this for one file is replaced after it: its ArrayBuffers
 * (outside the V8 heap) would otherwise stay with the process until the collector gets to them.
 */
const RECYCLE_AFTER_DECODED_BYTES = 32 * 1024 * 1024;

/** A request to the worker; `port` carries the conversation about this one file. */
export interface ReadRequest {
  bytes: Uint8Array;
  limits: PdfReaderLimits;
  port: MessagePort;
}

export type ReaderReply =
  | { kind: 'files'; files: EmbeddedFile[] }
  /** The content without its embedded files: those came with `files` already. */
  | { kind: 'content'; content: Omit<PdfContent, 'embeddedFiles'>; decodedBytes: number }
  | { kind: 'unreadable'; reason: PdfUnreadableReason; message: string }
  | { kind: 'failed'; message: string };

/** Buffers cross the thread boundary as plain Uint8Arrays. */
const asFile = (file: EmbeddedFile): EmbeddedFile => ({
  ...file,
  content: Buffer.from(file.content.buffer, file.content.byteOffset, file.content.byteLength),
});

type WantText = (embeddedFiles: EmbeddedFile[]) => boolean | Promise<boolean>;

/**
 * Files are read one at a time: the worker is one thread (reading two at once would not be
 * faster), and one file's decompression budget is counted at a time. Tenants take turns
 * (FairQueue), so one tenant's backlog of slow files delays another's by one file; a tenant may
 * have MAX_WAITING_PER_TENANT files waiting. The time budget runs from when the worker starts on a
 * file, not while it waits its turn.
 */
const MAX_WAITING_PER_TENANT = 8;

/** `PdfReaderLimits`: what reading one uploaded PDF may take. */
export const PDF_READER_LIMITS = Symbol('PdfReaderLimits');

@injectable()
export class PdfContentReader implements PdfReader {
  private worker: { thread: Worker; ready: Promise<void> } | null = null;
  /** How the read in progress fails if the worker dies under it. */
  private failCurrent: ((error: Error) => void) | null = null;
  private readonly waiting = new FairQueue<() => void>();
  /** A file is being read: one at a time. */
  private busy = false;

  constructor(@inject(PDF_READER_LIMITS) private readonly limits: PdfReaderLimits = DEFAULT_PDF_READER_LIMITS) {}

  read(bytes: Buffer, wantText: WantText = () => true, owner = { tenantId: '' }): Promise<PdfContent> {
    if (this.waiting.waiting(owner.tenantId) >= MAX_WAITING_PER_TENANT) {
      return Promise.reject(
        new PdfUnreadable('busy', 'Too many PDFs of this tenant are waiting to be read; try again shortly'),
      );
    }
    return new Promise<PdfContent>((resolve, reject) => {
      this.waiting.push(
        owner.tenantId,
        () =>
          void this.readNow(bytes, wantText)
            .then(resolve, reject)
            .finally(() => {
              this.waiting.idle(owner.tenantId);
              this.busy = false;
              this.next();
            }),
      );
      this.next();
    });
  }

  private next(): void {
    if (this.busy) return;
    const next = this.waiting.take();
    // An idle reader does not keep the process alive.
    if (!next) return void this.worker?.thread.unref();
    this.busy = true;
    next.item();
  }

  private async readNow(bytes: Buffer, wantText: WantText): Promise<PdfContent> {
    const { thread: worker, ready } = this.started();
    worker.ref();
    await ready;
    const { port1, port2 } = new MessageChannel();
    let embeddedFiles: EmbeddedFile[] = [];
    return new Promise<PdfContent>((resolve, reject) => {
      const timer = setTimeout(() => {
        // A worker busy in a loop answers nothing: it is ended, and the next file gets a new one.
        this.retire(worker);
        const seconds = this.limits.timeoutMs / 1000;
        fail(
          new PdfUnreadable(
            'timed_out',
            `Reading the PDF took longer than the ${seconds} s an upload may take; nothing was recorded`,
          ),
        );
      }, this.limits.timeoutMs);
      const end = () => {
        clearTimeout(timer);
        if (this.failCurrent === fail) this.failCurrent = null;
        port1.close();
      };
      const fail = (error: Error) => {
        end();
        reject(error);
      };
      this.failCurrent = fail;
      port1.on('message', (reply: ReaderReply) => {
        switch (reply.kind) {
          case 'files': {
            embeddedFiles = reply.files.map(asFile);
            Promise.resolve()
              .then(() => wantText(embeddedFiles))
              .then(
                (answer) => port1.postMessage({ wantText: answer === true }),
                (error: Error) => {
                  // Answered before failing (which closes the port), so the worker is never left waiting.
                  port1.postMessage({ wantText: false });
                  fail(error);
                },
              );
            return;
          }
          case 'content':
            if (reply.decodedBytes > RECYCLE_AFTER_DECODED_BYTES) this.retire(worker);
            end();
            resolve({ ...reply.content, embeddedFiles });
            return;
          case 'unreadable':
            // A file that hit a limit may have left the worker holding much memory: a new one reads the next.
            if (reply.reason === 'too_large') this.retire(worker);
            return fail(new PdfUnreadable(reply.reason, reply.message));
          case 'failed':
            this.retire(worker);
            return fail(new Error(`the PDF reader failed: ${reply.message}`));
        }
      });
      const copy = new Uint8Array(bytes);
      worker.postMessage({ bytes: copy, limits: this.limits, port: port2 } satisfies ReadRequest, [port2, copy.buffer]);
    });
  }

  private started(): { thread: Worker; ready: Promise<void> } {
    if (this.worker) return this.worker;
    const thread = new Worker(new URL('./pdfReaderWorker.js', import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: this.limits.maxHeapMb },
    });
    const ready = new Promise<void>((resolve, reject) => {
      thread.once('message', () => resolve());
      this.failCurrent = reject;
    });
    thread.on('error', (error) => this.died(thread, error));
    thread.on('exit', (code) => this.died(thread, new Error(`the PDF reader stopped (exit code ${code})`)));
    this.worker = { thread, ready };
    return this.worker;
  }

  /** Ends a worker (and the memory it holds); the next read starts a new one. */
  private retire(worker: Worker): void {
    if (this.worker?.thread === worker) this.worker = null;
    void worker.terminate();
  }

  /** The read in progress fails; the next read starts a new worker. */
  private died(worker: Worker, error: Error & { code?: string }): void {
    if (this.worker?.thread !== worker) return;
    this.worker = null;
    const outOfMemory = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
    this.failCurrent?.(
      outOfMemory
        ? new PdfUnreadable(
            'too_large',
            `The PDF needs more memory to read than the ${this.limits.maxHeapMb} MB an upload may use`,
          )
        : error,
    );
  }
}
