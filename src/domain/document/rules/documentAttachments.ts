import { invalid } from '../../errors.js';
import { LATEST_CODE_LISTS } from '../../validation/codelists/index.js';
import { XML_LIMIT_SETTINGS, validateUblTree, xmlLimits, type UblTree } from '../../validation/index.js';
import { fatalRuleSummary } from './documentCheck.js';
import { fromDocumentJson, type DocumentJson } from '../invoice/documentJson.js';
import type { Attachment } from '../invoice/documentModel.js';
import { serializeUbl, writeUblTree } from '../ubl/ublWriter.js';
import { ownEntry } from '../../ownEntry.js';

/** Attachment types Peppol accepts (the latest release's list). */
const { mimeTypes } = LATEST_CODE_LISTS;

/** Where a refused attachment is reported: the upload's `file` field. */
const FILE = ['body', 'file'];

/** File extensions of the types Peppol lets an invoice carry (BR-CL-24, PEPPOL-EN16931-CL001). */
const TYPE_OF_EXTENSION: Readonly<Record<string, string>> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  csv: 'text/csv',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
};

/**
 * The media type an uploaded file goes into the UBL with. Clients that do not know a file's type
 * send `application/octet-stream` (the public client does for a plain buffer): then its name says
 * what it is. A type the client did state is taken at its word.
 */
export function attachmentType(declared: string | null, fileName: string): string {
  const type = (declared ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== '' && type !== 'application/octet-stream') return type;
  const extension = /\.([A-Za-z0-9]+)$/.exec(fileName)?.[1]?.toLowerCase();
  return (extension && ownEntry(TYPE_OF_EXTENSION, extension)) || 'application/octet-stream';
}

/**
 * An attachment added to a document goes into its UBL, so it must be one a Peppol invoice can
 * carry: one of six media types (anything else fails BR-CL-24 and PEPPOL-EN16931-CL001), and not
 * empty (an empty cac:Attachment fails PEPPOL-EN16931-R008).
 */
export function requireTransmittable(attachment: Pick<Attachment, 'file_type' | 'file_size'>): void {
  if (!attachment.file_type || !mimeTypes.has(attachment.file_type)) {
    throw invalid(
      `Peppol invoices only carry attachments of these types: ${[...mimeTypes].join(', ')}; this file is ${attachment.file_type ?? 'of no stated type'}`,
      FILE,
    );
  }
  if (!attachment.file_size) throw invalid('The file is empty', FILE);
}

/** Both UBLs compared are ours (documents uploaded as UBL take no attachments here). */
const fatalRules = (tree: UblTree) => validateUblTree(tree).filter((issue) => issue.flag === 'fatal');

/**
 * The UBL of a document we wrote (from JSON or a PDF) with the attachments it has now: written
 * again from the document, so every attachment is an AdditionalDocumentReference with its content
 * embedded, as for attachments given at creation. A document that passed validation must still
 * pass it (no rule about attachments may start failing, e.g. DE-R-022's unique file names); a
 * draft that did not pass yet (a PDF draft still incomplete) is checked again when it is sent.
 * The validator's size limit is a limit here too: a UBL it cannot read, receivers would not either.
 * No rule reads a binary's content, so a UBL written with stand-ins for it is judged the same.
 * `currentUbl` gives the tree of the UBL as it is (parsed at the edge), asked for only when the new
 * one breaks a rule.
 */
export function ublWithAttachments(document: DocumentJson, currentUbl: () => UblTree, extraBytes = 0): string {
  const tree = writeUblTree(fromDocumentJson(document));
  const ubl = serializeUbl(tree);
  // `extraBytes`: what the UBL grows by when the stand-ins it was written with (the application
  // writes attachments' blob keys in place of their base64) are replaced by the base64.
  const size = Buffer.byteLength(ubl) + extraBytes;
  const max = xmlLimits().maxBytes;
  if (size > max)
    throw invalid(
      `With its attachments the document's UBL would be ${size} bytes, above the limit of ${max} bytes (${XML_LIMIT_SETTINGS.maxBytes})`,
      FILE,
    );
  const fatal = fatalRules(tree);
  if (fatal.length > 0 && fatalRules(currentUbl()).length === 0) {
    throw invalid(
      `With this attachment the document would no longer pass validation: ${fatalRuleSummary(fatal)}`,
      FILE,
    );
  }
  return ubl;
}
