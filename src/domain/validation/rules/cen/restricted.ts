// UBL-CR rules: UBL elements and attributes outside the EN 16931 subset (warnings, except UBL-CR-666/673).
import { Ctx, rule, type Rule } from '../../context.js';
import { all, attr, kid, kids, normSpace, str, type XNode } from '../../../xml/xmlTree.js';
import { RESTRICTED, type RestrictedScope } from './restrictedTable.js';

interface Compiled {
  rule: Rule;
  scope: RestrictedScope;
  path: string;
  steps: string[];
  attr: string | undefined;
  key: string;
}

const COMPILED: Compiled[] = RESTRICTED.map(([num, scope, path, at]) => ({
  rule: rule(
    `UBL-CR-${num}`,
    'warning',
    at
      ? `A UBL invoice should not include ${path ? path + '/' : ''}@${at}`
      : `A UBL invoice should not include ${path}`,
  ),
  scope,
  path,
  steps: path ? path.split('/') : [],
  attr: at,
  key: at ? `${path}@${at}` : path,
}));

const CR002 = rule('UBL-CR-002', 'warning', 'A UBL invoice should not include the UBLVersionID or it should be 2.1');
const CR412 = rule('UBL-CR-412', 'warning', 'A UBL invoice should not include the PaymentMeans PaymentDueDate');
const CR665 = rule(
  'UBL-CR-665',
  'warning',
  'A UBL invoice should not include the AdditionalDocumentReference ID schemeID unless the ID equals 130',
);
const CR666 = rule(
  'UBL-CR-666',
  'fatal',
  'A UBL invoice shall not include an AdditionalDocumentReference simultaneously referring an Invoice Object Identifier and an Attachment',
);
const CR673 = rule(
  'UBL-CR-673',
  'fatal',
  'A UBL invoice shall not include an AdditionalDocumentReference simultaneously referring an Invoice Object Identifier and an Document Description',
);
// UBL-CR-674 never fires in CEN 1.3.14.1 and 1.3.15 (it names cbc:PrimaryAccountNumber, which UBL does not
// have); CEN 1.3.16 checks the card number's scheme identifier.
const CR674 = rule('UBL-CR-674', 'warning', 'A UBL invoice should not include the PrimaryAccountNumberID @schemeID');

/** Does `n` (matched on the last step) have the earlier steps as its ancestors? */
function endsWithPath(n: XNode, steps: string[]): boolean {
  let cur: XNode | null = n;
  for (let i = steps.length - 1; i >= 0; i--) {
    if (!cur || cur.name !== steps[i]) return false;
    cur = cur.parent;
  }
  return true;
}

const MAX_DEPTH = Math.max(...COMPILED.map((c) => c.steps.length));

/**
 * Every relative element path (and 'path@attribute') below `base`, up to the deepest restricted path.
 * One walk per scope instead of one path query per rule keeps the 670 checks cheap on long documents.
 */
function pathsBelow(base: XNode, skip: string | undefined): Set<string> {
  const out = new Set<string>();
  const walk = (n: XNode, prefix: string, depth: number) => {
    for (const c of n.children) {
      if (c.name === skip) continue;
      const p = prefix ? `${prefix}/${c.name}` : c.name;
      out.add(p);
      for (const a in c.attrs) out.add(`${p}@${a}`);
      if (depth + 1 < MAX_DEPTH && c.children.length) walk(c, p, depth + 1);
    }
  };
  walk(base, '', 0);
  return out;
}

function present(paths: Set<string>, c: Compiled): boolean {
  return paths.has(c.key);
}

export function restrictedRules(ctx: Ctx): void {
  const { root } = ctx;
  const rootPaths = pathsBelow(root, ctx.lineName);
  const linePaths = ctx.lines.map((l) => pathsBelow(l, undefined));
  for (const c of COMPILED) {
    // CEN 1.3.15 dropped UBL-CR-631 (a repetition of UBL-CR-628).
    if (c.rule.id === 'UBL-CR-631' && ctx.cenFrom('1.3.15')) continue;
    if (c.scope === 'root') {
      if (present(rootPaths, c)) ctx.fail(c.rule, root);
    } else if (c.scope === 'line') {
      ctx.lines.forEach((line, i) => {
        if (present(linePaths[i]!, c)) ctx.fail(c.rule, line);
      });
    } else {
      let hit: boolean;
      if (c.steps.length === 0) hit = ctx.elements().some((e) => attr(e, c.attr!) !== undefined);
      else
        hit = ctx
          .desc(c.steps[c.steps.length - 1]!)
          .some((n) => endsWithPath(n, c.steps) && (c.attr ? attr(n, c.attr) !== undefined : true));
      if (hit) ctx.fail(c.rule, root);
    }
  }
  if (ctx.cenFrom('1.3.16') && ctx.desc('cbc:PrimaryAccountNumberID').some((n) => attr(n, 'schemeID') !== undefined))
    ctx.fail(CR674, root);
  const v = kids(root, 'cbc:UBLVersionID');
  if (v.length > 0 && !v.every((n) => str(n) === '2.1')) ctx.fail(CR002, root);
  if (ctx.kind === 'Invoice' && all(root, 'cac:PaymentMeans/cbc:PaymentDueDate').length > 0) ctx.fail(CR412, root);
  for (const adr of kids(root, 'cac:AdditionalDocumentReference')) {
    const is130 = normSpace(str(kid(adr, 'cbc:DocumentTypeCode'))) === '130';
    if (is130) {
      if (kid(adr, 'cac:Attachment')) ctx.fail(CR666, adr);
      if (kid(adr, 'cbc:DocumentDescription')) ctx.fail(CR673, adr);
    } else if (kids(adr, 'cbc:ID').some((id) => attr(id, 'schemeID') !== undefined)) ctx.fail(CR665, adr);
  }
}
