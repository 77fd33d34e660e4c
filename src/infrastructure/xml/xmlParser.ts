import libxmljs from 'libxmljs';
import { XmlInputError } from '../../domain/validation/errors.js';
import { xmlLimits, type XmlLimits } from '../../domain/validation/xml/limits.js';
import type { XNode } from '../../domain/xml/xmlTree.js';
import { decodeXmlBytes, withUtf8Declaration } from './xmlEncoding.js';
import { checkXmlLimits, checkXmlSize } from './xmlLimitsScan.js';
import { buildTree } from './xmlScanner.js';

/*
 * The one way untrusted XML comes in (uploads, embedded files, what other servers send), in three
 * steps, each run once per document:
 * 1. Bytes are decoded strictly (decodeXmlBytes) and the text is scanned once against the limits
 *    (checkXmlLimits), so nothing after it costs more than the limits allow.
 * 2. libxml2 (via libxmljs) is the security and well-formedness gate: no DOCTYPE at all (refused up
 *    front), no entity substitution, no DTD loading or validation, no network. It is given the UTF-8
 *    text whatever the bytes were, with a declaration that says so. Its document is kept for the
 *    one use that needs it, the XSD (schemaValidator.ts).
 * 3. The text libxml2 accepted becomes the plain tree everything else reads (xmlScanner.ts).
 */

/** Untrusted XML, parsed: its text as stored, the tree to read, and libxml2's document for the XSD. */
export interface ParsedXml {
  /** The text parsed: decoded from bytes, its declaration saying UTF-8. */
  text: string;
  root: XNode;
  native: libxmljs.XMLDocument;
}

/**
 * libxml2 refused the text: `detail` is what it said (with line and column), for readers that word
 * it their own way. Its name stays XmlInputError's, the class a worker's error is revived as.
 */
export class MalformedXml extends XmlInputError {
  constructor(readonly detail: string) {
    super(`malformed XML: ${detail}`.trim());
  }
}

/**
 * Parses counted since the process started, for tests that prove a document is parsed once on its
 * way (test/infrastructure/xml/onePerUpload.test.ts): `gate` libxml2 parses of untrusted text,
 * `trees` texts turned into trees (untrusted or our own).
 */
export const parseCounts = { gate: 0, trees: 0 };

/**
 * The document as UTF-8-declared text that is within the limits, ready for libxml2: every check
 * here is linear in the input and runs before any parser sees it.
 */
export function checkedText(input: string | Uint8Array, limits: XmlLimits = xmlLimits()): string {
  // UTF-16 takes at most twice the bytes of UTF-8 for the same text: anything larger cannot fit.
  if (typeof input !== 'string' && input.byteLength > 2 * limits.maxBytes) checkXmlSize(input.byteLength, limits);
  const text = typeof input === 'string' ? withUtf8Declaration(input) : decodeXmlBytes(input);
  checkXmlSize(Buffer.byteLength(text, 'utf8'), limits);
  if (/<!DOCTYPE/i.test(text) || /<!ENTITY/i.test(text))
    throw new XmlInputError('DTD / DOCTYPE declarations are not accepted');
  checkXmlLimits(text, limits);
  return text;
}

/** libxml2's parse of checked text: MalformedXml when it is not well-formed. */
export function gateParse(text: string): libxmljs.XMLDocument {
  parseCounts.gate++;
  let doc: libxmljs.XMLDocument;
  try {
    doc = libxmljs.parseXml(text, {
      replaceEntities: false,
      validateEntities: false,
      validateAttributes: false,
      nonet: true,
      recover: false,
      flags: [libxmljs.XMLParseFlags.XML_PARSE_NONET],
    });
  } catch (e) {
    throw new MalformedXml((e as Error).message);
  }
  if (doc.errors && doc.errors.length > 0) throw new MalformedXml(String(doc.errors[0]?.message ?? '').trim());
  if (!doc.root()) throw new XmlInputError('document has no root element');
  return doc;
}

/** Untrusted XML (text or bytes) → checked, gated by libxml2, and the tree. XmlInputError (and its kinds) when refused. */
export function parseUntrustedXml(input: string | Uint8Array, limits: XmlLimits = xmlLimits()): ParsedXml {
  const text = checkedText(input, limits);
  return { text, ...parseCheckedXml(text) };
}

/** Text its caller checked (checkedText, or checks of its own) → libxml2's gate, then the tree. */
export function parseCheckedXml(text: string): { root: XNode; native: libxmljs.XMLDocument } {
  const native = gateParse(text);
  return { root: treeOf(text), native };
}

/**
 * XML this service wrote itself (the UBL it stored): well-formed and DTD-free by construction, so it
 * skips the gate for untrusted input. For a large document the gate's native DOM was most of the
 * memory and a third of the time of checking it.
 */
export function parseOwnXml(xml: string): XNode {
  return treeOf(xml);
}

function treeOf(text: string): XNode {
  parseCounts.trees++;
  return buildTree(text);
}
