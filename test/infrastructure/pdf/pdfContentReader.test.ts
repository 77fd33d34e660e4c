import { expect } from 'chai';
import { PdfUnreadable } from '../../../src/application/documents/pdfPorts.js';
import { DEFAULT_PDF_READER_LIMITS, PdfContentReader } from '../../../src/infrastructure/pdf/pdfContentReader.js';
import { pdfFixture } from '../../support/pdfFiles.js';

const fixture = pdfFixture;
const isNative = (f: unknown) =>
  typeof f === 'function' && /\{\s*\[native code\]\s*\}$/.test(Function.prototype.toString.call(f));

describe('PdfContentReader: the reading runs in a worker thread', function () {
  this.timeout(60_000);

  it("leaves this thread's built-ins native (pdfjs-dist's polyfills replace JSON and Array.prototype.push where it loads)", async () => {
    const content = await new PdfContentReader().read(await fixture('lo-en-invoice.pdf'));
    expect(content.pages.length).to.be.greaterThan(0);
    expect(content.pages[0]!.items.length).to.be.greaterThan(10);
    for (const builtin of [JSON.stringify, JSON.parse, Array.prototype.push])
      expect(isNative(builtin), builtin.name).to.equal(true);
  });

  it('asks, given the embedded files (as Buffers), whether to read the text, and reads none when told not to', async () => {
    const reader = new PdfContentReader();
    let offered: unknown[] = [];
    const content = await reader.read(await fixture('facturx-en16931-de.pdf'), (files) => {
      offered = files;
      return false;
    });
    expect(offered).to.have.length.greaterThan(0);
    expect(Buffer.isBuffer(content.embeddedFiles[0]!.content)).to.equal(true);
    expect(content.embeddedFiles[0]!.content.toString('utf8')).to.contain('CrossIndustryInvoice');
    expect(content.pages).to.deep.equal([]);
    expect(content.pageCount).to.be.greaterThan(0);
  });

  it('reads files concurrently, each answered on its own', async () => {
    const reader = new PdfContentReader();
    const names = ['lo-en-invoice.pdf', 'lo-nl-factuur.pdf', 'corrupt.pdf', 'lo-de-rechnung.pdf'];
    const results = await Promise.allSettled(names.map(async (name) => reader.read(await fixture(name))));
    expect(results.map((r) => r.status)).to.deep.equal(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    const texts = results.map((r) =>
      r.status === 'fulfilled' ? r.value.pages[0]!.items.map((i) => i.text).join(' ') : '',
    );
    expect(texts[0]).to.match(/invoice/i);
    expect(texts[1]).to.match(/factuur/i);
    expect(texts[3]).to.match(/rechnung/i);
    expect((results[2] as PromiseRejectedResult).reason)
      .to.be.instanceOf(PdfUnreadable)
      .with.property('reason', 'corrupt');
  });

  it('refuses a file that needs more memory than the worker has as too large, and starts a new worker for the next file', async () => {
    const tight = new PdfContentReader({ ...DEFAULT_PDF_READER_LIMITS, maxHeapMb: 4 });
    const reasonOf = async (name: string) =>
      tight.read(await fixture(name)).then(
        () => 'read',
        (e: unknown) => (e instanceof PdfUnreadable ? e.reason : String(e)),
      );
    expect(await reasonOf('lo-en-long-reverse-charge.pdf')).to.equal('too_large');
    // A read handed to the dead worker would never be answered; this one is answered by a new one.
    expect(await reasonOf('lo-en-invoice.pdf')).to.equal('too_large');
  });
});
