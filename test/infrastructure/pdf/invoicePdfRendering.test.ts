import { Worker } from 'node:worker_threads';
import { expect } from 'chai';
import { rowsOfPages } from '../../../src/domain/document/pdf-text/textLayout.js';
import { PdfmakeRenderer, renderDocumentPdf, renderTaskOf } from '../../../src/infrastructure/pdf/invoicePdf.js';
import type { PdfRenderTask } from '../../../src/infrastructure/pdf/invoicePdf.js';
import { PdfContentReader } from '../../../src/infrastructure/pdf/pdfContentReader.js';
import { checked, longInvoice } from '../../support/pdfSamples.js';
import { readEmbeddedDocument } from '../../../src/infrastructure/xml/embeddedXml.js';

const reader = new PdfContentReader();
const textOf = async (pdf: Uint8Array) =>
  rowsOfPages((await reader.read(Buffer.from(pdf), () => true)).pages).map((r) => r.text);

/** Runs renderDocumentPdf in a worker thread of its own, as a worker pool would: the task is structured-cloned in, the PDF transferred out. */
function renderInWorker(task: PdfRenderTask): Promise<Uint8Array> {
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    import(workerData.module)
      .then((m) => m.renderDocumentPdf(workerData.task))
      .then((pdf) => parentPort.postMessage(pdf, [pdf.buffer]));
  `;
  const module = new URL('../../../src/infrastructure/pdf/invoicePdf.js', import.meta.url).href;
  return new Promise((resolve, reject) => {
    const worker = new Worker(code, { eval: true, workerData: { module, task } });
    worker.once('message', (pdf: Uint8Array) => {
      resolve(pdf);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
}

describe('Rendering off the event loop: renderDocumentPdf', function () {
  this.timeout(120_000);

  it('renders in a worker thread from structured-clone-safe input (DocumentJson, Uint8Arrays) what the PdfRenderer renders here', async () => {
    const check = checked(longInvoice(30));
    const embed = [{ fileName: 'invoice.xml', mimeType: 'application/xml', content: Buffer.from(check.ubl) }];
    const task = renderTaskOf(check.document, embed);
    // Nothing in the task is lost in a structured clone (Decimals and Buffers would be).
    expect(structuredClone(task)).to.deep.equal(task);
    const pdf = await renderInWorker(task);
    expect(pdf).to.be.instanceOf(Uint8Array);
    expect(Buffer.from(pdf.subarray(0, 5)).toString()).to.equal('%PDF-');
    const here = await new PdfmakeRenderer().render(check.document, embed);
    expect(await textOf(pdf)).to.deep.equal(await textOf(here));
    const content = await reader.read(Buffer.from(pdf), () => false);
    expect(readEmbeddedDocument(content.embeddedFiles).found!.xml).to.equal(check.ubl);
  });

  it('takes time linear in the number of lines (20, 200, 2,000 lines: far from quadratic)', async () => {
    const tasks = [20, 200, 2000].map((lines) => {
      const check = checked(longInvoice(lines));
      return renderTaskOf(check.document, []);
    });
    /** Best of `runs`: noise from other processes on the machine only ever adds time, so the minimum is the least disturbed measure. */
    const best = async (task: PdfRenderTask, runs: number) => {
      let min = Infinity;
      for (let i = 0; i < runs; i++) {
        const started = performance.now();
        await renderDocumentPdf(task);
        min = Math.min(min, performance.now() - started);
      }
      return min;
    };
    await best(tasks[0]!, 2); // fonts loaded, code warm
    const [, ten, hundred] = [await best(tasks[0]!, 5), await best(tasks[1]!, 5), await best(tasks[2]!, 3)];
    // Linear growth gives about 10 from 200 to 2,000 lines (measured: 7 to 9), quadratic about 100.
    // 30 leaves room for a machine that is three times slower during all three 2,000-line runs and
    // not during the best of the five 200-line runs; a quadratic step would still exceed it.
    expect(hundred / ten, `200 lines: ${ten.toFixed(0)} ms, 2,000 lines: ${hundred.toFixed(0)} ms`).to.be.below(30);
  });
});
