import { createHash } from 'node:crypto';
import { emptyDocument } from '../../../src/domain/document/invoice/documentModel.js';
import { toDocumentJson } from '../../../src/domain/document/invoice/documentJson.js';
import { headerOf, type ContentRef, type UblRef } from '../../../src/domain/document/lifecycle/documentContent.js';
import type { DocumentEvent, StoredAttachment } from '../../../src/domain/document/lifecycle/documentAggregate.js';

/*
 * What document events name, for the decider's specs: references to payloads (made up: the
 * decider never reads them, it only records and compares them) and the facts of a content.
 */

const keyOf = (name: string) => createHash('sha256').update(name).digest('hex');

export const contentRef = (name: string, media_type = 'application/json'): ContentRef => ({
  sha256: keyOf(name),
  size: name.length,
  media_type,
});

/** A UBL stored as the skeleton `name`, with the given attachments' bytes embedded in it. */
export const ublRef = (name: string, embedded: StoredAttachment[] = []): UblRef => ({
  skeleton: contentRef(name, 'application/xml'),
  embeds: embedded.flatMap((a, i) =>
    a.content ? [{ at: 100 * (i + 1), sha256: a.content.sha256, size: a.content.size }] : [],
  ),
  size: 1000,
});

export const header = headerOf(toDocumentJson({ ...emptyDocument(), invoice_id: 'INV-1' }));

export const attachment = (id: string, file_name = `${id}.pdf`, file_type = 'application/pdf'): StoredAttachment => ({
  id,
  file_name,
  file_type,
  file_size: 3,
  content: contentRef(`bytes of ${id}`, file_type),
});

export const createdData = (attachments: StoredAttachment[] = []) =>
  ({
    document_id: 'd1',
    tenant_id: 't1',
    source: 'json',
    file_name: 'INV-1.xml',
    header,
    document_ref: contentRef('content of d1'),
    ubl_ref: ublRef('ubl of d1', attachments),
    attachments,
  }) as const;

/** A document created before the service owned the lifecycle, in another state or direction (as the upcaster reads it). */
export const recordedAs = (
  created: DocumentEvent,
  state: 'DRAFT' | 'TRANSIT' | 'SENT' | 'RECEIVED' | 'FAILED',
  direction: 'OUTBOUND' | 'INBOUND' = 'OUTBOUND',
): DocumentEvent =>
  ({ ...created, data: { ...created.data, recorded_lifecycle: { state, direction } } }) as DocumentEvent;
