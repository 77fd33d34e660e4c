import type { XNode } from './xmlTree.js';

/*
 * Building the element tree (xmlTree.ts) with plain functions, absent values simply dropping out,
 * so the element order of each aggregate is visible in one place; then it is serialised once. The
 * tree built is the one the readers and the rule engine walk: a document we write is checked on
 * the tree itself, not parsed back from its text.
 */

export type Child = XNode | null | undefined | false | ReadonlyArray<Child>;

const flatten = (children: ReadonlyArray<Child>, out: XNode[] = []): XNode[] => {
  for (const c of children) {
    if (!c) continue;
    if (Array.isArray(c)) flatten(c as ReadonlyArray<Child>, out);
    else out.push(c as XNode);
  }
  return out;
};

// Names are the mapping's literals: each is split once.
const locals = new Map<string, string>();
const localOf = (name: string): string => {
  let local = locals.get(name);
  if (local === undefined) {
    local = name.slice(name.indexOf(':') + 1);
    locals.set(name, local);
  }
  return local;
};

// Characters XML 1.0 cannot carry at all (C0 controls other than tab, LF, CR; lone surrogates;
// U+FFFE/U+FFFF) are dropped rather than producing a document no parser accepts. They are dropped
// when the node is built, so the tree holds what its text will say.
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const clean = (value: string): string => value.replace(FORBIDDEN, '');

/** Aggregate element; omitted entirely when it ends up with no children (Peppol forbids empty elements, R008). */
export const agg = (name: string, ...children: Child[]): XNode | null => {
  const kids = flatten(children);
  if (kids.length === 0) return null;
  const node: XNode = { name, local: localOf(name), ns: '', attrs: {}, children: kids, text: '', parent: null };
  for (const k of kids) k.parent = node;
  return node;
};

/** Leaf element; omitted when the value is absent or blank. */
export const leaf = (
  name: string,
  value: string | null | undefined,
  attrs: Record<string, string | null | undefined> = {},
): XNode | null => {
  if (value === null || value === undefined || value.trim() === '') return null;
  const a: Record<string, string> = {};
  for (const k in attrs) {
    const v = attrs[k];
    if (v !== null && v !== undefined && v !== '') a[k] = clean(v);
  }
  return { name, local: localOf(name), ns: '', attrs: a, children: [], text: clean(value), parent: null };
};

/** An element written whatever its content, even none (a schema may require it empty). */
export const element = (name: string, attrs: Record<string, string>, text: string, children: ReadonlyArray<Child> = []): XNode => {
  const a: Record<string, string> = {};
  for (const k in attrs) a[k] = clean(attrs[k]!);
  const node: XNode = { name, local: localOf(name), ns: '', attrs: a, children: flatten(children), text: clean(text), parent: null };
  for (const k of node.children) k.parent = node;
  return node;
};

/**
 * The document element over `children`, with the namespace of every element resolved from the
 * prefixes of `namespaces` ('' for the default namespace), which serialize() declares on it.
 */
export const xmlDocument = (name: string, namespaces: Readonly<Record<string, string>>, children: ReadonlyArray<Child>): XNode => {
  const root: XNode = { name, local: localOf(name), ns: '', attrs: {}, children: flatten(children), text: '', parent: null };
  const resolve = (node: XNode): void => {
    const colon = node.name.indexOf(':');
    node.ns = namespaces[colon < 0 ? '' : node.name.slice(0, colon)] ?? '';
    for (const c of node.children) {
      c.parent = node;
      resolve(c);
    }
  };
  resolve(root);
  return root;
};

const TEXT_SPECIAL = /[&<>]/g;
const ATTR_SPECIAL = /[&<>"\t\n\r]/g;
const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\t': '&#9;', '\n': '&#10;', '\r': '&#13;' };

export const escapeText = (value: string): string => clean(value).replace(TEXT_SPECIAL, (c) => ENTITY[c]!);
export const escapeAttribute = (value: string): string => clean(value).replace(ATTR_SPECIAL, (c) => ENTITY[c]!);

/**
 * Serialises a tree built with xmlDocument as indented XML, declaring `namespaces` on the root. A
 * direct string writer: the tree is already in schema order, every name is a literal of the
 * mapping, and text was cleaned when built, so it only needs its markup characters escaped.
 * (xmlbuilder2's DOM builder took ~40 ms for a 500-line invoice, its streaming writer longer;
 * this takes a few milliseconds.)
 */
export const serialize = (root: XNode, namespaces: Readonly<Record<string, string>>): string => {
  const parts: string[] = ['<?xml version="1.0" encoding="UTF-8"?>\n<', root.name];
  for (const [prefix, uri] of Object.entries(namespaces)) {
    parts.push(prefix === '' ? ' xmlns="' : ` xmlns:${prefix}="`, escapeAttribute(uri), '"');
  }
  parts.push('>\n');
  const write = (node: XNode, indent: string): void => {
    parts.push(indent, '<', node.name);
    // Attributes are short, and writers may set them after building (SMP's transportProfile): cleaned here too.
    for (const k in node.attrs) parts.push(' ', k, '="', escapeAttribute(node.attrs[k]!), '"');
    if (node.children.length > 0) {
      parts.push('>\n');
      for (const c of node.children) write(c, `${indent}  `);
      parts.push(indent, '</', node.name, '>\n');
    } else {
      // A leaf: its text may have been nothing but characters XML cannot carry, and is written empty.
      parts.push('>', node.text.replace(TEXT_SPECIAL, (c) => ENTITY[c]!), '</', node.name, '>\n');
    }
  };
  for (const c of root.children) write(c, '  ');
  parts.push('</', root.name, '>\n');
  return parts.join('');
};

/** A document built and serialised in one go, for writers whose tree nothing else reads. */
export const writeXml = (name: string, namespaces: Readonly<Record<string, string>>, children: ReadonlyArray<Child>): string =>
  serialize(xmlDocument(name, namespaces, children), namespaces);
