import {
  embeddedDocumentOf,
  type EmbeddedDocument,
  type EmbeddedXmlFile,
} from '../../domain/document/ubl/embeddedDocument.js';
import { parseForReading } from './ublText.js';

/**
 * The invoice an uploaded PDF carries (embedded UBL, Factur-X / ZUGFeRD CII): each candidate file
 * is parsed once, as untrusted XML, and read from that tree (domain/document/ubl/embeddedDocument.ts
 * decides which file is the invoice).
 */
export function readEmbeddedDocument(files: EmbeddedXmlFile[]): { found: EmbeddedDocument | null; problems: string[] } {
  return embeddedDocumentOf(files, (file) => {
    const xml = new TextDecoder().decode(file.content).replace(/^\ufeff/, '');
    return { xml, root: parseForReading(xml) };
  });
}
