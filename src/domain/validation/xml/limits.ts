import { XmlLimitExceeded } from '../errors.js';

/**
 * Bounds on untrusted XML, checked by one linear scan of the text before libxml2 (or anything
 * else) parses it (infrastructure/xml/xmlLimitsScan.ts), so that the cost of every later step is bounded: libxml2's duplicate-attribute
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

/** The setting of each limit (declared in src/infrastructure/settings/catalogue.ts). */
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

/** The refusal of a document beyond a limit, saying which and the setting that raises it. */
export function limitExceeded(limit: XmlLimitName, value: number, max: number): XmlLimitExceeded {
  return new XmlLimitExceeded(
    limit,
    value,
    max,
    `${DESCRIBE[limit](value, max)} (limit ${limit} = ${max}, setting ${XML_LIMIT_SETTINGS[limit]})`,
  );
}
