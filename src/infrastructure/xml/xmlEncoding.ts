import { XmlEncodingError } from '../../domain/validation/errors.js';

/**
 * The bytes of an XML document as a JS string: the encoding is found the way XML 1.0 Appendix F
 * describes (byte order mark, else the first bytes of `<?xml`, else the declaration), the bytes are
 * decoded strictly (an invalid sequence is an XmlEncodingError with its byte offset, never a
 * silent U+FFFD), the byte order mark is dropped, and a declaration naming another encoding than
 * UTF-8 is rewritten to UTF-8: the string is stored and parsed as UTF-8 from here on.
 */
export function decodeXmlBytes(bytes: Uint8Array): string {
  const { encoding, skip } = sniff(bytes);
  const body = bytes.subarray(skip);
  let text: string;
  try {
    text = new TextDecoder(encoding, { fatal: true, ignoreBOM: true }).decode(body);
  } catch (error) {
    if (error instanceof RangeError) throw new XmlEncodingError(`Unsupported XML encoding ${encoding}`, null);
    const offset =
      encoding === 'utf-8'
        ? invalidUtf8At(body)
        : encoding.startsWith('utf-16')
          ? invalidUtf16At(body, encoding === 'utf-16be')
          : -1;
    if (offset < 0) throw new XmlEncodingError(`Invalid ${encoding} byte sequence`, null);
    const name = encoding === 'utf-8' ? 'UTF-8' : encoding.toUpperCase();
    throw new XmlEncodingError(`Invalid ${name} byte sequence at byte ${skip + offset}`, skip + offset);
  }
  return withUtf8Declaration(text);
}

const DECLARED = /^<\?xml\s[^>]*?\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/;
const isUtf8Label = (label: string) => /^utf-?8$/i.test(label);
const isUtf16Label = (label: string) => /^utf-?16/i.test(label);

function sniff(b: Uint8Array): { encoding: string; skip: number } {
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return { encoding: 'utf-8', skip: 3 };
  if (b[0] === 0xff && b[1] === 0xfe) return { encoding: 'utf-16le', skip: 2 };
  if (b[0] === 0xfe && b[1] === 0xff) return { encoding: 'utf-16be', skip: 2 };
  // Without a mark, UTF-16 shows in the first two bytes: one of them is the zero half of '<' or a space.
  if (b.length >= 2 && b[0] !== 0 && b[1] === 0) return { encoding: 'utf-16le', skip: 0 };
  if (b.length >= 2 && b[0] === 0 && b[1] !== 0) return { encoding: 'utf-16be', skip: 0 };
  let head = '';
  for (let i = 0; i < Math.min(b.length, 200); i++) head += String.fromCharCode(b[i]!);
  const label = DECLARED.exec(head)?.[1];
  if (!label || isUtf8Label(label)) return { encoding: 'utf-8', skip: 0 };
  if (isUtf16Label(label)) throw new XmlEncodingError(`The XML declares ${label} but its bytes are not UTF-16`, 0);
  return { encoding: label.toLowerCase(), skip: 0 };
}

/** The declaration of a decoded document, saying UTF-8 when it named another encoding. */
export function withUtf8Declaration(text: string): string {
  const label = DECLARED.exec(text)?.[1];
  if (!label || isUtf8Label(label)) return text;
  return text.replace(/^(<\?xml\s[^>]*?\bencoding\s*=\s*)(["'])[A-Za-z0-9._-]+\2/, '$1$2UTF-8$2');
}

/** Offset of the first byte of the first invalid UTF-8 sequence (WHATWG rules), or -1. */
function invalidUtf8At(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) need = 1;
    else if (c >= 0xe0 && c <= 0xef) {
      need = 2;
      if (c === 0xe0) lo = 0xa0; // overlong
      if (c === 0xed) hi = 0x9f; // surrogates
    } else if (c >= 0xf0 && c <= 0xf4) {
      need = 3;
      if (c === 0xf0) lo = 0x90; // overlong
      if (c === 0xf4) hi = 0x8f; // above U+10FFFF
    } else return i;
    for (let k = 1; k <= need; k++) {
      const d = b[i + k];
      if (d === undefined || d < (k === 1 ? lo : 0x80) || d > (k === 1 ? hi : 0xbf)) return i;
    }
    i += need + 1;
  }
  return -1;
}

/** Offset of the first lone surrogate (or a dangling odd byte) in UTF-16 bytes, or -1. */
function invalidUtf16At(b: Uint8Array, bigEndian: boolean): number {
  const unit = (i: number) => (bigEndian ? (b[i]! << 8) | b[i + 1]! : b[i]! | (b[i + 1]! << 8));
  let i = 0;
  for (; i + 1 < b.length; i += 2) {
    const u = unit(i);
    if (u >= 0xdc00 && u <= 0xdfff) return i;
    if (u >= 0xd800 && u <= 0xdbff) {
      if (i + 3 >= b.length) return i;
      const next = unit(i + 2);
      if (next < 0xdc00 || next > 0xdfff) return i;
      i += 2;
    }
  }
  return i < b.length ? i : -1;
}
