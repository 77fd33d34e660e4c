import type { DocumentJson } from '../invoice/documentJson.js';

/*
 * What a document event says about the document's content. The content itself (the document's
 * JSON, its UBL, each attachment's bytes, an Invoice Response) is kept in the blob store by its
 * SHA-256; an event carries the reference and the facts the lifecycle, the lists and the
 * messages need, so that the event store grows by what happened, not by the files.
 */

/** A payload in the blob store: its SHA-256 (the key), its size in bytes, what it is. */
export interface ContentRef {
  sha256: string;
  size: number;
  media_type: string;
}

/** The base64 of an embedded binary cut out of a stored UBL: where it goes back, and whose bytes it is. */
export interface UblEmbed {
  /** Byte offset in the skeleton (UTF-8) where the base64 text goes. */
  at: number;
  /** The blob of the binary's bytes (an attachment's, usually). */
  sha256: string;
  /** Its size in bytes (the base64 is 4 characters per 3 bytes, padded). */
  size: number;
}

/**
 * A UBL as it is stored: the text with the base64 of each embedded binary cut out (the skeleton,
 * a blob), and where each goes back. The binaries are the attachments' own blobs, so a document
 * that gains attachments one by one stores each attachment's bytes once, not once per UBL.
 */
export interface UblRef {
  skeleton: ContentRef;
  /** In order of offset. */
  embeds: UblEmbed[];
  /** Size in bytes of the whole UBL, put back together. */
  size: number;
}

/** Two references to the same UBL: the same skeleton with the same binaries in the same places. */
export const sameUbl = (a: UblRef, b: UblRef): boolean =>
  a.skeleton.sha256 === b.skeleton.sha256 &&
  a.embeds.length === b.embeds.length &&
  a.embeds.every((e, i) => e.at === b.embeds[i]!.at && e.sha256 === b.embeds[i]!.sha256);

/**
 * The facts of a document's content that its lifecycle, the lists, routing and messages use:
 * identifiers, parties, dates and the total. The rest (lines, addresses, payment terms) is read
 * from the content when the document itself is shown or written.
 */
const HEADER_FIELDS = [
  'document_type',
  'invoice_id',
  'invoice_date',
  'due_date',
  'currency',
  'invoice_total',
  'vendor_name',
  'vendor_email',
  'vendor_tax_id',
  'vendor_company_id',
  'vendor_peppol_id',
  'customer_name',
  'customer_id',
  'customer_email',
  'customer_tax_id',
  'customer_company_id',
  'customer_peppol_id',
] as const;

/** The header facts, as in the document (`invoice_total` a decimal string). */
export type DocumentHeader = Pick<DocumentJson, (typeof HEADER_FIELDS)[number]>;

export const headerOf = (d: DocumentJson): DocumentHeader =>
  Object.fromEntries(HEADER_FIELDS.map((field) => [field, d[field]])) as DocumentHeader;
