import { codeListsOf, type CodeLists } from './codelists/index.js';
import { decOf } from './decimal.js';
import { compareVersions, LATEST_RULE_SET, type RuleSet } from './ruleSets.js';
import type { RuleFlag, ValidationIssue } from './types.js';
import { all, attr, kid, kids, locationOf, normSpace, str, type XNode } from '../xml/xmlTree.js';

export interface Rule {
  id: string;
  flag: RuleFlag;
  message: string;
}

/** Firings of one rule listed in a result; more are counted in one issue. */
const MAX_LISTED_PER_RULE = 100;

export function rule(id: string, flag: RuleFlag, message: string): Rule {
  return { id, flag, message };
}

/** Per-document evaluation context: the tree, frequently used nodes, and the issue sink. */
export class Ctx {
  readonly issues: ValidationIssue[] = [];
  readonly lineName: 'cac:InvoiceLine' | 'cac:CreditNoteLine';
  readonly qtyName: 'cbc:InvoicedQuantity' | 'cbc:CreditedQuantity';
  readonly typeCodeName: 'cbc:InvoiceTypeCode' | 'cbc:CreditNoteTypeCode';
  readonly lines: XNode[];
  readonly seller: XNode | undefined;
  readonly buyer: XNode | undefined;
  readonly taxRep: XNode | undefined;
  readonly lmt: XNode | undefined;
  private descCache = new Map<string, XNode[]>();
  private allElements: XNode[] | undefined;

  constructor(
    readonly root: XNode,
    readonly kind: 'Invoice' | 'CreditNote',
    readonly ruleSet: RuleSet = LATEST_RULE_SET,
  ) {
    this.lineName = kind === 'Invoice' ? 'cac:InvoiceLine' : 'cac:CreditNoteLine';
    this.qtyName = kind === 'Invoice' ? 'cbc:InvoicedQuantity' : 'cbc:CreditedQuantity';
    this.typeCodeName = kind === 'Invoice' ? 'cbc:InvoiceTypeCode' : 'cbc:CreditNoteTypeCode';
    this.lines = kids(root, this.lineName);
    this.seller = kid(kid(root, 'cac:AccountingSupplierParty'), 'cac:Party');
    this.buyer = kid(kid(root, 'cac:AccountingCustomerParty'), 'cac:Party');
    this.taxRep = kid(root, 'cac:TaxRepresentativeParty');
    this.lmt = kid(root, 'cac:LegalMonetaryTotal');
  }

  /** The code lists of the set's release. */
  get lists(): CodeLists {
    return codeListsOf(this.ruleSet);
  }

  /** The set's CEN artefacts are this version or later: a rule changed in that version applies. */
  cenFrom(version: string): boolean {
    return compareVersions(this.ruleSet.cen, version) >= 0;
  }

  /** The set's Peppol BIS release is this version or later. */
  peppolFrom(version: string): boolean {
    return compareVersions(this.ruleSet.peppol, version) >= 0;
  }

  /** Firings of each rule so far, listed or not. */
  private readonly firings = new Map<string, { rule: Rule; count: number }>();

  fail(r: Rule, node: XNode, detail?: string): void {
    const seen = this.firings.get(r.id) ?? { rule: r, count: 0 };
    seen.count++;
    this.firings.set(r.id, seen);
    // A rule firing on every one of a million elements is listed for the first few: the answer
    // stays small, and the rest are counted (result()).
    if (seen.count > MAX_LISTED_PER_RULE) return;
    this.issues.push({
      rule_id: r.id,
      type: 'error',
      flag: r.flag,
      message: detail ? `[${r.id}] ${r.message} (${detail})` : `[${r.id}] ${r.message}`,
      location: locationOf(node),
    });
  }

  /** The issues found, with one more for each rule that fired more often than its firings listed. */
  result(): ValidationIssue[] {
    const more: ValidationIssue[] = [];
    for (const { rule: r, count } of this.firings.values()) {
      if (count <= MAX_LISTED_PER_RULE) continue;
      more.push({
        rule_id: r.id,
        type: 'error',
        flag: r.flag,
        message: `[${r.id}] ${r.message} (and ${count - MAX_LISTED_PER_RULE} more places not listed)`,
        location: null,
      });
    }
    return more.length === 0 ? this.issues : [...this.issues, ...more];
  }

  /** Assert helper: report `r` on `node` unless `ok`. */
  check(r: Rule, node: XNode, ok: boolean, detail?: string): void {
    if (!ok) this.fail(r, node, detail);
  }

  /** All elements in document order (computed once). */
  elements(): XNode[] {
    if (!this.allElements) {
      const out: XNode[] = [];
      const walk = (n: XNode) => {
        out.push(n);
        for (const c of n.children) walk(c);
      };
      walk(this.root);
      this.allElements = out;
    }
    return this.allElements;
  }

  /** '//name' from the root, cached. */
  desc(name: string): XNode[] {
    if (this.descCache.size === 0) {
      // Index every element by name in one pass; later lookups are O(1).
      const els = this.elements();
      for (let i = 1; i < els.length; i++) {
        const e = els[i]!;
        const list = this.descCache.get(e.name);
        if (list) list.push(e);
        else this.descCache.set(e.name, [e]);
      }
      this.descCache.set('', []);
    }
    return this.descCache.get(name) ?? [];
  }
}

// ---- shared UBL semantics -------------------------------------------------------------------------

/** VAT scheme filter: cac:TaxScheme/cbc:ID equals VAT after trimming and upper-casing. */
export function isVatScheme(taxCategoryOrScheme: XNode): boolean {
  return all(taxCategoryOrScheme, 'cac:TaxScheme/cbc:ID').some((id) => normSpace(str(id)).toUpperCase() === 'VAT');
}

/** Category id (normalized) of a TaxCategory / ClassifiedTaxCategory. */
export function catId(tc: XNode | undefined): string {
  return normSpace(str(kid(tc, 'cbc:ID')));
}

/** CEN reading of ChargeIndicator as xs:boolean: true/1 → true, false/0 → false, else undefined. */
export function cenChargeIndicator(ac: XNode): boolean | undefined {
  const ci = kid(ac, 'cbc:ChargeIndicator');
  if (!ci) return undefined;
  const t = str(ci).trim();
  if (t === 'true' || t === '1') return true;
  if (t === 'false' || t === '0') return false;
  return undefined;
}

/** Peppol reading of ChargeIndicator: the trimmed text compared with 'true' / 'false'. */
export function peppolChargeIndicator(ac: XNode): 'true' | 'false' | undefined {
  const t = str(kid(ac, 'cbc:ChargeIndicator')).trim();
  return t === 'true' || t === 'false' ? t : undefined;
}

/** VAT-scheme PartyTaxScheme/cbc:CompanyID of a party (BT-31/BT-48/BT-63). */
export function vatIds(party: XNode | undefined): XNode[] {
  return kids(party, 'cac:PartyTaxScheme')
    .filter(isVatScheme)
    .flatMap((p) => kids(p, 'cbc:CompanyID'));
}

export function attrTrim(n: XNode | undefined, name: string): string | undefined {
  const v = attr(n, name);
  return v === undefined ? undefined : normSpace(v);
}

export function isDate(s: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(s);
}

/** Compare two xs:date lexical values (YYYY-MM-DD, optional zone ignored). */
export function dateOf(n: XNode | undefined): string | undefined {
  if (!n) return undefined;
  const t = str(n).trim();
  const m = /^(-?\d{4,}-\d{2}-\d{2})/.exec(t);
  return m ? m[1] : undefined;
}

export { decOf };

/** normalize-space(node) = value */
export function normSpaceEq(n: XNode | undefined, value: string): boolean {
  return n !== undefined && normSpace(str(n)) === value;
}
