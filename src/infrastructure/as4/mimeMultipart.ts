import { randomBytes } from 'node:crypto';
import { MultipartParseError, parseMultipart } from '@remix-run/multipart-parser';
import contentType from 'content-type';

/**
 * MIME multipart/related for SOAP with attachments (AS4 profile: the SOAP 1.2 envelope is the root
 * part, each payload one more part named by its Content-ID).
 *
 * Reading uses @remix-run/multipart-parser: a maintained, dependency-light, binary-safe parser of
 * any multipart/* body (not only form-data), with limits on part count, header and content size; it
 * hands back each part's raw header block and content bytes, untouched. The top-level Content-Type
 * parameters (boundary, type, start) come from `content-type` (jshttp). Writing is the few lines of
 * RFC 2046 framing below: no library writes multipart/related with our headers byte for byte.
 * The e-mail kept as evidence is read with the same parts reader (mail/emailEvidence.ts).
 */

export class MimeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MimeError';
  }
}

export interface MimePart {
  /** Header names lower-cased (a header given twice has its values joined by a comma, as HTTP does). */
  headers: Record<string, string>;
  /** Without the angle brackets; null when the part has none. */
  contentId: string | null;
  /** The media type alone, lower-cased, e.g. application/soap+xml. */
  mediaType: string;
  /** The content after Content-Transfer-Encoding is undone. */
  body: Buffer;
}

export interface MimeLimits {
  maxParts: number;
  /** Largest part, and largest message, in bytes. */
  maxPartBytes: number;
  maxTotalBytes: number;
}

export const DEFAULT_MIME_LIMITS: Readonly<MimeLimits> = Object.freeze({
  // A Peppol message carries one payload; a few more parts are tolerated, hundreds are not.
  maxParts: 16,
  maxPartBytes: 100 * 1024 * 1024,
  maxTotalBytes: 101 * 1024 * 1024,
});

export interface ParsedRelated {
  /** The root part: the one `start` names, else the first. */
  root: MimePart;
  attachments: MimePart[];
  /** The `type` parameter of the multipart/related Content-Type, lower-cased (null when absent). */
  rootType: string | null;
}

const stripAngles = (id: string): string =>
  id
    .trim()
    .replace(/^<(.*)>$/, '$1')
    .trim();

function parseHeaderBlock(block: string): Record<string, string> {
  const headers: Record<string, string> = Object.create(null) as Record<string, string>;
  // Folded continuation lines (RFC 5322 2.2.3) belong to the header above them.
  const lines = block.split(/\r?\n/).reduce<string[]>((acc, line) => {
    if (/^[ \t]/.test(line) && acc.length > 0) acc[acc.length - 1] += ` ${line.trim()}`;
    else if (line !== '') acc.push(line);
    return acc;
  }, []);
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new MimeError(`malformed MIME header line: ${line.slice(0, 80)}`);
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!(name in headers)) headers[name] = line.slice(colon + 1).trim();
  }
  return headers;
}

/** A part's media type, lower-cased; text/plain without a Content-Type (RFC 2045 5.2). */
const mediaTypeOf = (header: string | undefined): string =>
  header ? contentType.parse(header).type.toLowerCase() : 'text/plain';

/** The content with its Content-Transfer-Encoding undone: binary, 7bit, 8bit or base64 (anything else is refused). */
export function decodeTransfer(headers: Record<string, string>, body: Buffer): Buffer {
  const encoding = (headers['content-transfer-encoding'] ?? 'binary').trim().toLowerCase();
  switch (encoding) {
    case 'binary':
    case '8bit':
    case '7bit':
      return body;
    case 'base64':
      return Buffer.from(body.toString('latin1').replace(/[\r\n\t ]/g, ''), 'base64');
    default:
      throw new MimeError(`Content-Transfer-Encoding ${encoding} is not supported`);
  }
}

function toPart({ headers, content }: RawPart): MimePart {
  return {
    headers,
    contentId: headers['content-id'] ? stripAngles(headers['content-id']) : null,
    mediaType: mediaTypeOf(headers['content-type']),
    body: decodeTransfer(headers, content),
  };
}

/**
 * The body from its first boundary on. RFC 2046 allows a preamble before it (phase4 writes an empty
 * line there); the parser expects the body to open with the boundary.
 */
function withoutPreamble(body: Buffer, boundary: string): Buffer {
  const delimiter = `--${boundary}`;
  if (body.subarray(0, delimiter.length).toString('latin1') === delimiter) return body;
  const at = body.indexOf(`\r\n${delimiter}`);
  return at < 0 ? body : body.subarray(at + 2);
}

/** One part of a multipart body: its headers (names lower-cased) and its content as it is, still transfer-encoded. */
export interface RawPart {
  headers: Record<string, string>;
  content: Buffer;
}

/** The parts of any multipart/* body with this boundary, within the limits; MimeError when it is malformed. */
export function readMultipartParts(
  boundary: string,
  body: Buffer,
  limits: MimeLimits = DEFAULT_MIME_LIMITS,
): RawPart[] {
  if (body.length > limits.maxTotalBytes)
    throw new MimeError(`the message is larger than ${limits.maxTotalBytes} bytes`);
  const parts: RawPart[] = [];
  try {
    for (const part of parseMultipart(withoutPreamble(body, boundary), {
      boundary,
      maxParts: limits.maxParts,
      maxFileSize: limits.maxPartBytes,
      maxTotalSize: limits.maxTotalBytes,
    })) {
      const headers: Record<string, string> = Object.create(null) as Record<string, string>;
      for (const [name, value] of Object.entries(part.headers)) if (value !== undefined) headers[name] = value;
      const content = part.bytes;
      parts.push({ headers, content: Buffer.from(content.buffer, content.byteOffset, content.byteLength) });
    }
  } catch (error) {
    if (error instanceof MultipartParseError) throw new MimeError(`malformed multipart body: ${error.message}`);
    throw error;
  }
  return parts;
}

/**
 * Splits a multipart/related body given the request's Content-Type header. Refuses what does not
 * fit the AS4 packaging: another media type, no boundary, no parts, parts without Content-ID
 * beside the root, two parts with one Content-ID, a `start` naming no part.
 */
export function readMultipartRelated(
  contentTypeHeader: string,
  body: Buffer,
  limits: MimeLimits = DEFAULT_MIME_LIMITS,
): ParsedRelated {
  // content-type 2 parses any text (it never throws): an odd type is refused by the comparison.
  const parsed = contentType.parse(contentTypeHeader);
  if (parsed.type.toLowerCase() !== 'multipart/related')
    throw new MimeError(`expected multipart/related, got ${parsed.type}`);
  const boundary = parsed.parameters.boundary;
  if (!boundary || boundary.length > 70) throw new MimeError('multipart/related without a usable boundary');
  const parts = readMultipartParts(boundary, body, limits).map(toPart);
  if (parts.length === 0) throw new MimeError('the multipart body has no parts');
  const start = parsed.parameters.start ? stripAngles(parsed.parameters.start) : null;
  const root = start === null ? parts[0]! : parts.find((p) => p.contentId === start);
  if (!root) throw new MimeError(`the start parameter names <${start}>, which no part has`);
  const attachments = parts.filter((p) => p !== root);
  const seen = new Set<string>();
  for (const a of attachments) {
    if (a.contentId === null) throw new MimeError('an attachment part has no Content-ID');
    if (seen.has(a.contentId)) throw new MimeError(`two parts have Content-ID <${a.contentId}>`);
    seen.add(a.contentId);
  }
  return { root, attachments, rootType: parsed.parameters.type?.toLowerCase() ?? null };
}

/** A stored MIME entity (headers, blank line, body), such as phase4's dump files: its headers and body apart. */
export function splitMimeEntity(raw: Buffer): { headers: Record<string, string>; body: Buffer } {
  let end = raw.indexOf('\r\n\r\n');
  let separator = 4;
  const lf = raw.indexOf('\n\n');
  if (end < 0 || (lf >= 0 && lf < end)) {
    end = lf;
    separator = 2;
  }
  if (end < 0) throw new MimeError('no blank line between MIME headers and body');
  return { headers: parseHeaderBlock(raw.subarray(0, end).toString('latin1')), body: raw.subarray(end + separator) };
}

export interface OutgoingPart {
  contentId: string;
  contentType: string;
  body: Buffer;
  /** Headers besides Content-Type, Content-Transfer-Encoding and Content-ID. */
  extraHeaders?: Record<string, string>;
}

const randomBoundary = () => `----=_Part_${randomBytes(18).toString('base64url')}`;

/**
 * Writes the root SOAP part and the attachments as multipart/related, all parts binary (CRLF line
 * ends in the framing, bodies as they are). The boundary is random and checked against every body:
 * one that a body contains is drawn again (`newBoundary` is for tests, which need that to happen).
 */
export function writeMultipartRelated(
  root: { contentType: string; body: Buffer },
  attachments: readonly OutgoingPart[],
  newBoundary: () => string = randomBoundary,
): { contentType: string; body: Buffer } {
  let boundary: string;
  do boundary = newBoundary();
  while ([root.body, ...attachments.map((a) => a.body)].some((b) => b.includes(`--${boundary}`)));
  const chunks: Buffer[] = [];
  const part = (headers: Record<string, string>, body: Buffer) => {
    const head = Object.entries(headers)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    chunks.push(Buffer.from(`--${boundary}\r\n${head}\r\n`, 'latin1'), body, Buffer.from('\r\n', 'latin1'));
  };
  part({ 'Content-Type': root.contentType, 'Content-Transfer-Encoding': 'binary' }, root.body);
  for (const a of attachments) {
    part(
      {
        'Content-Type': a.contentType,
        'Content-Transfer-Encoding': 'binary',
        ...(a.extraHeaders ?? {}),
        'Content-ID': `<${a.contentId}>`,
      },
      a.body,
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`, 'latin1'));
  const rootType = contentType.parse(root.contentType).type;
  return {
    contentType: `multipart/related; boundary="${boundary}"; type="${rootType}"`,
    body: Buffer.concat(chunks),
  };
}
