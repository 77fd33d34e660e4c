// PEPPOL-COMMON-R0xx: syntax and check digits of national identifiers, keyed by schemeID (ICD / EAS code).
import { Ctx, rule, type Rule } from '../../context.js';
import { attr, kid, normSpace, str, type XNode } from '../../../xml/xmlTree.js';

const digits = (s: string) => [...s].map((c) => c.charCodeAt(0) - 48);

/** GS1 GLN check digit: weights 3,1,3,1… from the right, excluding the check digit. */
export function glnOk(v: string): boolean {
  if (!/^[0-9]+$/.test(v)) return false;
  const d = digits(v);
  const body = d.slice(0, -1).reverse();
  const sum = body.reduce((a, x, i) => a + x * (i % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === d[d.length - 1];
}

/** Norwegian organisation number: 9 digits, mod 11 with weights 2..7 from the right. */
export function noOrgOk(v: string): boolean {
  if (!/^[0-9]{9}$/.test(v) || Number(v) <= 0) return false;
  const d = digits(v);
  const weights = [3, 2, 7, 6, 5, 4, 3, 2];
  const sum = weights.reduce((a, w, i) => a + w * d[i]!, 0);
  const check = (11 - (sum % 11)) % 11;
  return check !== 10 && check === d[8];
}

/** Belgian enterprise number: 10 digits, last two = 97 - (first 8 mod 97). */
export function beEnterpriseOk(v: string): boolean {
  if (!/^[0-9]{10}$/.test(v)) return false;
  return 97 - (Number(v.slice(0, 8)) % 97) === Number(v.slice(8));
}

/** Italian Codice Fiscale: 11-character number or 16-character personal code. */
export function itFiscalCodeOk(v: string): boolean {
  if (v.length === 11) return /^[+-]?[0-9]+$/.test(v);
  if (v.length !== 16) return false;
  return /^[A-Z]{6}[0-9]{2}[A-Z][0-9]{2}.{3}[0-9][A-Z]$/.test(v);
}

/** Partita IVA check: digits at odd positions as-is, even positions doubled (digit sum), total mod 10 = 0. */
export function pivaOk(code: string): boolean {
  if (!/^[0-9]+$/.test(code)) return false;
  let sum = 0;
  digits(code).forEach((d, i) => {
    if (i % 2 === 0) sum += d;
    else sum += d * 2 > 9 ? d * 2 - 9 : d * 2;
  });
  return sum % 10 === 0;
}

export function itVatOk(v: string): boolean {
  const country = v.slice(0, 2);
  if (country !== 'IT' && country !== 'it') return true;
  const code = v.slice(2);
  return code.length === 11 && pivaOk(code);
}

/** Swedish organisation number: 10 digits with a Luhn check digit. */
export function seOrgOk(v: string): boolean {
  if (v.length !== 10 || !/^[0-9]+$/.test(v)) return false;
  const d = digits(v);
  let sum = 0;
  for (let pos = 1; pos <= 9; pos++) {
    const digit = d[9 - pos]!;
    if (pos % 2 === 1) {
      const dbl = digit * 2;
      sum += dbl > 9 ? dbl - 9 : dbl;
    } else sum += digit;
  }
  return (10 - (sum % 10)) % 10 === d[9];
}

/** Australian Business Number: 11 digits, weighted sum divisible by 89. */
export function abnOk(v: string): boolean {
  if (!/^[0-9]{11}$/.test(v)) return false;
  const d = digits(v);
  const weights = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
  const sum = (d[0]! - 1) * 10 + d.slice(1).reduce((a, x, i) => a + x * weights[i + 1]!, 0);
  return sum % 89 === 0;
}

interface IdRule {
  rule: Rule;
  /** The scheme identifier (schemeID) the rule checks; for R056-2, the Dutch VAT identifiers. */
  applies: (n: XNode, kind: 'endpoint' | 'other') => boolean;
  ok: (raw: string) => boolean;
  /** First Peppol release with the rule. */
  from?: string;
}

const T = (raw: string) => normSpace(raw);
const scheme =
  (code: string, endpointOnly = false) =>
  (n: XNode, kind: 'endpoint' | 'other') =>
    attr(n, 'schemeID') === code && (!endpointOnly || kind === 'endpoint');
/** A VAT identifier (PartyTaxScheme of the VAT scheme) that begins with NL. */
const dutchVat = (n: XNode) =>
  n.name === 'cbc:CompanyID' &&
  n.parent?.name === 'cac:PartyTaxScheme' &&
  normSpace(str(kid(kid(n.parent, 'cac:TaxScheme'), 'cbc:ID'))) === 'VAT' &&
  normSpace(str(n)).startsWith('NL');
const DUTCH_VAT_RE = /^NL[0-9]{9}B[0-9]{2}$/;

/**
 * In the order the official rules try them: an identifier is checked by the first rule that applies
 * to it (only R056-2 can overlap another, for a Dutch VAT identifier that also has a schemeID).
 */
const ID_RULES: IdRule[] = [
  {
    rule: rule('PEPPOL-COMMON-R040', 'fatal', 'GLN must have a valid format according to GS1 rules.'),
    applies: scheme('0088'),
    ok: (r) => glnOk(T(r)),
  },
  {
    rule: rule('PEPPOL-COMMON-R041', 'fatal', 'Norwegian organization number MUST be stated in the correct format.'),
    applies: scheme('0192'),
    ok: (r) => noOrgOk(T(r)),
  },
  {
    rule: rule('PEPPOL-COMMON-R042', 'fatal', 'Danish organization number (CVR) MUST be stated in the correct format.'),
    applies: scheme('0184'),
    ok: (r) => /^[0-9]{8}$/.test(r) || /^DK[0-9]{8}$/.test(r),
  },
  {
    rule: rule('PEPPOL-COMMON-R052', 'fatal', 'A Danish P-number (scheme 0096) must be exactly ten digits.'),
    applies: scheme('0096'),
    ok: (r) => /^[0-9]{10}$/.test(r),
    from: '3.0.21',
  },
  {
    rule: rule(
      'PEPPOL-COMMON-R053',
      'fatal',
      'A Danish SE number (scheme 0198) must be the letters DK followed by eight digits.',
    ),
    applies: scheme('0198'),
    ok: (r) => /^DK[0-9]{8}$/.test(r),
    from: '3.0.21',
  },
  {
    rule: rule('PEPPOL-COMMON-R043', 'fatal', 'Belgian enterprise number MUST be stated in the correct format.'),
    applies: scheme('0208'),
    ok: (r) => beEnterpriseOk(T(r)),
  },
  {
    rule: rule(
      'PEPPOL-COMMON-R044',
      'warning',
      'IPA Code (Codice Univoco Unità Organizzativa) must be stated in the correct format',
    ),
    applies: scheme('0201'),
    ok: (r) => /^[a-zA-Z0-9]{6}$/.test(T(r)),
  },
  {
    rule: rule('PEPPOL-COMMON-R045', 'warning', 'Tax Code (Codice Fiscale) must be stated in the correct format'),
    applies: scheme('0210'),
    ok: (r) => itFiscalCodeOk(T(r)),
  },
  {
    rule: rule('PEPPOL-COMMON-R046', 'warning', 'Tax Code (Codice Fiscale) must be stated in the correct format'),
    applies: scheme('9907', true),
    ok: (r) => itFiscalCodeOk(T(r)),
  },
  {
    rule: rule('PEPPOL-COMMON-R047', 'warning', 'Italian VAT Code (Partita Iva) must be stated in the correct format'),
    applies: scheme('0211'),
    ok: (r) => itVatOk(T(r)),
  },
  {
    rule: rule('PEPPOL-COMMON-R049', 'fatal', 'Swedish organization number MUST be stated in the correct format.'),
    applies: scheme('0007'),
    ok: (r) => seOrgOk(T(r)),
  },
  {
    rule: rule('PEPPOL-COMMON-R050', 'fatal', 'Australian Business Number (ABN) MUST be stated in the correct format.'),
    applies: scheme('0151'),
    ok: (r) => abnOk(T(r)),
  },
  {
    rule: rule('PEPPOL-COMMON-R054', 'warning', 'A Dutch KVK number (scheme 0106) should be eight digits.'),
    applies: scheme('0106'),
    ok: (r) => /^[0-9]{8}$/.test(T(r)),
    from: '3.0.21',
  },
  {
    rule: rule('PEPPOL-COMMON-R055', 'warning', 'A Dutch OIN (scheme 0190) should be twenty digits.'),
    applies: scheme('0190'),
    ok: (r) => /^[0-9]{20}$/.test(T(r)),
    from: '3.0.21',
  },
  {
    rule: rule(
      'PEPPOL-COMMON-R056-1',
      'warning',
      'A Dutch VAT number (scheme 9944) should be NL, nine digits, the letter B and two digits.',
    ),
    applies: scheme('9944'),
    ok: (r) => DUTCH_VAT_RE.test(T(r)),
    from: '3.0.21',
  },
  {
    rule: rule(
      'PEPPOL-COMMON-R056-2',
      'warning',
      'A VAT identifier beginning with NL should be NL, nine digits, the letter B and two digits.',
    ),
    applies: dutchVat,
    ok: (r) => DUTCH_VAT_RE.test(T(r)),
    from: '3.0.21',
  },
  {
    rule: rule('PEPPOL-COMMON-R057', 'warning', 'An identifier of scheme 0217 should be twelve digits.'),
    applies: scheme('0217'),
    ok: (r) => /^[0-9]{12}$/.test(T(r)),
    from: '3.0.21',
  },
];
// PEPPOL-COMMON-R048 (scheme 9906) is disabled in Peppol 3.0.19 and 3.0.21.

function isIdentifier(n: XNode): 'endpoint' | 'other' | undefined {
  if (n.name === 'cbc:EndpointID') return 'endpoint';
  if (n.name === 'cbc:CompanyID') return 'other';
  if (n.name === 'cbc:ID' && n.parent?.name === 'cac:PartyIdentification') return 'other';
  return undefined;
}

export function identifierRules(ctx: Ctx): void {
  const rules = ID_RULES.filter((r) => r.from === undefined || ctx.peppolFrom(r.from));
  for (const el of ctx.elements()) {
    const kind = isIdentifier(el);
    if (!kind) continue;
    const r = rules.find((x) => x.applies(el, kind));
    if (r) ctx.check(r.rule, el, r.ok(str(el)));
  }
}
