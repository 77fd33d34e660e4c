import type { Readable } from 'node:stream';
import { DomainError } from '../../domain/errors.js';

/**
 * The blob store port: bytes kept by their content (UBL, PDFs, attachments; next, AS4 messages and
 * receipts), so that events can carry a reference (hash, size, media type) instead of the bytes.
 *
 * Content-addressed: a blob's key is the SHA-256 of its bytes, computed by the store, so the same
 * bytes put twice (or by two processes at once) are one blob under one key, and a key can never
 * name other bytes than the ones it was made from.
 *
 * There is no delete. Stored payloads are evidence (what was sent, received, signed); the events
 * that refer to them are kept for ever, and a reference that leads nowhere would make the history
 * unverifiable. Removing blobs no event refers to any more (a deleted draft's PDF, say) is a
 * sweep to be designed with retention rules, not a call a handler makes in passing.
 */
export interface BlobStore {
  /**
   * Stores `bytes` (at most once) and answers its reference. When the call returns, the store holds
   * exactly these bytes under `sha256`: a copy already there is kept if it is intact, and
   * replaced if it was corrupted. Refuses a malformed media type ({@link InvalidBlobMediaTypeError})
   * before touching storage.
   */
  put(bytes: Uint8Array, options?: { mediaType?: string }): Promise<BlobRef>;
  /**
   * The bytes stored under `sha256`, checked against it; null when nothing is stored under it.
   * A stored copy that no longer hashes to its key is a {@link BlobCorruptedError}, never
   * returned as good. A malformed key is an {@link InvalidBlobKeyError}, before storage is touched.
   */
  get(sha256: string): Promise<Buffer | null>;
  /**
   * Whether a blob is stored under `sha256`. It does not read the bytes, so it says nothing of
   * their integrity: only `get` and `stream` can tell. Malformed key: {@link InvalidBlobKeyError}.
   */
  has(sha256: string): Promise<boolean>;
  /**
   * The bytes as a stream, for blobs too large to hold in memory at once; null when nothing is
   * stored under `sha256`. The bytes are hashed as they pass: a corrupted copy makes the stream
   * fail with a {@link BlobCorruptedError} instead of ending, so a consumer must take the content
   * as good only once the stream has ended (e.g. when `stream.pipeline` resolves). An adapter that
   * must read the whole value anyway (PostgreSQL) checks it first and rejects instead.
   */
  stream(sha256: string): Promise<Readable | null>;
}

/** What an event carries about a blob. */
export interface BlobRef {
  /** SHA-256 of the bytes: 64 lowercase hexadecimal digits. The blob's key. */
  sha256: string;
  /** Length in bytes. */
  size: number;
  /**
   * What the caller said the bytes are (type/subtype lower-cased; `application/octet-stream` when
   * not said). Not part of the identity: the same bytes put as two types are one blob, and the
   * type belongs to the reference an event keeps, not to the stored bytes.
   */
  mediaType: string;
}

export const DEFAULT_BLOB_MEDIA_TYPE = 'application/octet-stream';

const BLOB_KEY = /^[0-9a-f]{64}$/;

/** A well-formed key: exactly 64 lowercase hexadecimal digits (one spelling per hash). */
export function isBlobKey(value: unknown): value is string {
  return typeof value === 'string' && BLOB_KEY.test(value);
}

/**
 * Refuses anything but a well-formed key. Adapters call it before any I/O: a key becomes a file
 * path or an object name, so `../../etc/passwd` must never get that far.
 */
export function assertBlobKey(value: unknown): asserts value is string {
  if (!isBlobKey(value)) throw new InvalidBlobKeyError(value);
}

// RFC 6838 names (restricted-name: a letter or digit, then up to 126 of these), so a media type
// can go into an HTTP header (S3's Content-Type) with nothing that could break out of it.
const RESTRICTED_NAME = '[a-z0-9][a-z0-9!#$&^_.+-]{0,126}';
const PARAMETER = `;[ \\t]*${RESTRICTED_NAME}=(?:[a-z0-9!#$&^_.+'*\`|~-]+|"[^"\\\\\\x00-\\x1f\\x7f]*")`;
const MEDIA_TYPE = new RegExp(`^(${RESTRICTED_NAME})/(${RESTRICTED_NAME})((?:[ \\t]*${PARAMETER})*)$`, 'i');

/**
 * The media type a reference carries: `type/subtype` (lower-cased) with optional parameters
 * (`; charset=UTF-8`), at most 255 characters; unset or blank: application/octet-stream.
 */
export function blobMediaType(value: string | undefined): string {
  if (value === undefined || value.trim() === '') return DEFAULT_BLOB_MEDIA_TYPE;
  const trimmed = value.trim();
  const match = trimmed.length <= 255 ? MEDIA_TYPE.exec(trimmed) : null;
  if (!match) throw new InvalidBlobMediaTypeError(value);
  return `${match[1]!.toLowerCase()}/${match[2]!.toLowerCase()}${match[3]}`;
}

/** A key that is not 64 lowercase hex digits. A 422 if it ever reaches the HTTP layer: bad input, not a fault. */
export class InvalidBlobKeyError extends DomainError {
  constructor(readonly key: unknown) {
    super('invalid', `not a blob key (64 lowercase hexadecimal digits of a SHA-256): ${describe(key)}`);
    this.name = 'InvalidBlobKeyError';
  }
}

export class InvalidBlobMediaTypeError extends DomainError {
  constructor(readonly mediaType: string) {
    super('invalid', `not a media type (type/subtype, optional parameters): ${describe(mediaType)}`);
    this.name = 'InvalidBlobMediaTypeError';
  }
}

/**
 * The stored copy of a blob no longer hashes to its key (a damaged disk, a hand-edited row or
 * object). A fault of the store, not of the caller: the bytes are lost unless someone puts them
 * again (which repairs the copy).
 */
export class BlobCorruptedError extends Error {
  constructor(
    readonly sha256: string,
    /** What the stored copy hashed to, or why it could not be read whole. */
    readonly found: string,
  ) {
    super(`blob ${sha256} is corrupted: its stored copy ${found}`);
    this.name = 'BlobCorruptedError';
  }
}

function describe(value: unknown): string {
  if (typeof value !== 'string') return typeof value;
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
}

/** Injection token of the `BlobStore`. */
export const BLOB_STORE = Symbol('BlobStore');
