import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PDFDict, PDFDocument, PDFName, StandardFonts } from 'pdf-lib';
import type { Response } from 'superagent';
import { repoRoot } from './repoRoot.js';

/** test/fixtures/pdf/<name>, read from the source tree (the compiled tests live in dist/ or build/). */
export const pdfFixture = (name: string): Promise<Buffer> => readFile(path.join(repoRoot, 'test/fixtures/pdf', name));

/** supertest parser that keeps a binary body as a Buffer. */
export const binary = (res: Response, callback: (error: Error | null, body: Buffer) => void): void => {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => callback(null, Buffer.concat(chunks)));
};

/** The same PDF without its embedded files (name tree and PDF/A-3 /AF): only the text layer is left to read. */
export async function stripEmbeddedFiles(pdf: Buffer): Promise<Buffer> {
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  doc.catalog.delete(PDFName.of('AF'));
  doc.catalog.lookupMaybe(PDFName.of('Names'), PDFDict)?.delete(PDFName.of('EmbeddedFiles'));
  return Buffer.from(await doc.save());
}

/** A PDF with text that is not an invoice. */
export async function letterPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage();
  ['Dear customer,', 'our offices will be closed during the summer holidays.', 'Kind regards, the team'].forEach(
    (line, i) => page.drawText(line, { x: 50, y: 700 - i * 16, size: 11, font }),
  );
  return Buffer.from(await doc.save());
}
