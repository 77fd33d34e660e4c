import type { UblEmbed } from '../../domain/document/lifecycle/documentContent.js';

/*
 * A UBL is stored as a skeleton: its text with the base64 of each embedded binary
 * (cbc:EmbeddedDocumentBinaryObject) cut out, and where each goes back. The binaries are the
 * attachments' own blobs, so a UBL written again for every attachment added stores a few
 * kilobytes of skeleton each time instead of every attachment again.
 *
 * Putting the text back is exact by construction: a binary is cut only when its text is exactly
 * the base64 of its bytes (one spelling: no line breaks, canonical padding), and the blobs are
 * checked against their hashes when read. A binary written otherwise (an uploaded UBL wrapping
 * its base64 at 76 columns, say) stays in the skeleton as it was.
 */

/**
 * An embedded binary element and its content. Attribute values may hold `>` (quoted); the prefix
 * is whatever the document binds (uploads may use another than cbc).
 */
const BINARY =
  /<((?:[A-Za-z_][\w.-]*:)?)EmbeddedDocumentBinaryObject(?:\s(?:[^>"']|"[^"]*"|'[^']*')*)?>([A-Za-z0-9+/=]+)<\/\1EmbeddedDocumentBinaryObject\s*>/g;

/** Length of the base64 of `size` bytes. */
export const base64Length = (size: number): number => 4 * Math.ceil(size / 3);

/** What a cut binary is: its blob and size. */
export interface CutBinary {
  sha256: string;
  size: number;
}

export interface Skeleton {
  /** The text without the binaries' base64. */
  text: string;
  embeds: UblEmbed[];
}

/** Cuts out of `text` the base64 of every embedded binary `take` names a blob for. */
export function cutBinaries(text: string, take: (base64: string) => CutBinary | null): Skeleton {
  const parts: string[] = [];
  const embeds: UblEmbed[] = [];
  let previous = 0;
  let at = 0;
  for (const match of text.matchAll(BINARY)) {
    const content = match[2]!;
    const cut = take(content);
    if (!cut) continue;
    const closing = match[0].length - match[0].lastIndexOf('</');
    const start = match.index + match[0].length - closing - content.length;
    const before = text.slice(previous, start);
    parts.push(before);
    at += Buffer.byteLength(before);
    embeds.push({ at, sha256: cut.sha256, size: cut.size });
    previous = start + content.length;
  }
  parts.push(text.slice(previous));
  return { text: parts.join(''), embeds };
}

/** The bytes a base64 text stands for, when it is their one canonical spelling; else null. */
export function canonicalBytes(base64: string): Buffer | null {
  const bytes = Buffer.from(base64, 'base64');
  return bytes.length > 0 && bytes.toString('base64') === base64 ? bytes : null;
}

/** The skeleton with each embed put back as `fill` gives it (its base64, or a stand-in). */
export function putBack(skeleton: Buffer, embeds: readonly UblEmbed[], fill: (embed: UblEmbed) => Buffer): Buffer {
  const parts: Buffer[] = [];
  let previous = 0;
  for (const embed of embeds) {
    parts.push(skeleton.subarray(previous, embed.at), fill(embed));
    previous = embed.at;
  }
  parts.push(skeleton.subarray(previous));
  return Buffer.concat(parts);
}
