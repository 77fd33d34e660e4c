import contentType from 'content-type';
import type { EmailAttachment, EmailAttachmentReader } from '../../application/evidence/verifyBundle.js';
import { decodeTransfer, MimeError, readMultipartParts, splitMimeEntity } from '../as4/mimeMultipart.js';

/** Our messages are multipart/mixed with leaf parts; a little nesting (alternative inside mixed) is read, no more. */
const MAX_DEPTH = 4;

const FILE_NAME = /(?:^|;)\s*filename\*?\s*=\s*(?:"([^"]*)"|([^;\s]+))/i;

/**
 * The attachments of an e-mail kept as evidence (RFC 5322 with MIME, as the test-mode transport
 * sends it), each decoded to its bytes: the leaf parts given as attachments (a Content-Disposition
 * of attachment, or a file name). The text the message opens with is not one. Throws (MimeError)
 * for a message that cannot be read.
 */
export const readEmailAttachments: EmailAttachmentReader = (eml) => {
  const { headers, body } = splitMimeEntity(eml);
  const found: EmailAttachment[] = [];
  collect(headers, body, found, 0);
  return found;
};

function collect(headers: Record<string, string>, body: Buffer, found: EmailAttachment[], depth: number): void {
  // content-type 2 parses any text (it never throws); a part without one is text/plain (RFC 2045 5.2).
  const type = contentType.parse(headers['content-type'] ?? 'text/plain');
  const mediaType = type.type.toLowerCase();
  if (mediaType.startsWith('multipart/')) {
    const boundary = type.parameters.boundary;
    if (!boundary || boundary.length > 70) throw new MimeError(`${mediaType} without a usable boundary`);
    if (depth >= MAX_DEPTH) throw new MimeError('multipart parts nested too deep');
    for (const part of readMultipartParts(boundary, body)) collect(part.headers, part.content, found, depth + 1);
    return;
  }
  const disposition = headers['content-disposition'] ?? '';
  const named = FILE_NAME.exec(disposition);
  const fileName = named ? (named[1] ?? named[2]!) : (type.parameters.name ?? null);
  if (!/^\s*attachment\b/i.test(disposition) && fileName === null) return;
  found.push({ fileName, mediaType, bytes: decodeTransfer(headers, body) });
}
