import { createRequire } from 'node:module';
import path from 'node:path';
import zlib from 'node:zlib';
import {
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFName,
  PDFRawStream,
  PDFRef,
  PDFString,
  decodePDFRawStream,
} from 'pdf-lib';
import type { PDFObject } from 'pdf-lib';
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { EmbeddedFile, PdfContent } from '../../application/documents/pdfPorts.js';
import { PdfUnreadable } from '../../application/documents/pdfPorts.js';
import type { TextItem, TextPage } from '../../domain/document/pdf-text/textLayout.js';
import { DecodeBudget, DecodeLimitExceeded, boundDecoding, withDecodeBudget } from './decodeBudget.js';
import type { PdfReaderLimits } from './pdfContentReader.js';

/*
 * Opens an uploaded PDF: pdf-lib lists the embedded files (the EmbeddedFiles name tree and the
 * PDF/A-3 /AF array, where Factur-X/ZUGFeRD put their XML), pdfjs-dist extracts the positioned text
 * of each page. Uploads are hostile until proven otherwise: no fonts from the system, no eval, no
 * network, a bounded number of pages, and a bound on all the bytes decompressed for one file
 * (decodeBudget.ts). Images are never decoded: text extraction does not need them (pdfjs's
 * getTextContent skips image XObjects and inline images), and maxImageSize says so again.
 */

const require = createRequire(import.meta.url);
const STANDARD_FONTS = path.join(path.dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts') + path.sep;

const PDF_HEADER = Buffer.from('%PDF-');

const textOf = (o: PDFObject | undefined): string | null =>
  o instanceof PDFString || o instanceof PDFHexString ? o.decodeText() : o instanceof PDFName ? o.decodeText() : null;

/** "/application#2Fxml" as pdf-lib decodes it → "application/xml". */
const mimeOf = (name: string | null): string | null =>
  name
    ? name.replace(/^\//, '').replace(/#([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
    : null;

/**
 * Decompresses an embedded file's stream: null when it is larger than `max` (the file is skipped),
 * DecodeLimitExceeded when it is larger than what is left of the file's budget.
 */
function streamContent(stream: PDFRawStream, max: number, budget: DecodeBudget): Buffer | null {
  const filter = stream.dict.lookup(PDFName.of('Filter'));
  const filters = filter instanceof PDFArray ? filter.asArray() : filter ? [filter] : [];
  const raw = Buffer.from(stream.getContents());
  if (filters.length === 0) return raw.length <= max ? raw : null;
  if (filters.length === 1 && filters[0] instanceof PDFName && filters[0].decodeText() === 'FlateDecode') {
    const cap = Math.min(max, budget.remaining);
    let inflated: Buffer;
    try {
      inflated = zlib.inflateSync(raw, { maxOutputLength: Math.max(1, cap) });
    } catch (error) {
      if ((error as { code?: string }).code !== 'ERR_BUFFER_TOO_LARGE') return null;
      if (cap < max) budget.charge(cap + 1);
      return null;
    }
    budget.charge(inflated.length);
    return inflated;
  }
  // Other filters and chains (ASCIIHex, LZW, Flate in Flate...): pdf-lib decodes them, within the budget.
  try {
    const decoded = Buffer.from(decodePDFRawStream(stream).decode());
    return decoded.length <= max ? decoded : null;
  } catch (error) {
    if (error instanceof DecodeLimitExceeded) throw error;
    return null;
  }
}

function fileSpecs(pdf: PDFDocument): PDFDict[] {
  const specs: PDFDict[] = [];
  const seen = new Set<PDFDict>();
  const add = (o: PDFObject | undefined) => {
    const dict = o instanceof PDFRef ? pdf.context.lookup(o) : o;
    if (dict instanceof PDFDict && !seen.has(dict)) {
      seen.add(dict);
      specs.push(dict);
    }
  };
  const visitTree = (node: PDFDict | undefined, depth: number) => {
    if (!node || depth > 20) return;
    const names = node.lookupMaybe(PDFName.of('Names'), PDFArray);
    if (names) for (let i = 1; i < names.size(); i += 2) add(names.get(i));
    const kids = node.lookupMaybe(PDFName.of('Kids'), PDFArray);
    if (kids) for (let i = 0; i < kids.size(); i++) visitTree(kids.lookupMaybe(i, PDFDict), depth + 1);
  };
  const namesDict = pdf.catalog.lookupMaybe(PDFName.of('Names'), PDFDict);
  visitTree(namesDict?.lookupMaybe(PDFName.of('EmbeddedFiles'), PDFDict), 0);
  const af = pdf.catalog.lookupMaybe(PDFName.of('AF'), PDFArray);
  if (af) for (let i = 0; i < af.size(); i++) add(af.get(i));
  return specs;
}

function embeddedFilesWithPdfLib(pdf: PDFDocument, max: number, budget: DecodeBudget): EmbeddedFile[] {
  const files: EmbeddedFile[] = [];
  const streams = new Set<PDFRawStream>();
  for (const spec of fileSpecs(pdf)) {
    const ef = spec.lookupMaybe(PDFName.of('EF'), PDFDict);
    const stream = ef?.lookup(PDFName.of('UF')) ?? ef?.lookup(PDFName.of('F'));
    if (!(stream instanceof PDFRawStream) || streams.has(stream)) continue;
    streams.add(stream);
    const content = streamContent(stream, max, budget);
    if (!content) continue;
    files.push({
      fileName: textOf(spec.lookup(PDFName.of('UF'))) ?? textOf(spec.lookup(PDFName.of('F'))) ?? 'attachment',
      mimeType: mimeOf(textOf(stream.dict.lookup(PDFName.of('Subtype')))),
      content,
    });
  }
  return files;
}

type PdfjsDocument = Awaited<ReturnType<typeof pdfjs.getDocument>['promise']>;

async function embeddedFilesWithPdfjs(doc: PdfjsDocument, max: number): Promise<EmbeddedFile[]> {
  let attachments: Record<string, { filename: string; content: Uint8Array | null }>;
  try {
    attachments = ((await doc.getAttachments()) ?? {}) as typeof attachments;
  } catch {
    // A damaged attachment tree: the pages may still be readable.
    return [];
  }
  const files: EmbeddedFile[] = [];
  for (const a of Object.values(attachments)) {
    // A file specification whose stream is missing or damaged has no content.
    if (a.content && a.content.length <= max)
      files.push({ fileName: a.filename, mimeType: null, content: Buffer.from(a.content) });
  }
  return files;
}

interface PdfjsTextItem {
  str: string;
  transform: number[];
  width: number;
}

async function pageText(doc: PdfjsDocument, n: number): Promise<TextPage> {
  const page = await doc.getPage(n);
  const [x0, y0, x1, y1] = page.view as [number, number, number, number];
  const content = await page.getTextContent();
  const items: TextItem[] = [];
  for (const raw of content.items as Array<PdfjsTextItem | { type: string }>) {
    if (!('str' in raw) || raw.str.trim() === '') continue;
    const [a, b, c, d, e, f] = raw.transform as [number, number, number, number, number, number];
    // Horizontal text only: rotated stamps and vertical margins are not part of the invoice's fields.
    if (Math.abs(b) > 0.01 * Math.abs(a) || Math.abs(c) > 0.01 * Math.abs(d)) continue;
    items.push({ text: raw.str, x: e - x0, y: y1 - f, width: raw.width, height: Math.hypot(c, d) || Math.abs(a) });
  }
  page.cleanup();
  return { width: x1 - x0, height: y1 - y0, items };
}

const nameOf = (error: unknown): string => (error as { name?: string })?.name ?? '';

const tooLarge = (budget: DecodeBudget): PdfUnreadable =>
  new PdfUnreadable(
    'too_large',
    `The PDF's compressed content expands to more than ${Math.round(budget.limit / (1024 * 1024))} MB, the most an upload may decompress`,
  );

/** What the worker reads of one file, and how many bytes it decompressed for it. */
export interface Extracted {
  content: PdfContent;
  decodedBytes: number;
}

/**
 * Reads a PDF's embedded files, then (when `wantText` says so, given those files) the text of its
 * pages, within `limits`. Runs inside the reader's worker thread, one file at a time: see
 * pdfContentReader.ts for why. A file that decompresses to more than limits.maxDecodedBytes is
 * PdfUnreadable 'too_large'.
 */
export async function extractPdfContent(
  bytes: Buffer,
  limits: PdfReaderLimits,
  wantText: (embeddedFiles: EmbeddedFile[]) => boolean | Promise<boolean>,
): Promise<Extracted> {
  const start = bytes.subarray(0, 1024).indexOf(PDF_HEADER);
  if (start < 0) throw new PdfUnreadable('not_pdf', 'The file is not a PDF (it does not start with %PDF-)');
  await boundDecoding();
  const budget = new DecodeBudget(limits.maxDecodedBytes);
  try {
    const content = await withDecodeBudget(budget, () => extract(bytes, limits, budget, wantText));
    if (budget.exceeded) throw tooLarge(budget);
    return { content, decodedBytes: budget.used };
  } catch (error) {
    // pdf-lib and pdfjs report (or swallow) the budget's error as they like: the budget knows.
    if (budget.exceeded) throw tooLarge(budget);
    throw error;
  }
}

async function extract(
  bytes: Buffer,
  limits: PdfReaderLimits,
  budget: DecodeBudget,
  wantText: (embeddedFiles: EmbeddedFile[]) => boolean | Promise<boolean>,
): Promise<PdfContent> {
  const exceeded = () => {
    if (budget.exceeded) throw tooLarge(budget);
  };
  let doc: PdfjsDocument;
  try {
    doc = await pdfjs.getDocument({
      data: new Uint8Array(bytes),
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      standardFontDataUrl: STANDARD_FONTS,
      verbosity: 0,
      stopAtErrors: false,
      // Text extraction decodes no image; were one ever decoded, not one this large.
      maxImageSize: limits.maxImagePixels,
    }).promise;
  } catch (error) {
    exceeded();
    if (nameOf(error) === 'PasswordException') {
      throw new PdfUnreadable(
        'encrypted',
        'The PDF is encrypted and needs a password to be opened; upload it without the password protection',
      );
    }
    throw new PdfUnreadable('corrupt', `The PDF is damaged and cannot be read (${(error as Error).message})`);
  }
  try {
    let encrypted = false;
    let embeddedFiles: EmbeddedFile[] | null = null;
    try {
      const pdf = await PDFDocument.load(bytes, {
        ignoreEncryption: true,
        updateMetadata: false,
        throwOnInvalidObject: true,
      });
      encrypted = pdf.isEncrypted;
      // pdf-lib does not decrypt: encrypted files (openable without a password) are read by pdfjs.
      if (!encrypted) embeddedFiles = embeddedFilesWithPdfLib(pdf, limits.maxEmbeddedBytes, budget);
    } catch {
      // pdf-lib is stricter than pdfjs (and told to throw rather than log): pdfjs repaired the file, so it reads the attachments.
    }
    exceeded();
    embeddedFiles ??= await embeddedFilesWithPdfjs(doc, limits.maxEmbeddedBytes);
    exceeded();

    const pages: TextPage[] = [];
    const count = (await wantText(embeddedFiles)) ? Math.min(doc.numPages, limits.maxPages) : 0;
    for (let n = 1; n <= count; n++) {
      pages.push(await pageText(doc, n));
      exceeded();
    }
    return { pageCount: doc.numPages, embeddedFiles, pages, encrypted };
  } catch (error) {
    exceeded();
    if (error instanceof PdfUnreadable) throw error;
    throw new PdfUnreadable('corrupt', `The PDF is damaged and cannot be read (${(error as Error).message})`);
  } finally {
    await doc.destroy();
  }
}
