import { str, type XNode } from './xmlTree.js';
import { treeName } from './xmlNames.js';

type El = XNode;

/**
 * Reading a parsed tree by paths of qualified names ("cac:Party/cac:PartyName/cbc:Name"), with the
 * prefixes resolved through the given namespace map, as the UBL, CII and SMP readers need: each
 * step is turned once into the name the tree gives such elements (xmlNames.treeName), so a step
 * is a string comparison per child. Blank text and attributes read as null.
 */
export function xmlPath(namespaces: Readonly<Record<string, string>>) {
  const resolved = new Map<string, string[]>();
  const stepsOf = (path: string): string[] => {
    let steps = resolved.get(path);
    if (!steps) {
      steps = path.split('/').map((qname) => {
        const colon = qname.indexOf(':');
        const prefix = qname.slice(0, colon);
        const ns = colon > 0 ? namespaces[prefix] : undefined;
        if (ns === undefined) throw new Error(`unknown prefix in ${qname}`);
        return treeName(ns, qname.slice(colon + 1));
      });
      resolved.set(path, steps);
    }
    return steps;
  };
  const all = (e: El | null | undefined, path: string): El[] => {
    if (!e) return [];
    let current: El[] = [e];
    for (const step of stepsOf(path)) {
      const next: El[] = [];
      for (const c of current) for (const k of c.children) if (k.name === step) next.push(k);
      if (next.length === 0) return next;
      current = next;
    }
    return current;
  };
  const one = (e: El | null | undefined, path: string): El | null => {
    if (!e) return null;
    // The first match in document order without collecting the others: a depth-first walk.
    const steps = stepsOf(path);
    const find = (n: El, i: number): El | null => {
      for (const k of n.children) {
        if (k.name !== steps[i]) continue;
        if (i === steps.length - 1) return k;
        const found = find(k, i + 1);
        if (found) return found;
      }
      return null;
    };
    return find(e, 0);
  };
  const text = (e: El | null | undefined, path?: string): string | null => {
    const t = str((path ? one(e, path) : e) ?? undefined).trim();
    return t === '' ? null : t;
  };
  const attr = (e: El | null | undefined, name: string): string | null => {
    const v = (e ? attributeOf(e, name) : undefined)?.trim() ?? '';
    return v === '' ? null : v;
  };
  return { all, one, text, attr };
}

/**
 * An attribute by local name, as libxml2's lookup did for the readers: unprefixed first, else the
 * first prefixed one with that local name (a sender's `x:schemeID`).
 */
function attributeOf(e: El, name: string): string | undefined {
  const exact = e.attrs[name];
  if (exact !== undefined) return exact;
  for (const key in e.attrs) {
    const colon = key.indexOf(':');
    if (colon > 0 && key.slice(colon + 1) === name) return e.attrs[key];
  }
  return undefined;
}
