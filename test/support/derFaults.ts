import { DerCursor, readDer, type Der } from '../../src/infrastructure/peppol/derReader.js';

/** One TLV of a DER encoding: where it starts, its tag, and how long its header and content are. */
export interface DerNode {
  offset: number;
  tag: number;
  headerLength: number;
  contentLength: number;
}

/**
 * Every TLV of a DER encoding in document order, constructed ones descended into, and OCTET STRINGs
 * that hold exactly one TLV too (OCSP wraps its BasicOCSPResponse and nonce so); `opaque` TLVs (for
 * example embedded certificates) are listed but not descended into.
 */
export function derNodes(bytes: Buffer, opaque: (encoded: Buffer) => boolean = () => false): DerNode[] {
  const nodes: DerNode[] = [];
  const walk = (der: Der) => {
    const headerLength = der.encoded.length - der.content.length;
    nodes.push({ offset: der.offset, tag: der.tag, headerLength, contentLength: der.content.length });
    if (opaque(der.encoded)) return;
    const inner = new DerCursor(der.content, der.offset + headerLength);
    if (der.tag & 0x20) {
      while (!inner.done) walk(inner.next());
    } else if (der.tag === 0x04) {
      try {
        const only = inner.next();
        if (inner.done) walk(only);
      } catch {
        // Not DER inside: an opaque value.
      }
    }
  };
  walk(readDer(bytes, bytes[0]!, 'the whole'));
  return nodes;
}

/** The encoding with one TLV's tag replaced by UTF8String (0x0c), a tag no OCSP field has. */
export function withForeignTag(bytes: Buffer, node: DerNode): Buffer {
  const copy = Buffer.from(bytes);
  copy[node.offset] = 0x0c;
  return copy;
}

/** The encoding with one TLV's length claiming more than there is (its length bytes set to the highest). */
export function withOverlongLength(bytes: Buffer, node: DerNode): Buffer {
  const copy = Buffer.from(bytes);
  if (node.headerLength === 2) copy[node.offset + 1] = 0x7f;
  else copy.fill(0xff, node.offset + 2, node.offset + node.headerLength);
  return copy;
}
