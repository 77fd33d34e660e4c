import { TAG } from './derReader.js';

/**
 * The little DER writing an OCSP request needs: definite minimal lengths, single-byte tags.
 * Each function returns one whole TLV.
 */

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let rest = n; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

export function tlv(tag: number, ...contents: Buffer[]): Buffer {
  const content = Buffer.concat(contents);
  return Buffer.concat([Buffer.from([tag]), length(content.length), content]);
}

export const sequence = (...items: Buffer[]): Buffer => tlv(TAG.sequence, ...items);
export const octetString = (bytes: Buffer): Buffer => tlv(TAG.octetString, bytes);
export const derNull = (): Buffer => tlv(TAG.null);
/** A context-specific constructed tag, [n] EXPLICIT. */
export const explicit = (n: number, ...items: Buffer[]): Buffer => tlv(0xa0 | n, ...items);

/** An OBJECT IDENTIFIER from its dotted form. */
export function oid(dotted: string): Buffer {
  const arcs = dotted.split('.').map(Number);
  if (arcs.length < 2 || arcs.some((a) => !Number.isSafeInteger(a) || a < 0)) throw new Error(`bad OID ${dotted}`);
  const body: number[] = [];
  for (const arc of [arcs[0]! * 40 + arcs[1]!, ...arcs.slice(2)]) {
    const base128: number[] = [arc % 128];
    for (let rest = Math.floor(arc / 128); rest > 0; rest = Math.floor(rest / 128))
      base128.unshift(0x80 | (rest % 128));
    body.push(...base128);
  }
  return tlv(TAG.oid, Buffer.from(body));
}
