// The one XML element tree of the service: the readers (UBL, CII, SMP, the rule engine) walk
// trees the edge parsed (infrastructure/xml), the writers (UBL, Invoice Response, SMP) build them
// (xmlWriter.ts) and serialise them once. Plain objects: walking them costs no native calls.

export interface XNode {
  /**
   * The element's name. In a parsed tree: the canonical qualified name ('cbc:ID', 'cac:Party',
   * 'ext:UBLExtensions'; the Invoice / CreditNote root and its siblings in that namespace bare),
   * `{uri}local` in other namespaces (xmlNames.treeName). In a written tree: the qualified name it
   * is written with, its prefix declared on the root.
   */
  name: string;
  /** Local name (without prefix), used by rules that match on name suffixes (…Amount, …BinaryObject). */
  local: string;
  /** Namespace URI, '' when none. */
  ns: string;
  /** Attributes by name as written (unprefixed for UBL's); xmlns declarations are not kept. */
  attrs: Record<string, string>;
  children: XNode[];
  /** Concatenated direct text content (entities already decoded), '' when none. */
  text: string;
  parent: XNode | null;
}

const pathCache = new Map<string, string[]>();
function steps(path: string): string[] {
  let s = pathCache.get(path);
  if (!s) {
    s = path.split('/');
    pathCache.set(path, s);
  }
  return s;
}

/** Direct children with the given name. */
export function kids(n: XNode | undefined, name: string): XNode[] {
  if (!n) return [];
  const out: XNode[] = [];
  for (const c of n.children) if (c.name === name) out.push(c);
  return out;
}

/** First direct child with the given name. */
export function kid(n: XNode | undefined, name: string): XNode | undefined {
  if (!n) return undefined;
  for (const c of n.children) if (c.name === name) return c;
  return undefined;
}

/** All nodes reached by a relative child path such as 'cac:Party/cac:PartyName/cbc:Name'. */
export function all(n: XNode | undefined, path: string): XNode[] {
  if (!n) return [];
  let cur: XNode[] = [n];
  for (const step of steps(path)) {
    const next: XNode[] = [];
    for (const c of cur) for (const k of c.children) if (k.name === step) next.push(k);
    if (next.length === 0) return next;
    cur = next;
  }
  return cur;
}

/** First node reached by a relative child path (document order). */
export function one(n: XNode | undefined, path: string): XNode | undefined {
  return all(n, path)[0];
}

export function has(n: XNode | undefined, path: string): boolean {
  return one(n, path) !== undefined;
}

/** Every descendant (not the node itself) with the given name, document order. */
export function descendants(n: XNode, name: string, out: XNode[] = []): XNode[] {
  for (const c of n.children) {
    if (c.name === name) out.push(c);
    if (c.children.length) descendants(c, name, out);
  }
  return out;
}

/** Every element of the tree in document order, including the root. */
export function everyElement(n: XNode, out: XNode[] = []): XNode[] {
  out.push(n);
  for (const c of n.children) everyElement(c, out);
  return out;
}

/**
 * XPath string value: own text plus all descendant text. The tree keeps one text per element, so
 * an element's own text comes first: exact for UBL, whose elements hold text or elements, never both.
 */
export function str(n: XNode | undefined): string {
  if (!n) return '';
  if (n.children.length === 0) return n.text;
  let s = n.text;
  for (const c of n.children) s += str(c);
  return s;
}

/** normalize-space() of the string value. */
export function norm(n: XNode | undefined): string {
  return normSpace(str(n));
}

export function normSpace(s: string): string {
  return s.replace(/[\s]+/g, ' ').trim();
}

/** True when the element exists and its normalized text is not empty. */
export function nonBlank(n: XNode | undefined): boolean {
  return n !== undefined && norm(n) !== '';
}

export function attr(n: XNode | undefined, name: string): string | undefined {
  return n?.attrs[name];
}

/** Is `n` inside an element named `name` (any ancestor)? */
export function hasAncestor(n: XNode, name: string): boolean {
  for (let p = n.parent; p; p = p.parent) if (p.name === name) return true;
  return false;
}

/** XPath-like location: /Invoice/cac:InvoiceLine[2]/cbc:LineExtensionAmount (index only when siblings share the name). */
export function locationOf(n: XNode): string {
  const parts: string[] = [];
  for (let cur: XNode | null = n; cur; cur = cur.parent) {
    const place = cur.parent ? siblingPlace(cur) : undefined;
    parts.push(place && place.of > 1 ? `${cur.name}[${place.position}]` : cur.name);
  }
  return '/' + parts.reverse().join('/');
}

interface SiblingPlace {
  /** 1-based position among the siblings of the same name. */
  position: number;
  /** Siblings of that name, the node included. */
  of: number;
}

// Places are computed for all children of a parent at once, the first time one is asked for:
// counting the siblings again for every reported node made N reports under one parent cost N²
// (40,000 empty elements took 8 s).
const places = new WeakMap<XNode, SiblingPlace>();

function siblingPlace(n: XNode): SiblingPlace {
  let place = places.get(n);
  if (!place) {
    const byName = new Map<string, SiblingPlace[]>();
    for (const s of n.parent!.children) {
      const same = byName.get(s.name) ?? [];
      if (same.length === 0) byName.set(s.name, same);
      const p = { position: same.length + 1, of: 0 };
      same.push(p);
      places.set(s, p);
    }
    for (const same of byName.values()) for (const p of same) p.of = same.length;
    place = places.get(n)!;
  }
  return place;
}
