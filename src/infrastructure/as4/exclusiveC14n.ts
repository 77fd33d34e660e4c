import { ExclusiveCanonicalization } from 'xml-crypto';
import { NS } from './namespaces.js';

interface NamespaceNode {
  prefix: string;
  namespaceURI: string;
}

interface AttributeNode {
  namespaceURI: string | null;
  localName: string;
}

const byCodePoint = (a: string, b: string): -1 | 0 | 1 => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Exclusive XML Canonicalization 1.0 as the specification orders it.
 *
 * xml-crypto (6.3.2) sorts the namespace declarations it renders with String#localeCompare, under
 * which `eb` comes before `S12`; C14N requires lexicographic order by code point, under which
 * uppercase comes first. phase4 writes the SOAP prefix as `S12` and lists it in the
 * InclusiveNamespaces PrefixList, so every phase4 message and receipt has an element where `S12` is
 * rendered beside lowercase prefixes, and xml-crypto computes another digest than the signer did
 * (TestReceipt12.xml, helger.as4in). Ordering by code point fixes it; it is also right for every
 * all-lowercase message, where both orders agree.
 *
 * Attributes are ordered by namespace URI, then local name, each by code point. xml-crypto compares
 * the two concatenated, which ties different pairs (`a`+`bc`, `ab`+`c`); compared apart they do not.
 * (JavaScript compares strings by UTF-16 code unit, which is code point order everywhere outside the
 * astral planes; prefixes, URIs and attribute names there do not occur in AS4.)
 */
export class CodePointExclusiveCanonicalization extends ExclusiveCanonicalization {
  override nsCompare(a: NamespaceNode, b: NamespaceNode): number {
    return byCodePoint(a.prefix, b.prefix);
  }

  override attrCompare(a: AttributeNode, b: AttributeNode): -1 | 0 | 1 {
    // An attribute in no namespace comes first: '' is before every URI.
    return byCodePoint(a.namespaceURI ?? '', b.namespaceURI ?? '') || byCodePoint(a.localName, b.localName);
  }
}

/** The canonicalizer class in use; tests pass xml-crypto's own to show what it gets wrong. */
export type Canonicalizer = new () => ExclusiveCanonicalization;

/**
 * The declarations of `prefixes` in scope at `element` from its ancestors (the nearest one wins),
 * leaving out a prefix the element binds itself (its own binding is the one in scope).
 */
function inheritedDeclarations(element: Element, prefixes: readonly string[]): NamespaceNode[] {
  const found: NamespaceNode[] = [];
  for (const prefix of prefixes) {
    if (element.hasAttributeNS(NS.xmlns, prefix)) continue;
    for (let node = element.parentNode; node && node.nodeType === 1; node = node.parentNode) {
      const ancestor = node as Element;
      if (!ancestor.hasAttributeNS(NS.xmlns, prefix)) continue;
      found.push({ prefix, namespaceURI: ancestor.getAttributeNS(NS.xmlns, prefix)! });
      break;
    }
  }
  return found;
}

/**
 * The exclusive canonical form of `element` in its document (without comments), with the
 * InclusiveNamespaces PrefixList of the transform: the listed prefixes that ancestors bind are
 * declared on the element for the walk, as inclusive C14N renders them there, and removed again
 * afterwards, so the document is as it was (cheaper than canonicalizing a deep copy, which cost
 * half the time).
 *
 * The walk is xml-crypto's processInner, not its process: process takes an empty PrefixList for
 * "none given" and then uses the PrefixList of a CanonicalizationMethod child of the element (a
 * SignedInfo's own), so the canonical form would depend on what the element contains rather than
 * on the transform.
 */
export function canonicalize(
  element: Element,
  inclusivePrefixes: readonly string[],
  canonicalizer: Canonicalizer = CodePointExclusiveCanonicalization,
): string {
  const inherited = inheritedDeclarations(element, inclusivePrefixes);
  for (const ns of inherited) element.setAttributeNS(NS.xmlns, `xmlns:${ns.prefix}`, ns.namespaceURI);
  try {
    return new canonicalizer().processInner(element, [], '', {}, [...inclusivePrefixes]);
  } finally {
    for (const ns of inherited) element.removeAttributeNS(NS.xmlns, ns.prefix);
  }
}
