import { createRequire } from 'node:module';
import path from 'node:path';
import pdfmake from 'pdfmake';
import type { Content, TableCell, TDocumentDefinitions } from 'pdfmake/interfaces.js';
import type { EmbeddedFile, PdfRenderer } from '../../application/documents/pdfPorts.js';
import type { Document } from '../../domain/document/invoice/documentModel.js';
import { fromDocumentJson, toDocumentJson } from '../../domain/document/invoice/documentJson.js';
import type { DocumentJson } from '../../domain/document/invoice/documentJson.js';
import { presentDocument } from '../../domain/document/presentation/documentPresentation.js';
import type {
  LabelledValue,
  PresentedAddress,
  PresentedDocument,
  PresentedParty,
} from '../../domain/document/presentation/documentPresentation.js';

/*
 * The A4 rendering of a document with pdfmake (server side, pdfkit underneath). The content comes
 * from presentDocument; this file only decides where it goes on the page. The fonts are the Roboto
 * files pdfmake ships, embedded in every PDF (so the text layer reads back exactly).
 */

const require = createRequire(import.meta.url);
const FONT_DIR = path.join(path.dirname(require.resolve('pdfmake/fonts/Roboto.js')), 'Roboto');

let configured = false;
/** pdfmake is one module-wide instance: fonts and access policies are set once. */
function configure(): void {
  if (configured) return;
  pdfmake.setFonts({
    Roboto: {
      normal: path.join(FONT_DIR, 'Roboto-Regular.ttf'),
      bold: path.join(FONT_DIR, 'Roboto-Medium.ttf'),
      italics: path.join(FONT_DIR, 'Roboto-Italic.ttf'),
      bolditalics: path.join(FONT_DIR, 'Roboto-MediumItalic.ttf'),
    },
  });
  // Document text never names a resource, but a definition could: nothing outside the fonts is read,
  // nothing is fetched.
  pdfmake.setUrlAccessPolicy(() => false);
  pdfmake.setLocalAccessPolicy((file) => path.resolve(file).startsWith(FONT_DIR + path.sep));
  configured = true;
}

const INK = '#1f2933';
const MUTED = '#616e7c';
const ACCENT = '#1c3d5a';
const RULE = '#cbd2d9';
const SHADE = '#eef2f6';

const small = (text: string, extra: Record<string, unknown> = {}): Content => ({
  text,
  fontSize: 7.5,
  color: MUTED,
  ...extra,
});

const partyBlock = (p: PresentedParty, width: '*' | number): Content =>
  ({
    width,
    stack: [
      small(p.heading.toUpperCase(), { bold: true, characterSpacing: 0.6, margin: [0, 0, 0, 2] }),
      { text: p.name, bold: true, fontSize: 10.5, margin: [0, 0, 0, 1] },
      ...p.addressLines.map((l): Content => ({ text: l })),
      ...p.details.map((d, i): Content => ({
        text: [{ text: `${d.label}: `, color: MUTED }, d.value],
        margin: [0, i === 0 ? 4 : 0, 0, 0],
      })),
    ],
  }) as Content;

const addressBlock = (a: PresentedAddress): Content => ({
  stack: [
    small(a.heading.toUpperCase(), { bold: true, characterSpacing: 0.6, margin: [0, 0, 0, 2] }),
    ...(a.recipient ? [{ text: a.recipient, bold: true } as Content] : []),
    ...a.lines.map((l): Content => ({ text: l })),
  ],
  margin: [0, 0, 0, 6],
});

const keyValueTable = (rows: LabelledValue[], labelWidth: number | '*' | 'auto' = 'auto'): Content => ({
  table: {
    widths: [labelWidth, '*'],
    body: rows.map((r): TableCell[] => [{ text: r.label, color: MUTED }, { text: r.value }]),
  },
  layout: 'noBorders',
});

const hairlines = {
  hLineWidth: (i: number, node: { table: { body: unknown[] } }) =>
    i === 0 || i === 1 || i === node.table.body.length ? 0.8 : 0.3,
  vLineWidth: () => 0,
  hLineColor: (i: number) => (i <= 1 ? ACCENT : RULE),
  paddingLeft: () => 5,
  paddingRight: () => 5,
  paddingTop: () => 2.5,
  paddingBottom: () => 2.5,
  fillColor: (row: number) => (row === 0 ? SHADE : null),
};

const header = (cells: Array<[string, 'left' | 'right']>): TableCell[] =>
  cells.map(([text, alignment]) => ({ text, bold: true, color: ACCENT, fontSize: 8, alignment, noWrap: true }));

function linesTable(p: PresentedDocument): Content {
  const body: TableCell[][] = [
    header([
      ['#', 'right'],
      ['Description', 'left'],
      ['Quantity', 'right'],
      ['Unit', 'left'],
      ['Unit price', 'right'],
      ['VAT', 'right'],
      [`Amount (${p.currency})`, 'right'],
    ]),
    ...p.lines.map((l): TableCell[] => [
      { text: l.number, alignment: 'right', color: MUTED },
      { stack: [{ text: l.description }, ...l.details.map((d) => small(d))] },
      { text: l.quantity, alignment: 'right' },
      { text: l.unit },
      { text: l.unitPrice, alignment: 'right' },
      { text: l.vat, alignment: 'right' },
      { text: l.amount, alignment: 'right' },
    ]),
  ];
  return {
    table: { headerRows: 1, dontBreakRows: true, widths: [18, '*', 'auto', 'auto', 'auto', 'auto', 'auto'], body },
    layout: hairlines,
    margin: [0, 10, 0, 0],
  };
}

function allowancesChargesTable(p: PresentedDocument): Content[] {
  if (p.allowancesCharges.length === 0) return [];
  return [
    {
      table: {
        headerRows: 1,
        dontBreakRows: true,
        widths: ['auto', '*', 'auto', 'auto'],
        body: [
          header([
            ['Allowance or charge', 'left'],
            ['Reason', 'left'],
            ['VAT', 'right'],
            [`Amount (${p.currency})`, 'right'],
          ]),
          ...p.allowancesCharges.map((a): TableCell[] => [
            { text: a.kind },
            { text: a.reason },
            { text: a.vat, alignment: 'right' },
            { text: a.amount, alignment: 'right' },
          ]),
        ],
      },
      layout: hairlines,
      margin: [0, 10, 0, 0],
    },
  ];
}

function totalsTable(p: PresentedDocument): Content {
  return {
    columns: [
      { width: '*', text: '' },
      {
        width: 230,
        table: {
          widths: ['*', 'auto'],
          body: p.totals.map((t): TableCell[] => [
            { text: t.label, bold: t.strong, color: t.strong ? INK : MUTED, fontSize: t.strong ? 10 : 9 },
            { text: t.value, bold: t.strong, alignment: 'right', fontSize: t.strong ? 10 : 9 },
          ]),
        },
        layout: {
          hLineWidth: (i: number, node: { table: { body: unknown[] } }) => (i === node.table.body.length - 1 ? 0.8 : 0),
          vLineWidth: () => 0,
          hLineColor: () => ACCENT,
          paddingTop: () => 2,
          paddingBottom: () => 2,
        },
      },
    ],
    margin: [0, 10, 0, 0],
    unbreakable: true,
  };
}

function vatTable(p: PresentedDocument): Content {
  // The exemption reason column only when a category has one (exempt, reverse charge, export, ...).
  const reasons = p.vat.some((v) => v.reason !== '');
  const headings: Array<[string, 'left' | 'right']> = [
    ['VAT category', 'left'],
    ['Rate', 'right'],
    ['Taxable amount', 'right'],
    ['VAT amount', 'right'],
  ];
  return {
    stack: [
      {
        table: {
          headerRows: 1,
          widths: ['auto', 'auto', 'auto', 'auto', '*'],
          body: [
            header(reasons ? [...headings, ['Exemption reason', 'left']] : [...headings, ['', 'left']]),
            ...p.vat.map((v): TableCell[] => [
              { text: v.category, noWrap: true },
              { text: v.rate, alignment: 'right' },
              { text: v.taxable, alignment: 'right' },
              { text: v.vat, alignment: 'right' },
              { text: v.reason },
            ]),
          ],
        },
        layout: hairlines,
      },
    ],
    margin: [0, 12, 0, 0],
    unbreakable: p.vat.length < 12,
  };
}

/** Notes (a credit note's reason) first, then how to pay. */
function notesAndPayment(p: PresentedDocument): Content[] {
  const out: Content[] = [];
  for (const n of p.notes) {
    out.push({
      stack: [
        small(n.label.toUpperCase(), { bold: true, characterSpacing: 0.6, margin: [0, 0, 0, 2] }),
        { text: n.value },
      ],
      margin: [0, 12, 0, 0],
    });
  }
  if (p.payment.length > 0) {
    out.push({
      stack: [
        small('PAYMENT', { bold: true, characterSpacing: 0.6, margin: [0, 0, 0, 2] }),
        keyValueTable(p.payment, 110),
      ],
      margin: [0, 12, 0, 0],
      unbreakable: true,
    });
  }
  return out;
}

/** The pdfmake definition of a presented document (exported for the renderer's tests and the benchmark). */
export function invoiceDefinition(p: PresentedDocument, embed: EmbeddedFile[] = []): TDocumentDefinitions {
  const now = new Date();
  const files = Object.fromEntries(
    embed.map((f, i) => [
      `file${i}`,
      {
        src: `data:${f.mimeType ?? 'application/octet-stream'};base64,${f.content.toString('base64')}`,
        name: f.fileName,
        description:
          f.mimeType === 'application/xml'
            ? 'Structured invoice data (XML); the original of this rendering'
            : f.fileName,
        // PDF/A-3 (and Factur-X) name the structured data an alternative representation of the document.
        relationship: 'Alternative',
        type: f.mimeType ?? undefined,
        creationDate: now,
        modifiedDate: now,
      },
    ]),
  );
  return {
    pageSize: 'A4',
    pageMargins: [40, 40, 40, 48],
    version: '1.7',
    subset: 'PDF/A-3b',
    language: 'en',
    info: { title: p.footer, subject: p.title, creator: 'Invoicing service', producer: 'Invoicing service (pdfmake)' },
    defaultStyle: { font: 'Roboto', fontSize: 9, color: INK, lineHeight: 1.15 },
    files: files as TDocumentDefinitions['files'],
    footer: (currentPage: number, pageCount: number): Content => ({
      columns: [
        { text: p.footer, color: MUTED, fontSize: 7.5 },
        { text: `Page ${currentPage} of ${pageCount}`, alignment: 'right', color: MUTED, fontSize: 7.5 },
      ],
      margin: [40, 16, 40, 0],
    }),
    content: [
      {
        columns: [
          partyBlock(p.seller, '*'),
          {
            width: 240,
            stack: [
              // Long titles ("Self-billed credit note") get a smaller size so that they stay on one line.
              {
                text: p.title.toUpperCase(),
                fontSize: p.title.length > 12 ? 15 : 20,
                noWrap: true,
                bold: true,
                color: ACCENT,
                alignment: 'right',
                characterSpacing: 1,
              },
              ...(p.subtitle
                ? [{ text: p.subtitle, alignment: 'right', color: MUTED, margin: [0, 2, 0, 0] } as Content]
                : []),
              { ...(keyValueTable(p.facts, 90) as object), margin: [0, 8, 0, 0] } as Content,
            ],
          },
        ],
        columnGap: 20,
      },
      {
        columns: [partyBlock(p.buyer, '*'), { width: 240, stack: p.otherAddresses.map(addressBlock) }],
        columnGap: 20,
        margin: [0, 16, 0, 0],
      },
      linesTable(p),
      ...allowancesChargesTable(p),
      totalsTable(p),
      vatTable(p),
      ...notesAndPayment(p),
    ],
  };
}

/** A file to embed, as it crosses a thread boundary (structured clone keeps a Uint8Array, not a Buffer). */
export interface RenderEmbeddedFile {
  fileName: string;
  mimeType: string | null;
  content: Uint8Array;
}

/**
 * What rendering needs, structured-clone safe (no Decimal, no Buffer, no class): a worker pool
 * can take it as it is.
 */
export interface PdfRenderTask {
  /** The document as toDocumentJson gives it (its state included: a draft says so). */
  document: DocumentJson;
  embed: RenderEmbeddedFile[];
}

/** A Uint8Array over its own ArrayBuffer, so that it can be transferred without dragging a shared pool along. */
const ownBytes = (buffer: Buffer): Uint8Array =>
  buffer.byteOffset === 0 && buffer.buffer.byteLength === buffer.byteLength
    ? new Uint8Array(buffer.buffer)
    : new Uint8Array(buffer);

/**
 * Renders a document as a PDF, from structured-clone-safe input to a transferable Uint8Array:
 * what a worker thread runs (CPU-bound, about 0.4 ms per invoice line; see docs/internals/performance.md), so that
 * the event loop does not. Everything it needs (pdfmake, fonts) it loads in the thread it runs in.
 */
export async function renderDocumentPdf(task: PdfRenderTask): Promise<Uint8Array> {
  configure();
  const document = fromDocumentJson(task.document);
  const embed = task.embed.map((f): EmbeddedFile => ({
    fileName: f.fileName,
    mimeType: f.mimeType,
    content: Buffer.from(f.content.buffer, f.content.byteOffset, f.content.byteLength),
  }));
  return ownBytes(await pdfmake.createPdf(invoiceDefinition(presentDocument(document), embed)).getBuffer());
}

/** The task renderDocumentPdf takes, from the PdfRenderer port's arguments. */
export const renderTaskOf = (document: Document, embed: EmbeddedFile[]): PdfRenderTask => ({
  document: toDocumentJson(document),
  embed: embed.map((f) => ({
    fileName: f.fileName,
    mimeType: f.mimeType,
    content: new Uint8Array(f.content.buffer, f.content.byteOffset, f.content.byteLength),
  })),
});

/** The PdfRenderer of the service: pdfmake with the bundled Roboto fonts, in this thread. */
export class PdfmakeRenderer implements PdfRenderer {
  async render(document: Document, embed: EmbeddedFile[]): Promise<Buffer> {
    configure();
    return pdfmake.createPdf(invoiceDefinition(presentDocument(document), embed)).getBuffer();
  }
}
