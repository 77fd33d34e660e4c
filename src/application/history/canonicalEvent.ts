import { hash } from 'node:crypto';
import type { RecordedEvent } from '../ports/eventStore.js';
import { isBlobKey } from '../ports/blobStore.js';

/*
 * The canonical bytes of an event and the hash chain over them (docs/internals/proving-history.md).
 * Everything here is a pure function of what the event store returns for an event, so an auditor
 * recomputes the same bytes from the same rows with a short script, and an evidence bundle is
 * checked offline with nothing but these functions.
 *
 *   canonical bytes = UTF-8 of the RFC 8785 (JCS) serialisation of
 *     { "v": 1, "position": "<global position, decimal>", "stream": "<stream name>",
 *       "revision": <stream revision>, "id": "<event id>", "type": "<event type>",
 *       "recorded_at": "<ISO 8601 UTC, milliseconds>", "data": <data>, "metadata": <metadata>,
 *       "blobs": [<the SHA-256 of every blob the data refers to, sorted, each once>] }
 *   digest_n = SHA-256(canonical bytes of event n)
 *   hash_n   = SHA-256(hash_(n-1) || digest_n)   (raw 32-byte values; hash_(-1) = 32 zero bytes)
 */

/** The version of the canonical form; it is inside the bytes, so a later form cannot be mistaken for this one. */
export const CANONICAL_VERSION = 1;

/** The hash before the first event. */
export const GENESIS_HASH: Buffer = Buffer.alloc(32);

/**
 * RFC 8785 (JSON Canonicalization Scheme) of a JSON value: object members sorted by their names'
 * UTF-16 code units (what JavaScript's default sort compares), no whitespace, strings and numbers
 * as ECMAScript's JSON.stringify writes them. Members whose value is undefined are left out, as
 * JSON.stringify does; anything JSON cannot hold (a function, NaN, a bigint) is refused.
 */
export function canonicalJson(value: unknown): string {
  return write(value, null);
}

/** Member names seen before, quoted: an event's names repeat from one event to the next. */
const quotedNames = new Map<string, string>();

function quoted(name: string): string {
  let q = quotedNames.get(name);
  if (q === undefined) {
    q = JSON.stringify(name);
    if (quotedNames.size < 10_000) quotedNames.set(name, q);
  }
  return q;
}

/** Writes `value` canonically; when `blobs` is given, collects the blob references met on the way. */
function write(value: unknown, blobs: Set<string> | null): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`not a JSON number: ${value}`);
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + write(value[i] ?? null, blobs);
        return `${out}]`;
      }
      const record = value as Record<string, unknown>;
      const names = Object.keys(record).sort();
      let out = '{';
      let first = true;
      for (const name of names) {
        const member = record[name];
        if (member === undefined) continue;
        if (blobs !== null && name === 'sha256' && isBlobKey(member)) blobs.add(member);
        out += `${first ? '' : ','}${quoted(name)}:${write(member, blobs)}`;
        first = false;
      }
      return `${out}}`;
    }
    default:
      throw new TypeError(`not a JSON value: ${typeof value}`);
  }
}

/**
 * The blobs an event's data refers to: the value of every object member named `sha256` that is 64
 * lowercase hexadecimal digits (a ContentRef, a UBL embed, a blob reference), sorted, each once.
 */
export function blobDigestsOf(data: unknown): string[] {
  const found = new Set<string>();
  write(data, found);
  return [...found].sort();
}

/** What the canonical bytes are made of: an event as the event store returns it. */
export type ChainedEvent = Pick<
  RecordedEvent,
  'id' | 'streamName' | 'revision' | 'globalPosition' | 'type' | 'data' | 'metadata' | 'recordedAt'
>;

/** The JSON text whose UTF-8 bytes are the event's canonical bytes, and the blobs it names. */
export function canonicalForm(event: ChainedEvent): { json: string; blobs: string[] } {
  const found = new Set<string>();
  const data = write(event.data, found);
  const blobs = [...found].sort();
  // The members in RFC 8785 order (blobs, data, id, metadata, position, recorded_at, revision,
  // stream, type, v), written out here so that the data is walked once.
  const json =
    `{"blobs":${write(blobs, null)},"data":${data},"id":${JSON.stringify(event.id)}` +
    `,"metadata":${write(event.metadata, null)},"position":"${event.globalPosition}"` +
    `,"recorded_at":${JSON.stringify(isoTime(event.recordedAt))},"revision":${write(event.revision, null)}` +
    `,"stream":${JSON.stringify(event.streamName)},"type":${JSON.stringify(event.type)},"v":${CANONICAL_VERSION}}`;
  return { json, blobs };
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** An ISO 8601 time in UTC with milliseconds, as Date.prototype.toISOString writes it. */
function isoTime(text: string): string {
  return ISO_TIME.test(text) ? text : new Date(text).toISOString();
}

export function canonicalEventBytes(event: ChainedEvent): Buffer {
  return Buffer.from(canonicalForm(event).json, 'utf8');
}

/** SHA-256 of the event's canonical bytes, and the blobs it names. */
export function digestOf(event: ChainedEvent): { digest: Buffer; blobs: string[] } {
  const { json, blobs } = canonicalForm(event);
  return { digest: hash('sha256', json, 'buffer'), blobs };
}

/** SHA-256 of the event's canonical bytes. */
export function eventDigest(event: ChainedEvent): Buffer {
  return digestOf(event).digest;
}

/** The chain's next hash: SHA-256 of the previous hash followed by the event's digest (32 + 32 bytes). */
export function chainHash(previous: Uint8Array, digest: Uint8Array): Buffer {
  return hash('sha256', Buffer.concat([previous, digest], 64), 'buffer');
}

/** A 32-byte hash from its 64 lowercase hexadecimal digits; null for anything else. */
export function hashFromHex(hex: unknown): Buffer | null {
  return typeof hex === 'string' && /^[0-9a-f]{64}$/.test(hex) ? Buffer.from(hex, 'hex') : null;
}
