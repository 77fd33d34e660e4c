import { parentPort } from 'node:worker_threads';
import { PdfUnreadable } from '../../application/documents/pdfPorts.js';
import type { EmbeddedFile } from '../../application/documents/pdfPorts.js';
import { boundDecoding } from './decodeBudget.js';
import { extractPdfContent } from './pdfContentExtraction.js';
import type { ReaderReply, ReadRequest } from './pdfContentReader.js';

/*
 * The PDF reader's worker thread: pdfjs-dist lives here and only here (pdfContentReader.ts says
 * why). Each request brings its own port; the reply to "which files are embedded?" decides
 * whether the pages' text is read. The reader sends one request at a time (decodeBudget.ts
 * counts one file's decompression at a time).
 */
parentPort!.on('message', ({ bytes, limits, port }: ReadRequest) => {
  const reply = (message: ReaderReply) => port.postMessage(message);
  const wantText = (files: EmbeddedFile[]) =>
    new Promise<boolean>((resolve) => {
      port.once('message', (answer: { wantText: boolean }) => resolve(answer.wantText));
      reply({ kind: 'files', files });
    });
  extractPdfContent(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), limits, wantText)
    .then(({ content: { embeddedFiles: _sentWithFiles, ...content }, decodedBytes }) =>
      reply({ kind: 'content', content, decodedBytes }),
    )
    .catch((error: unknown) =>
      reply(
        error instanceof PdfUnreadable
          ? { kind: 'unreadable', reason: error.reason, message: error.message }
          : { kind: 'failed', message: (error as Error)?.message ?? String(error) },
      ),
    )
    .finally(() => port.close());
});
// Loading pdfjs (bounded) is not part of any file's time budget: the reader waits for this.
await boundDecoding();
parentPort!.postMessage('ready');
