import zlib from 'node:zlib';
import { expect } from 'chai';
import { PdfUnreadable } from '../../../src/application/documents/pdfPorts.js';
import type { PdfContent } from '../../../src/application/documents/pdfPorts.js';
import { DEFAULT_PDF_READER_LIMITS, PdfContentReader } from '../../../src/infrastructure/pdf/pdfContentReader.js';
import {
  contentStreamBomb,
  embeddedFileBomb,
  hugeImage,
  manyPages,
  zerosDeflated,
  zerosDeflatedTwice,
} from '../../support/pdfBombs.js';
import { pdfFixture } from '../../support/pdfFiles.js';

const MB = 1024 * 1024;
const GiB = 1024 * MB;

/** The outcome of a read, and the highest resident memory of the process (worker included) while it ran. */
async function readWatched(
  reader: PdfContentReader,
  pdf: Buffer,
): Promise<{ result: PdfContent | PdfUnreadable | Error; peakRssGrowth: number; baseline: number }> {
  global.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  // The reading runs in the worker: this thread is free to sample.
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  try {
    const result = await reader.read(pdf).catch((error: Error) => error);
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, peakRssGrowth: peak - baseline, baseline };
  } finally {
    clearInterval(sampler);
  }
}

const reasonOf = (result: unknown) =>
  result instanceof PdfUnreadable ? result.reason : result instanceof Error ? result.message : 'read';

describe('PdfContentReader limits: hostile files are refused with bounded memory', function () {
  this.timeout(120_000);
  const reader = new PdfContentReader();

  it('the bomb builders make what they say (checked on 64 MiB, streamed)', () => {
    const inflatedLength = (deflated: Buffer, times: number) => {
      let data = deflated;
      for (let i = 0; i < times; i++) data = zlib.inflateSync(data);
      return data.length;
    };
    expect(inflatedLength(zerosDeflated(64 * MB), 1)).to.equal(64 * MB);
    expect(inflatedLength(zerosDeflatedTwice(64 * MB), 2)).to.equal(64 * MB);
    expect(zerosDeflated(10 * GiB).length).to.be.below(11 * MB);
  });

  it('refuses a 10 MB file whose content stream inflates to 10 GiB as too large, naming the limit, with memory staying bounded', async () => {
    const pdf = await contentStreamBomb(10 * GiB);
    expect(pdf.length).to.be.below(12 * MB);
    const { result, peakRssGrowth } = await readWatched(reader, pdf);
    expect(reasonOf(result)).to.equal('too_large');
    expect((result as Error).message).to.contain('100 MB');
    // Unbounded, this was 11 GB resident; bounded, at most a few times the 100 MB budget.
    expect(peakRssGrowth).to.be.below(800 * MB);
  });

  it("refuses the same bomb with predictor parameters (inflated by pdfjs's own inflater, not zlib's)", async () => {
    const { result, peakRssGrowth } = await readWatched(reader, await contentStreamBomb(10 * GiB, { predictor: true }));
    expect(reasonOf(result)).to.equal('too_large');
    expect(peakRssGrowth).to.be.below(800 * MB);
  });

  it('refuses a 30 KB file whose embedded file (Flate in Flate, in the name tree and /AF) inflates to 10 GiB, with memory staying bounded', async () => {
    const pdf = await embeddedFileBomb(10 * GiB);
    expect(pdf.length).to.be.below(100 * 1024);
    const { result, peakRssGrowth } = await readWatched(reader, pdf);
    expect(reasonOf(result)).to.equal('too_large');
    expect(peakRssGrowth).to.be.below(800 * MB);
  });

  it('gives the memory back after a refused file (its worker is replaced), and reads the next file', async () => {
    global.gc?.();
    const before = process.memoryUsage().rss;
    for (let i = 0; i < 3; i++)
      expect(reasonOf((await readWatched(reader, await contentStreamBomb(4 * GiB))).result)).to.equal('too_large');
    const content = await reader.read(await pdfFixture('lo-en-invoice.pdf'));
    expect(content.pages[0]!.items.length).to.be.greaterThan(10);
    // Three refused bombs later, the process holds about what it held before them. A replaced
    // worker's memory goes back to the system when its thread has ended, which the refusal does
    // not wait for: look again for up to 2 s before judging (a leak stays, however long we wait).
    let growth = Infinity;
    for (let look = 0; look < 20 && growth >= 300 * MB; look++) {
      global.gc?.();
      growth = process.memoryUsage().rss - before;
      if (growth >= 300 * MB) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(growth).to.be.below(300 * MB);
  });

  it('reads the text of a page with a 100,000 × 100,000 image without decoding the image', async () => {
    const { result, peakRssGrowth } = await readWatched(reader, await hugeImage());
    expect(reasonOf(result)).to.equal('read');
    const text = (result as PdfContent).pages[0]!.items.map((i) => i.text);
    expect(text).to.include.members(['Invoice INV-3', 'Total 100.00']);
    // Its data inflates to 1 GiB: it was not inflated (the budget would have refused the file), let alone decoded.
    expect(peakRssGrowth).to.be.below(300 * MB);
  });

  it('reads the text of the first 200 pages of a longer file, and says how many it has', async () => {
    const content = await reader.read(await manyPages(DEFAULT_PDF_READER_LIMITS.maxPages + 50));
    expect(content.pageCount).to.equal(250);
    expect(content.pages).to.have.length(200);
    expect(content.pages[199]!.items.map((i) => i.text)).to.deep.equal(['Page 200']);
  });

  it('ends a read that takes longer than its time budget (the worker is ended, nothing hangs), and reads the next file with a new worker', async () => {
    const limits = { ...DEFAULT_PDF_READER_LIMITS, timeoutMs: 1 };
    const hurried = new PdfContentReader(limits);
    // No PDF is parsed, its pages read and the answer sent back within a millisecond.
    expect(reasonOf(await hurried.read(await manyPages(200)).catch((e: unknown) => e))).to.equal('timed_out');
    limits.timeoutMs = 60_000;
    const content = await hurried.read(await pdfFixture('lo-en-invoice.pdf'));
    expect(content.pages[0]!.items.length).to.be.greaterThan(10);
  });
});
