import { XmlLimitExceeded } from '../errors.js';

/**
 * Bounds on untrusted XML, checked by one linear scan of the text before libxml2 (or anything
 * else) parses it, so that the cost of every later step is bounded: libxml2's duplicate-attribute
 * check is quadratic in the attributes of one element, and the rule engine walks the tree
 * recursively.
 */
export interface XmlLimits {
  /** Size of the document in UTF-8 (what is parsed and stored), in bytes. */
  maxBytes: number;
  /** Elements in the whole document. */
  maxElements: number;
  /** Levels of element nesting (the root is level 1). */
  maxDepth: number;
  /** Attributes on one element, namespace declarations included. */
  maxAttributesPerElement: number;
  /** Characters in one text node, CDATA section or attribute value. */
  maxTextLength: number;
}

export type XmlLimitName = keyof XmlLimits;

/**
 * Generous for lawful documents, small enough to keep hostile ones cheap:
 * - maxBytes 20 MiB: a 28,000-line invoice as our writer produces it is 16.9 MB.
 * - maxElements 1,000,000: that invoice has 364,000 elements (13 per line); 1 M leaves room for
 *   35 per line, while a flood of empty elements (20 MiB of `<x/>` is 5 M) is refused.
 * - maxDepth 100: UBL nests about 10 levels, signatures in extensions a few more; libxml2 stops at
 *   256 with a cryptic error, and our tree walks recurse.
 * - maxAttributesPerElement 64: a UBL element carries at most 6 attributes, a root a dozen
 *   namespace declarations; libxml2's duplicate check is quadratic in this number.
 * - maxTextLength 10,000,000: libxml2's own cap on one text node (without XML_PARSE_HUGE); an
 *   embedded attachment of ~7.5 MB fits, and a longer text gets a clear answer instead of its error.
 */
export const DEFAULT_XML_LIMITS: Readonly<XmlLimits> = Object.freeze({
  maxBytes: 20 * 1024 * 1024,
  maxElements: 1_000_000,
  maxDepth: 100,
  maxAttributesPerElement: 64,
  maxTextLength: 10_000_000,
});

/** The setting of each limit (README, Configuration). */
export const XML_LIMIT_SETTINGS: Readonly<Record<XmlLimitName, string>> = {
  maxBytes: 'XML_MAX_BYTES',
  maxElements: 'XML_MAX_ELEMENTS',
  maxDepth: 'XML_MAX_DEPTH',
  maxAttributesPerElement: 'XML_MAX_ATTRIBUTES',
  maxTextLength: 'XML_MAX_TEXT_LENGTH',
};

let configured: Readonly<XmlLimits> = DEFAULT_XML_LIMITS;

/**
 * The limits in force in this process: the defaults unless the service's configuration set
 * others at start (useXmlLimits; worker processes are given the same). Every parse of untrusted
 * XML that is not given limits of its own uses these.
 */
export const xmlLimits = (): Readonly<XmlLimits> => configured;

export function useXmlLimits(limits: XmlLimits): void {
  configured = Object.freeze({ ...limits });
}

const DESCRIBE: Record<XmlLimitName, (value: number, max: number) => string> = {
  maxBytes: (value, max) => `XML is larger than ${max} bytes (${value} bytes)`,
  maxElements: (_value, max) => `XML has more than ${max} elements`,
  maxDepth: (_value, max) => `XML has more than ${max} levels of nesting`,
  maxAttributesPerElement: (_value, max) => `An XML element has more than ${max} attributes`,
  maxTextLength: (value, max) => `An XML text or attribute value is longer than ${max} characters (${value})`,
};

function exceeded(limit: XmlLimitName, value: number, max: number): XmlLimitExceeded {
  return new XmlLimitExceeded(limit, value, max, `${DESCRIBE[limit](value, max)} (limit ${limit} = ${max}, setting ${XML_LIMIT_SETTINGS[limit]})`);
}

/** Refuses a document whose UTF-8 size is above maxBytes. */
export function checkXmlSize(bytes: number, limits: XmlLimits): void {
  if (bytes > limits.maxBytes) throw exceeded('maxBytes', bytes, limits.maxBytes);
}

const isSpace = (c: number) => c === 32 || c === 10 || c === 9 || c === 13;

/** Index just after the next `token` from `from`, or -1. */
function after(xml: string, token: string, from: number): number {
  const i = xml.indexOf(token, from);
  return i < 0 ? -1 : i + token.length;
}

/**
 * Checks the element count, depth, attributes and text lengths of `xml` in one pass, visiting every
 * character at most once. It follows only the markup boundaries of well-formed, DTD-free XML; where
 * the text does not fit them the scan stops and leaves the error to libxml2, which stops there at the
 * latest, having met only what was checked (and says where, with line and column).
 */
export function checkXmlLimits(xml: string, limits: XmlLimits): void {
  const { maxElements, maxDepth, maxAttributesPerElement, maxTextLength } = limits;
  const len = xml.length;
  let elements = 0;
  let depth = 0;
  let pos = 0;
  while (pos < len) {
    const lt = xml.indexOf('<', pos);
    const textEnd = lt < 0 ? len : lt;
    if (textEnd - pos > maxTextLength) throw exceeded('maxTextLength', textEnd - pos, maxTextLength);
    if (lt < 0) break;
    const c1 = xml.charCodeAt(lt + 1);
    if (c1 === 63 /* ? */) {
      pos = after(xml, '?>', lt + 2);
      if (pos < 0) return;
    } else if (c1 === 33 /* ! */) {
      if (xml.startsWith('<!--', lt)) {
        pos = after(xml, '-->', lt + 4);
        if (pos < 0) return;
      } else if (xml.startsWith('<![CDATA[', lt)) {
        pos = after(xml, ']]>', lt + 9);
        if (pos < 0) return;
        if (pos - 3 - (lt + 9) > maxTextLength) throw exceeded('maxTextLength', pos - 3 - (lt + 9), maxTextLength);
      } else {
        return;
      }
    } else if (c1 === 47 /* / */) {
      depth--;
      pos = after(xml, '>', lt + 2);
      if (pos < 0) return;
    } else {
      if (++elements > maxElements) throw exceeded('maxElements', elements, maxElements);
      pos = lt + 1;
      while (pos < len && !isSpace(xml.charCodeAt(pos)) && xml[pos] !== '>' && xml[pos] !== '/') pos++;
      let attributes = 0;
      for (;;) {
        while (pos < len && isSpace(xml.charCodeAt(pos))) pos++;
        if (pos >= len) return;
        if (xml[pos] === '>') {
          pos++;
          if (++depth > maxDepth) throw exceeded('maxDepth', depth, maxDepth);
          break;
        }
        if (xml[pos] === '/') {
          if (xml[pos + 1] !== '>') return;
          pos += 2;
          // An empty element is one level deeper too, though it closes at once.
          if (depth + 1 > maxDepth) throw exceeded('maxDepth', depth + 1, maxDepth);
          break;
        }
        const nameStart = pos;
        while (pos < len && !isSpace(xml.charCodeAt(pos)) && xml[pos] !== '=' && xml[pos] !== '>' && xml[pos] !== '/') pos++;
        if (pos === nameStart) return;
        while (pos < len && isSpace(xml.charCodeAt(pos))) pos++;
        if (xml[pos] !== '=') return;
        pos++;
        while (pos < len && isSpace(xml.charCodeAt(pos))) pos++;
        const quote = xml[pos];
        if (quote !== '"' && quote !== "'") return;
        const close = xml.indexOf(quote, pos + 1);
        if (close < 0) return;
        if (close - pos - 1 > maxTextLength) throw exceeded('maxTextLength', close - pos - 1, maxTextLength);
        if (++attributes > maxAttributesPerElement) throw exceeded('maxAttributesPerElement', attributes, maxAttributesPerElement);
        pos = close + 1;
      }
    }
  }
}
