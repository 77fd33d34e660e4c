import { MessageChannel, Worker } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import type { EmbeddedFile, PdfContent, PdfReader, PdfUnreadableReason } from '../../application/documents/pdfPorts.js';
import { PdfUnreadable } from '../../application/documents/pdfPorts.js';

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
  /** Largest embedded file we decompress, in bytes. */
  maxEmbeddedBytes: number;
  /** Heap of the reader's worker; a file that needs more is refused as too large. */
  maxHeapMb: number;
}

export const DEFAULT_PDF_READER_LIMITS: PdfReaderLimits = { maxPages: 200, maxEmbeddedBytes: 20 * 1024 * 1024, maxHeapMb: 512 };

/** A request to the worker; `port` carries the conversation about this one file. */
export interface ReadRequest {
  bytes: Uint8Array;
  limits: PdfReaderLimits;
  port: MessagePort;
}

export type ReaderReply =
  | { kind: 'files'; files: EmbeddedFile[] }
  /** The content without its embedded files: those came with `files` already. */
  | { kind: 'content'; content: Omit<PdfContent, 'embeddedFiles'> }
  | { kind: 'unreadable'; reason: PdfUnreadableReason; message: string }
  | { kind: 'failed'; message: string };

/** Buffers cross the thread boundary as plain Uint8Arrays. */
const asFile = (file: EmbeddedFile): EmbeddedFile => ({ ...file, content: Buffer.from(file.content.buffer, file.content.byteOffset, file.content.byteLength) });

export class PdfContentReader implements PdfReader {
  private worker: Worker | null = null;
  /** How each read in progress fails if the worker dies under it. */
  private readonly inProgress = new Set<(error: Error) => void>();

  constructor(private readonly limits: PdfReaderLimits = DEFAULT_PDF_READER_LIMITS) {}

  read(bytes: Buffer, wantText: (embeddedFiles: EmbeddedFile[]) => boolean | Promise<boolean> = () => true): Promise<PdfContent> {
    const worker = this.started();
    const { port1, port2 } = new MessageChannel();
    let embeddedFiles: EmbeddedFile[] = [];
    return new Promise<PdfContent>((resolve, reject) => {
      const end = () => {
        this.inProgress.delete(fail);
        port1.close();
        // An idle reader does not keep the process alive.
        if (this.inProgress.size === 0) worker.unref();
      };
      const fail = (error: Error) => {
        end();
        reject(error);
      };
      this.inProgress.add(fail);
      worker.ref();
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
            end();
            resolve({ ...reply.content, embeddedFiles });
            return;
          case 'unreadable':
            return fail(new PdfUnreadable(reply.reason, reply.message));
          case 'failed':
            return fail(new Error(`the PDF reader failed: ${reply.message}`));
        }
      });
      const copy = new Uint8Array(bytes);
      worker.postMessage({ bytes: copy, limits: this.limits, port: port2 } satisfies ReadRequest, [port2, copy.buffer]);
    });
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(new URL('./pdfReaderWorker.js', import.meta.url), { resourceLimits: { maxOldGenerationSizeMb: this.limits.maxHeapMb } });
    worker.on('error', (error) => this.died(worker, error));
    worker.on('exit', (code) => this.died(worker, new Error(`the PDF reader stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }

  /** Reads in progress fail; the next read starts a new worker. */
  private died(worker: Worker, error: Error & { code?: string }): void {
    if (this.worker !== worker) return;
    this.worker = null;
    const outOfMemory = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
    for (const fail of [...this.inProgress]) {
      fail(outOfMemory ? new PdfUnreadable('too_large', 'The PDF needs more memory to read than an upload is allowed') : error);
    }
  }
}
