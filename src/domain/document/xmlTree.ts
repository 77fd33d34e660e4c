import { create } from 'xmlbuilder2';

/**
 * A tiny element tree. The UBL mapping builds it with plain functions (absent values simply drop
 * out), so the element order of each aggregate is visible in one place, then it is serialised once.
 */
export interface XNode {
  name: string;
  attrs: Record<string, string>;
  text: string | null;
  children: XNode[];
}

export type Child = XNode | null | undefined | false | ReadonlyArray<Child>;

const flatten = (children: ReadonlyArray<Child>, out: XNode[] = []): XNode[] => {
  for (const c of children) {
    if (!c) continue;
    if (Array.isArray(c)) flatten(c as ReadonlyArray<Child>, out);
    else out.push(c as XNode);
  }
  return out;
};

/** Aggregate element; omitted entirely when it ends up with no children (Peppol forbids empty elements, R008). */
export const agg = (name: string, ...children: Child[]): XNode | null => {
  const kids = flatten(children);
  return kids.length === 0 ? null : { name, attrs: {}, text: null, children: kids };
};

/** Leaf element; omitted when the value is absent or blank. */
export const leaf = (
  name: string,
  value: string | null | undefined,
  attrs: Record<string, string | null | undefined> = {},
): XNode | null => {
  if (value === null || value === undefined || value.trim() === '') return null;
  const a: Record<string, string> = {};
  for (const [k, v] of Object.entries(attrs)) if (v !== null && v !== undefined && v !== '') a[k] = v;
  return { name, attrs: a, text: value, children: [] };
};

export const serialize = (
  root: string,
  namespaces: Record<string, string>,
  children: ReadonlyArray<Child>,
): string => {
  const doc = create({ version: '1.0', encoding: 'UTF-8' });
  const rootEl = doc.ele(namespaces[''] ?? null, root);
  for (const [prefix, uri] of Object.entries(namespaces)) {
    if (prefix !== '') rootEl.att('http://www.w3.org/2000/xmlns/', `xmlns:${prefix}`, uri);
  }
  const write = (parent: ReturnType<typeof doc.ele>, node: XNode): void => {
    const prefix = node.name.includes(':') ? node.name.split(':')[0]! : '';
    const e = parent.ele(namespaces[prefix] ?? null, node.name);
    for (const [k, v] of Object.entries(node.attrs)) e.att(k, v);
    if (node.text !== null) e.txt(node.text);
    for (const c of node.children) write(e, c);
  };
  for (const c of flatten(children)) write(rootEl, c);
  return doc.end({ prettyPrint: true });
};
