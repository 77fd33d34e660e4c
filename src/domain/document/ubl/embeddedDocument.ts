import { isCiiRoot, readCii } from './ciiReader.js';
import type { Document } from '../invoice/documentModel.js';
import { NS } from './ublNames.js';
import { readUbl, UblReadError } from './ublReader.js';
import type { XNode } from '../../xml/xmlTree.js';

/*
 * Structured data carried inside a PDF: the UBL our renderings embed, a Factur-X / ZUGFeRD 2.x
 * CII file (factur-x.xml, zugferd-invoice.xml, xrechnung.xml), or any other embedded UBL/CII.
 * The file is recognised by its root element, not by its name; the well-known names are only
 * tried first.
 */

export type EmbeddedFormat = 'ubl' | 'cii';

export interface EmbeddedXmlFile {
  fileName: string;
  mimeType: string | null;
  content: Uint8Array;
}

/** An embedded file as the edge parsed it (infrastructure/xml/embeddedXml.ts): its text and tree. */
export interface ParsedXmlFile {
  xml: string;
  root: XNode;
}

export interface EmbeddedDocument {
  format: EmbeddedFormat;
  fileName: string;
  xml: string;
  document: Document;
}

const WELL_KNOWN = /^(factur-x|zugferd-invoice|xrechnung|order-x)\.xml$/i;
const ZUGFERD_1 = 'urn:ferd:CrossIndustryDocument:invoice:1p0';

const looksLikeXml = (f: EmbeddedXmlFile): boolean =>
  /\.xml$/i.test(f.fileName) ||
  /xml/i.test(f.mimeType ?? '') ||
  /^\s*(?:\ufeff)?\s*</.test(new TextDecoder().decode(f.content.subarray(0, 64)));

/** Whether any of the files may be an embedded invoice (by name, type or first bytes): only then is there anything to parse. */
export const hasXmlFile = (files: EmbeddedXmlFile[]): boolean => files.some(looksLikeXml);

/**
 * The first embedded file that is a UBL or CII invoice, and why the other XML files were not used.
 * `parse` is the edge's (UblReadError when a file is not acceptable XML); files are parsed in turn,
 * each once, until one is an invoice.
 */
export function embeddedDocumentOf(
  files: EmbeddedXmlFile[],
  parse: (file: EmbeddedXmlFile) => ParsedXmlFile,
): { found: EmbeddedDocument | null; problems: string[] } {
  const problems: string[] = [];
  const candidates = files
    .filter(looksLikeXml)
    .sort((a, b) => Number(WELL_KNOWN.test(b.fileName)) - Number(WELL_KNOWN.test(a.fileName)));
  for (const file of candidates) {
    try {
      const { xml, root } = parse(file);
      const ns = root.ns;
      if ((root.local === 'Invoice' && ns === NS.invoice) || (root.local === 'CreditNote' && ns === NS.creditNote)) {
        return { found: { format: 'ubl', fileName: file.fileName, xml, document: readUbl(root) }, problems };
      }
      if (isCiiRoot(root))
        return { found: { format: 'cii', fileName: file.fileName, xml, document: readCii(root) }, problems };
      problems.push(
        ns === ZUGFERD_1
          ? `${file.fileName}: ZUGFeRD 1.0 (CrossIndustryDocument) is not read; the text of the PDF was used instead`
          : `${file.fileName}: not a UBL or CII invoice (root element ${root.local})`,
      );
    } catch (error) {
      if (!(error instanceof UblReadError)) throw error;
      problems.push(`${file.fileName}: ${error.message}`);
    }
  }
  return { found: null, problems };
}
