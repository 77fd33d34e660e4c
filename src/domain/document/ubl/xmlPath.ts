import type { XMLElement } from 'libxmljs';
import type { Decimal } from 'decimal.js';
import { parseDecimal } from '../invoice/money.js';

type El = XMLElement;

/**
 * Reading parsed XML by paths of qualified names ("cac:Party/cac:PartyName/cbc:Name"), with the
 * prefixes resolved through the given namespace map, as the UBL and CII readers both need.
 * Blank text and attributes read as null.
 */
export function xmlPath(namespaces: Readonly<Record<string, string>>) {
  const kids = (e: El): El[] => e.childNodes().filter((n) => n.type() === 'element') as El[];
  const matches = (e: El, qname: string): boolean => {
    const [prefix, local] = qname.split(':') as [string, string];
    const ns = namespaces[prefix];
    if (ns === undefined) throw new Error(`unknown prefix ${prefix}`);
    return e.name() === local && (e.namespace()?.href() ?? '') === ns;
  };
  const all = (e: El | null, path: string): El[] => {
    if (!e) return [];
    let current: El[] = [e];
    for (const step of path.split('/')) current = current.flatMap((c) => kids(c).filter((k) => matches(k, step)));
    return current;
  };
  const one = (e: El | null, path: string): El | null => all(e, path)[0] ?? null;
  const text = (e: El | null, path?: string): string | null => {
    const t = (path ? one(e, path) : e)?.text().trim() ?? '';
    return t === '' ? null : t;
  };
  const attr = (e: El | null, name: string): string | null => {
    const v = e?.getAttribute(name)?.value().trim() ?? '';
    return v === '' ? null : v;
  };
  const dec = (e: El | null, path?: string): Decimal | null => {
    const t = text(e, path);
    return t === null ? null : parseDecimal(t);
  };
  return { all, one, text, attr, dec };
}
