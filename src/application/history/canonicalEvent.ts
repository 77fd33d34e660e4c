import { createHash } from 'node:crypto';
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
        for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + canonicalJson(value[i] ?? null);
        return `${out}]`;
      }
      const record = value as Record<string, unknown>;
      const names = Object.keys(record).sort();
      let out = '{';
      let first = true;
      for (const name of names) {
        const member = record[name];
        if (member === undefined) continue;
        out += `${first ? '' : ','}${JSON.stringify(name)}:${canonicalJson(member)}`;
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
  const visit = (value: unknown): void => {
    if (typeof value !== 'object' || value === null) return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    for (const [name, member] of Object.entries(value)) {
      if (name === 'sha256' && isBlobKey(member)) found.add(member);
      else visit(member);
    }
  };
  visit(data);
  return [...found].sort();
}

/** What the canonical bytes are made of: an event as the event store returns it. */
export type ChainedEvent = Pick<
  RecordedEvent,
  'id' | 'streamName' | 'revision' | 'globalPosition' | 'type' | 'data' | 'metadata' | 'recordedAt'
>;

/** The JSON text whose UTF-8 bytes are the event's canonical bytes, and the blobs it names. */
export function canonicalForm(event: ChainedEvent): { json: string; blobs: string[] } {
  const blobs = blobDigestsOf(event.data);
  const json = canonicalJson({
    v: CANONICAL_VERSION,
    position: String(event.globalPosition),
    stream: event.streamName,
    revision: event.revision,
    id: event.id,
    type: event.type,
    recorded_at: new Date(event.recordedAt).toISOString(),
    data: event.data,
    metadata: event.metadata,
    blobs,
  });
  return { json, blobs };
}

export function canonicalEventBytes(event: ChainedEvent): Buffer {
  return Buffer.from(canonicalForm(event).json, 'utf8');
}

/** SHA-256 of the event's canonical bytes, and the blobs it names. */
export function digestOf(event: ChainedEvent): { digest: Buffer; blobs: string[] } {
  const { json, blobs } = canonicalForm(event);
  return { digest: createHash('sha256').update(json, 'utf8').digest(), blobs };
}

/** SHA-256 of the event's canonical bytes. */
export function eventDigest(event: ChainedEvent): Buffer {
  return digestOf(event).digest;
}

/** The chain's next hash: SHA-256 of the previous hash followed by the event's digest (32 + 32 bytes). */
export function chainHash(previous: Uint8Array, digest: Uint8Array): Buffer {
  return createHash('sha256').update(previous).update(digest).digest();
}

/** A 32-byte hash from its 64 lowercase hexadecimal digits; null for anything else. */
export function hashFromHex(hex: unknown): Buffer | null {
  return typeof hex === 'string' && /^[0-9a-f]{64}$/.test(hex) ? Buffer.from(hex, 'hex') : null;
}
