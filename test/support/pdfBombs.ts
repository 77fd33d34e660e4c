import zlib from 'node:zlib';
import { PDFArray, PDFDocument, PDFName, PDFString, StandardFonts } from 'pdf-lib';

/*
 * Hostile PDFs for the reader's limits, built in memory in well under a second: decompression
 * bombs (small files whose FlateDecode streams inflate to gigabytes), many pages, a huge image.
 */

const GiB = 1024 * 1024 * 1024;
const CHUNK = 1024 * 1024;

/**
 * A zlib stream that inflates to `bytes` zero bytes (a multiple of 1 MiB), without deflating them:
 * one MiB of zeros deflated and fully flushed (about 1 KB, independent of what precedes it) is
 * repeated, then an empty final block and the Adler-32 of the zeros (a = 1, b = n mod 65521).
 */
export function zerosDeflated(bytes: number): Buffer {
  const chunk = zlib.deflateRawSync(Buffer.alloc(CHUNK), { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH });
  const count = Math.ceil(bytes / CHUNK);
  const out = Buffer.alloc(2 + chunk.length * count + 2 + 4);
  out[0] = 0x78;
  out[1] = 0xda;
  for (let i = 0; i < count; i++) chunk.copy(out, 2 + i * chunk.length);
  let at = 2 + chunk.length * count;
  // Final fixed-Huffman block holding only its end-of-block code.
  out[at++] = 0x03;
  out[at++] = 0x00;
  out.writeUInt32BE(((((count * CHUNK) % 65521) << 16) | 1) >>> 0, at);
  return out;
}

/** The same zeros deflated twice: the PDF names two filters, [/FlateDecode /FlateDecode], and the file stays tiny. */
export function zerosDeflatedTwice(bytes: number): Buffer {
  return zlib.deflateSync(zerosDeflated(bytes), { level: 9 });
}

async function pageWithText(doc: PDFDocument, lines: string[]): Promise<void> {
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage();
  lines.forEach((line, i) => page.drawText(line, { x: 50, y: 700 - i * 16, size: 11, font }));
}

/**
 * A one-page PDF whose page has a second content stream, a single FlateDecode inflating to `bytes`
 * (10 GiB: a 10 MB file). With `predictor`, the stream has PNG predictor parameters (zero bytes
 * are rows of filter type None), which makes pdfjs inflate it with its own JavaScript inflater
 * rather than the DecompressionStream it uses for plain FlateDecode content.
 */
export async function contentStreamBomb(bytes = 10 * GiB, { predictor = false } = {}): Promise<Buffer> {
  const doc = await PDFDocument.create();
  await pageWithText(doc, ['Invoice INV-1']);
  const page = doc.getPage(0);
  const parameters = predictor ? { DecodeParms: { Predictor: 12, Columns: 1023 } } : {};
  const bomb = doc.context.register(doc.context.stream(zerosDeflated(bytes), { Filter: 'FlateDecode', ...parameters }));
  const contents = page.node.Contents();
  const list = contents instanceof PDFArray ? contents : doc.context.obj([page.node.get(PDFName.of('Contents'))!]);
  list.push(bomb);
  page.node.set(PDFName.of('Contents'), list);
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

/**
 * A PDF whose embedded file (EmbeddedFiles name tree and /AF, as Factur-X files have it) is
 * deflated twice and inflates to `bytes` (10 GiB: a file of about 30 KB).
 */
export async function embeddedFileBomb(bytes = 10 * GiB): Promise<Buffer> {
  const doc = await PDFDocument.create();
  await pageWithText(doc, ['Invoice INV-2']);
  const ctx = doc.context;
  const stream = ctx.register(
    ctx.stream(zerosDeflatedTwice(bytes), {
      Type: 'EmbeddedFile',
      Subtype: 'application#2Fxml',
      Filter: [PDFName.of('FlateDecode'), PDFName.of('FlateDecode')],
    }),
  );
  const spec = ctx.register(
    ctx.obj({
      Type: 'Filespec',
      F: PDFString.of('factur-x.xml'),
      UF: PDFString.of('factur-x.xml'),
      AFRelationship: 'Alternative',
      EF: { F: stream, UF: stream },
    }),
  );
  doc.catalog.set(
    PDFName.of('Names'),
    ctx.obj({ EmbeddedFiles: ctx.obj({ Names: [PDFString.of('factur-x.xml'), spec] }) }),
  );
  doc.catalog.set(PDFName.of('AF'), ctx.obj([spec]));
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}

/** A PDF of `pages` pages, each saying "Page n". */
export async function manyPages(pages: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let n = 1; n <= pages; n++) doc.addPage().drawText(`Page ${n}`, { x: 50, y: 700, size: 11, font });
  return Buffer.from(await doc.save());
}

/**
 * A page with text and, drawn over it, a 100,000 × 100,000 RGB image (10^10 pixels): its data, a
 * 1 MB FlateDecode stream, inflates to 1 GiB (not even the 30 GB it claims; nothing should read it).
 */
export async function hugeImage(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  await pageWithText(doc, ['Invoice INV-3', 'Total 100.00']);
  const page = doc.getPage(0);
  const ctx = doc.context;
  const image = ctx.register(
    ctx.stream(zerosDeflated(GiB), {
      Type: 'XObject',
      Subtype: 'Image',
      Width: 100_000,
      Height: 100_000,
      ColorSpace: 'DeviceRGB',
      BitsPerComponent: 8,
      Filter: 'FlateDecode',
    }),
  );
  const resources = page.node.Resources()!;
  resources.set(PDFName.of('XObject'), ctx.obj({ Im1: image }));
  const draw = ctx.register(ctx.flateStream('q 500 0 0 700 50 50 cm /Im1 Do Q'));
  const contents = page.node.Contents();
  const list = contents instanceof PDFArray ? contents : ctx.obj([page.node.get(PDFName.of('Contents'))!]);
  list.push(draw);
  page.node.set(PDFName.of('Contents'), list);
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}
