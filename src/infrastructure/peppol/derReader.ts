/**
 * A strict reader of DER (X.690 distinguished encoding) for the few X.509 structures read here:
 * single-byte tags, definite minimal lengths of at most four bytes, every length within what
 * encloses it. Anything else is an Error naming the offset, never a guess.
 */

export const TAG = {
  boolean: 0x01,
  integer: 0x02,
  bitString: 0x03,
  octetString: 0x04,
  null: 0x05,
  oid: 0x06,
  enumerated: 0x0a,
  utcTime: 0x17,
  generalizedTime: 0x18,
  sequence: 0x30,
  set: 0x31,
} as const;

/** One TLV: its tag, its content, and its whole encoding (tag and length included). */
export interface Der {
  tag: number;
  content: Buffer;
  encoded: Buffer;
  /** Offset of the TLV in the outermost buffer (for messages). */
  offset: number;
}

export class DerError extends Error {}

/** Reads the TLVs of `content` one after the other. */
export class DerCursor {
  private position = 0;

  constructor(
    private readonly content: Buffer,
    private readonly base = 0,
  ) {}

  static of(der: Der): DerCursor {
    return new DerCursor(der.content, der.offset + der.encoded.length - der.content.length);
  }

  get done(): boolean {
    return this.position >= this.content.length;
  }

  /** The tag of the next TLV, or null at the end. */
  peek(): number | null {
    return this.done ? null : this.content[this.position]!;
  }

  next(expected?: number, what = 'element'): Der {
    const start = this.position;
    const at = this.base + start;
    if (this.done) throw new DerError(`${what} missing at offset ${at}`);
    const tag = this.content[start]!;
    if ((tag & 0x1f) === 0x1f) throw new DerError(`multi-byte tag at offset ${at}`);
    if (expected !== undefined && tag !== expected)
      throw new DerError(`${what}: expected tag 0x${hex(expected)}, found 0x${hex(tag)} at offset ${at}`);
    let index = start + 1;
    if (index >= this.content.length) throw new DerError(`truncated length at offset ${at}`);
    const first = this.content[index++]!;
    let length = first;
    if (first & 0x80) {
      const count = first & 0x7f;
      if (count === 0) throw new DerError(`indefinite length at offset ${at} (not DER)`);
      if (count > 4) throw new DerError(`length of ${count} bytes at offset ${at}`);
      if (index + count > this.content.length) throw new DerError(`truncated length at offset ${at}`);
      length = 0;
      for (let i = 0; i < count; i++) length = length * 256 + this.content[index++]!;
      // DER: the shortest form, so a long form says at least 128 and has no leading zero byte.
      if (length < 0x80 || this.content[index - count] === 0) throw new DerError(`non-minimal length at offset ${at}`);
    }
    if (length > this.content.length - index)
      throw new DerError(`${what} at offset ${at} claims ${length} bytes, ${this.content.length - index} remain`);
    this.position = index + length;
    return {
      tag,
      content: this.content.subarray(index, index + length),
      encoded: this.content.subarray(start, index + length),
      offset: at,
    };
  }

  /** The next TLV when it has this tag, else null (for OPTIONAL fields). */
  optional(tag: number, what?: string): Der | null {
    return this.peek() === tag ? this.next(tag, what) : null;
  }

  end(what: string): void {
    if (!this.done) throw new DerError(`unexpected bytes after ${what} at offset ${this.base + this.position}`);
  }
}

const hex = (n: number) => n.toString(16).padStart(2, '0');

/** The single TLV a buffer holds, nothing after it. */
export function readDer(bytes: Buffer, expected: number, what: string): Der {
  const cursor = new DerCursor(bytes);
  const der = cursor.next(expected, what);
  cursor.end(what);
  return der;
}

/** A positive or negative INTEGER's content as upper-case hex without leading zero digits ("0" for zero). */
export function integerHex(der: Der): string {
  if (der.tag !== TAG.integer || der.content.length === 0) throw new DerError(`bad INTEGER at offset ${der.offset}`);
  return normalizedHex(der.content.toString('hex'));
}

export const normalizedHex = (value: string): string => value.toUpperCase().replace(/^0+/, '') || '0';

/** UTCTime (YYMMDDHHMMSSZ, 1950–2049 as RFC 5280 says) or GeneralizedTime (YYYYMMDDHHMMSSZ). */
export function readTime(der: Der, what: string): Date {
  const text = der.content.toString('latin1');
  const match =
    der.tag === TAG.utcTime
      ? /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/.exec(text)
      : der.tag === TAG.generalizedTime
        ? /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/.exec(text)
        : null;
  if (!match) throw new DerError(`${what} at offset ${der.offset} is not a UTCTime or GeneralizedTime in UTC`);
  const [, y, mo, d, h, mi, s] = match.map(Number) as number[];
  const year = der.tag === TAG.utcTime ? (y! < 50 ? 2000 + y! : 1900 + y!) : y!;
  const date = new Date(Date.UTC(year, mo! - 1, d!, h!, mi!, s!));
  if (date.getUTCMonth() !== mo! - 1 || date.getUTCDate() !== d! || h! > 23 || mi! > 59 || s! > 59)
    throw new DerError(`${what} at offset ${der.offset} is not a date: ${text}`);
  return date;
}
