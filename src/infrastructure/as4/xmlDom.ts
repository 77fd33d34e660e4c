import { DOMParser } from '@xmldom/xmldom';
import { XmlInputError } from '../../domain/validation/errors.js';
import { DEFAULT_XML_LIMITS, type XmlLimits } from '../../domain/validation/xml/limits.js';
import { checkedText, gateParse } from '../xml/xmlParser.js';

/** XML that is not well-formed, too large, or uses what AS4 messages never need (DTDs, processing instructions). */
export class UntrustedXmlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UntrustedXmlError';
  }
}

/**
 * A SOAP header with a signature and a few certificates is a few tens of kB; the payload travels as a
 * MIME attachment. 2 MiB leaves room for a SOAP body some peers may use, and stays cheap to refuse.
 */
export const SOAP_XML_LIMITS: Readonly<XmlLimits> = Object.freeze({
  ...DEFAULT_XML_LIMITS,
  maxBytes: 2 * 1024 * 1024,
  maxElements: 20_000,
});

const ELEMENT_NODE = 1;
const PROCESSING_INSTRUCTION_NODE = 7;

/** Strict UTF-8 (what SOAP 1.2 over AS4 uses); a declaration naming another encoding is refused rather than guessed at. */
export function decodeUtf8Xml(bytes: Uint8Array): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new UntrustedXmlError('the XML is not valid UTF-8');
  }
  const declared = /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([^"']+)["']/.exec(text)?.[1];
  if (declared && !/^utf-?8$/i.test(declared))
    throw new UntrustedXmlError(`the XML declares encoding ${declared}; only UTF-8 is accepted`);
  return text;
}

/**
 * Parses XML from another party into a DOM that xml-crypto's canonicalizer can walk.
 * libxml2 is the gate first, as for every untrusted XML in this service: the text is checked against
 * the limits in one linear scan, a DOCTYPE is refused outright, and libxml2 parses with no entity
 * substitution, no DTD loading and no network; only text it accepted reaches @xmldom/xmldom.
 * Processing instructions inside the document are refused too: xml-crypto's C14N renders them as
 * text, so a signature could not tell a PI from the text it replaced.
 */
export function parseUntrustedXmlDom(text: string, limits: XmlLimits = SOAP_XML_LIMITS): Document {
  try {
    // The same gate as every untrusted XML of the service (xml/xmlParser.ts): limits, no DOCTYPE, libxml2.
    gateParse(checkedText(text, limits));
  } catch (error) {
    if (error instanceof XmlInputError) throw new UntrustedXmlError(error.message);
    throw error;
  }
  const doc = domOf(text);
  if (containsProcessingInstruction(doc.documentElement!))
    throw new UntrustedXmlError('processing instructions inside the document are not accepted');
  return doc;
}

/**
 * @xmldom/xmldom's DOM of `text`, refused when xmldom reports an error (for untrusted text libxml2
 * has refused anything malformed before; this is the second line) or finds no root element. No
 * locator: line and column numbers of every node are bookkeeping nobody reads (a third of the parse).
 */
function domOf(text: string): Document {
  const problems: string[] = [];
  const report = (message: string) => problems.push(message);
  const doc = new DOMParser({
    errorHandler: { warning: () => undefined, error: report, fatalError: report },
  }).parseFromString(text, 'text/xml');
  if (problems.length > 0 || !doc.documentElement)
    throw new UntrustedXmlError(`malformed XML: ${problems[0] ?? 'no root element'}`);
  return doc;
}

function containsProcessingInstruction(node: Node): boolean {
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === PROCESSING_INSTRUCTION_NODE) return true;
    if (child.nodeType === ELEMENT_NODE && containsProcessingInstruction(child)) return true;
  }
  return false;
}

/** Parses XML this service wrote itself (for signing it): well-formed by construction, refused otherwise. */
export const parseOwnXmlDom = (text: string): Document => domOf(text);

/** The element children of `parent`, optionally only those named {ns}local. */
export function childElements(parent: Node, ns?: string, local?: string): Element[] {
  const out: Element[] = [];
  for (let child = parent.firstChild; child; child = child.nextSibling) {
    if (child.nodeType !== ELEMENT_NODE) continue;
    const element = child as Element;
    if (ns !== undefined && element.namespaceURI !== ns) continue;
    if (local !== undefined && element.localName !== local) continue;
    out.push(element);
  }
  return out;
}

/** The first child element {ns}local, or null. */
export const firstChild = (parent: Node, ns: string, local: string): Element | null =>
  childElements(parent, ns, local)[0] ?? null;

/** The text of an element with surrounding white space removed (ebMS values are tokens). */
export const textOf = (element: Element | null): string | null => (element ? (element.textContent ?? '').trim() : null);

/** An attribute's value, or null when absent. */
export function attributeOf(element: Element, name: string, ns: string | null = null): string | null {
  if (ns === null) return element.hasAttribute(name) ? element.getAttribute(name) : null;
  return element.hasAttributeNS(ns, name) ? element.getAttributeNS(ns, name) : null;
}

/** Every element of the document, depth first. */
export function allElements(root: Element): Element[] {
  const out: Element[] = [root];
  for (let i = 0; i < out.length; i++) out.push(...childElements(out[i]!));
  return out;
}

export const qualifiedName = (element: Element): string => `{${element.namespaceURI ?? ''}}${element.localName}`;
