import type { XmlLimitName } from './xml/limits.js';

/** The input cannot be validated at all: malformed XML, DTD/entities present, wrong root element, too large. */
export class XmlInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'XmlInputError';
  }
}

/** The XML is beyond one of the limits that keep its processing cost bounded (see xml/limits.ts). */
export class XmlLimitExceeded extends XmlInputError {
  constructor(
    readonly limit: XmlLimitName,
    /** What the input reached when it was refused (the scan stops at the first count above the limit). */
    readonly value: number,
    readonly max: number,
    message: string,
  ) {
    super(message);
    this.name = 'XmlLimitExceeded';
  }
}

/** The bytes are not text in the document's encoding (bad UTF-8, a lone UTF-16 surrogate, an unknown encoding). */
export class XmlEncodingError extends XmlInputError {
  constructor(
    message: string,
    /** Byte offset of the first invalid sequence, when there is one. */
    readonly offset: number | null,
  ) {
    super(message);
    this.name = 'XmlEncodingError';
  }
}
