// Generates the code lists the rules check, per release, from the official validation artefacts.
//
//   npm run codelists            (or: node dist/scripts/codelists.js [path/to/phive-rules-peppol-*.jar])
//
// The official CEN and Peppol XSLT of each release (RULE_SETS[].release) are read from the
// phive-rules-peppol jar (test/interop/phive/target/lib, built by .ci/build-phive, or the local Maven
// repository .ci/m2). Each list is taken from the rule that checks it: the codes are the
// space-separated tokens of the list inside that rule's test (or of the variable it names). One module
// per list is written to src/domain/validation/codelists/, holding the set of each release. Only the
// codes are kept; no rule text or expression.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { RULE_SETS } from '../src/domain/validation/ruleSets.js';
import { repoRoot } from '../test/support/repoRoot.js';

/** PEPPOL-SB: the separate self-billing Schematron some releases ship (PEPPOL-EN16931-UBL-SB.xslt). */
type Artefact = 'CEN' | 'PEPPOL' | 'PEPPOL-SB';

interface ListSpec {
  /** Module / export name. */
  name: string;
  doc: string;
  artefact: Artefact;
  /** The rule (assert id) whose test holds the list, or the variable the rule reads it from. */
  from: { assert: string; pick?: number } | { variable: string };
}

const LISTS: ListSpec[] = [
  { name: 'easCen', doc: 'Electronic address schemes (BR-CL-25)', artefact: 'CEN', from: { assert: 'BR-CL-25' } },
  {
    name: 'easPeppol',
    doc: 'Electronic address schemes accepted by Peppol (PEPPOL-EN16931-CL008)',
    artefact: 'PEPPOL',
    from: { variable: 'eaid' },
  },
  {
    name: 'iso3166',
    doc: 'ISO 3166-1 alpha-2 country codes incl. 1A and XI (BR-CL-14/15)',
    artefact: 'CEN',
    from: { assert: 'BR-CL-14' },
  },
  {
    name: 'iso4217Cen',
    doc: 'ISO 4217 currency codes (BR-CL-03/04/05)',
    artefact: 'CEN',
    from: { assert: 'BR-CL-03' },
  },
  {
    name: 'iso4217Peppol',
    doc: 'ISO 4217 currency codes, Peppol list (PEPPOL-EN16931-CL007)',
    artefact: 'PEPPOL',
    from: { variable: 'ISO4217' },
  },
  {
    name: 'iso6523Icd',
    doc: 'ISO 6523 ICD identifier schemes (BR-CL-10/11/21/26)',
    artefact: 'CEN',
    from: { assert: 'BR-CL-10' },
  },
  { name: 'mimeTypesCen', doc: 'Attachment MIME codes (BR-CL-24)', artefact: 'CEN', from: { assert: 'BR-CL-24' } },
  {
    name: 'mimeTypes',
    doc: 'Attachment MIME codes, Peppol list (PEPPOL-EN16931-CL001)',
    artefact: 'PEPPOL',
    from: { variable: 'MIMECODE' },
  },
  {
    name: 'peppolCreditNoteTypes',
    doc: 'Credit note type codes allowed in the Peppol profiles (P0101)',
    artefact: 'PEPPOL',
    from: { assert: 'PEPPOL-EN16931-P0101' },
  },
  {
    name: 'peppolInvoiceTypes',
    doc: 'Invoice type codes allowed in the Peppol profiles (P0100)',
    artefact: 'PEPPOL',
    from: { assert: 'PEPPOL-EN16931-P0100' },
  },
  {
    name: 'peppolSelfBillingCreditNoteTypes',
    doc: 'Credit note type codes allowed in self-billing profile 01 (P0101 of the self-billing file; none in releases without one)',
    artefact: 'PEPPOL-SB',
    from: { assert: 'PEPPOL-EN16931-P0101' },
  },
  {
    name: 'peppolSelfBillingInvoiceTypes',
    doc: 'Invoice type codes allowed in self-billing profile 01 (P0100 of the self-billing file; none in releases without one)',
    artefact: 'PEPPOL-SB',
    from: { assert: 'PEPPOL-EN16931-P0100' },
  },
  { name: 'uncl4461', doc: 'UNCL 4461 payment means codes (BR-CL-16)', artefact: 'CEN', from: { assert: 'BR-CL-16' } },
  {
    name: 'uncl5189',
    doc: 'UNCL 5189 allowance reason codes, EN 16931 subset (BR-CL-19)',
    artefact: 'CEN',
    from: { assert: 'BR-CL-19' },
  },
  {
    name: 'uncl5189Peppol',
    doc: 'UNCL 5189 allowance reason codes, Peppol list (PEPPOL-EN16931-CL002)',
    artefact: 'PEPPOL',
    from: { variable: 'UNCL5189' },
  },
  {
    name: 'uncl5305',
    doc: 'UNCL 5305 VAT category codes, EN 16931 subset (BR-CL-17/18)',
    artefact: 'CEN',
    from: { assert: 'BR-CL-17' },
  },
  { name: 'uncl7161', doc: 'UNCL 7161 charge reason codes (BR-CL-20)', artefact: 'CEN', from: { assert: 'BR-CL-20' } },
  {
    name: 'uncl7161Peppol',
    doc: 'UNCL 7161 charge reason codes, Peppol list (PEPPOL-EN16931-CL003)',
    artefact: 'PEPPOL',
    from: { variable: 'UNCL7161' },
  },
  {
    name: 'unitCodes',
    doc: 'UN/ECE Recommendation 20 incl. Rec 21 unit codes (BR-CL-23)',
    artefact: 'CEN',
    from: { assert: 'BR-CL-23' },
  },
  {
    name: 'untdid1001CreditNote',
    doc: 'UNTDID 1001 credit note subset (BR-CL-01)',
    artefact: 'CEN',
    from: { assert: 'BR-CL-01', pick: 1 },
  },
  {
    name: 'untdid1001Invoice',
    doc: 'UNTDID 1001 invoice subset (BR-CL-01)',
    artefact: 'CEN',
    from: { assert: 'BR-CL-01', pick: 0 },
  },
  {
    name: 'untdid1153',
    doc: 'UNTDID 1153 reference code qualifiers (BR-CL-07)',
    artefact: 'CEN',
    from: { assert: 'BR-CL-07' },
  },
  {
    name: 'untdid2005',
    doc: 'UNTDID 2005 VAT date codes subset (BR-CL-06)',
    artefact: 'CEN',
    from: { assert: 'BR-CL-06' },
  },
  {
    name: 'untdid2005Peppol',
    doc: 'UNTDID 2005 VAT date codes, Peppol list (PEPPOL-EN16931-CL006)',
    artefact: 'PEPPOL',
    from: { variable: 'UNCL2005' },
  },
  {
    name: 'untdid4451',
    doc: 'UNTDID 4451 text subject qualifiers (BR-CL-08)',
    artefact: 'CEN',
    from: { assert: 'BR-CL-08' },
  },
  {
    name: 'untdid7143',
    doc: 'UNTDID 7143 item type identification codes (BR-CL-13)',
    artefact: 'CEN',
    from: { assert: 'BR-CL-13' },
  },
  {
    name: 'vatIdPrefixes',
    doc: 'VAT identifier country prefixes: ISO 3166-1 plus EL (BR-CO-09)',
    artefact: 'CEN',
    from: { assert: 'BR-CO-09' },
  },
  { name: 'vatex', doc: 'VATEX exemption reason codes (BR-CL-22)', artefact: 'CEN', from: { assert: 'BR-CL-22' } },
];

function findJar(): string {
  const arg = process.argv[2];
  if (arg) return path.resolve(arg);
  const root = repoRoot;
  const candidates = [
    path.join(root, 'test/interop/phive/target/lib'),
    path.join(root, '.ci/m2/com/helger/phive/rules/phive-rules-peppol'),
    path.resolve(root, '../main/test/interop/phive/target/lib'),
    path.resolve(root, '../main/.ci/m2/com/helger/phive/rules/phive-rules-peppol'),
  ];
  for (const dir of candidates) {
    if (!fs.existsSync(dir)) continue;
    const found: string[] = [];
    const walk = (d: string) => {
      for (const e of fs.readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) walk(p);
        else if (/^phive-rules-peppol-[\d.]+\.jar$/.test(e.name)) found.push(p);
      }
    };
    walk(dir);
    if (found.length > 0) return found.sort().at(-1)!;
  }
  throw new Error('phive-rules-peppol jar not found: run .ci/build-phive, or pass its path');
}

function entryOf(release: string, artefact: Artefact): string {
  if (artefact === 'PEPPOL-SB') return `external/schematron/openpeppol/${release}/xslt/PEPPOL-EN16931-UBL-SB.xslt`;
  return `external/schematron/openpeppol/${release}/xslt/${artefact}-EN16931-UBL.xslt`;
}

const unescape = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

/** The test of the assert with this id (the compiled Schematron's xsl:when before its failed-assert). */
function assertTest(xslt: string, id: string): string {
  const marker = `<xsl:attribute name="id">${id}</xsl:attribute>`;
  const at = xslt.indexOf(marker);
  if (at < 0) throw new Error(`no assert ${id}`);
  const before = xslt.slice(0, at);
  const fa = before.lastIndexOf('<svrl:failed-assert test="');
  if (fa < 0) throw new Error(`assert ${id}: no test`);
  const start = fa + '<svrl:failed-assert test="'.length;
  return unescape(xslt.slice(start, xslt.indexOf('"', start)));
}

function variableSelect(xslt: string, name: string): string {
  const m = new RegExp(`<xsl:variable name="${name}" select="([^"]*)"`).exec(xslt);
  if (!m) throw new Error(`no variable ${name}`);
  return unescape(m[1]!);
}

/**
 * The codes of a list in an expression: a quoted string of space-separated codes (the pick-th such
 * string when there are several lists), or, for a list written as comparisons with single codes,
 * all quoted codes.
 */
function codesIn(expr: string, pick = 0): string[] {
  const quoted = [...expr.matchAll(/'([^']*)'/g)].map((m) => m[1]!);
  const lists = quoted.map((q) => q.trim().split(/\s+/)).filter((t) => t.length >= 2);
  if (lists.length > 0) {
    const chosen = lists[pick];
    if (!chosen) throw new Error(`list ${pick} not found in ${expr.slice(0, 80)}`);
    return chosen;
  }
  // A list of one code, as the argument of tokenize().
  const tokenized = /tokenize\('([^']*)'/.exec(expr);
  if (tokenized && tokenized[1]!.trim() !== '') return tokenized[1]!.trim().split(/\s+/);
  const singles = quoted.filter((q) => q.trim() !== '' && !/\s/.test(q.trim()));
  if (singles.length < 2) throw new Error(`no list in ${expr.slice(0, 80)}`);
  return singles;
}

/** The codes once each, in the order the official list has them. */
function distinct(codes: string[]): string[] {
  return [...new Set(codes)];
}

function main(): void {
  const jar = findJar();
  const jarName = path.basename(jar);
  const releases = RULE_SETS.map((s) => s.release);
  const xslt = new Map<string, string>();
  const read = (release: string, artefact: Artefact) => {
    const entry = entryOf(release, artefact);
    if (!xslt.has(entry)) {
      let text = '';
      try {
        text = execFileSync('unzip', ['-p', jar, entry], { encoding: 'utf8', maxBuffer: 64 << 20, stdio: 'pipe' });
      } catch {
        // unzip: no such entry (left empty: an error below unless the artefact is optional)
      }
      xslt.set(entry, text);
    }
    const text = xslt.get(entry)!;
    // Only the self-billing file is optional: releases before 2026.5 have none (their list is empty).
    if (text.length === 0 && artefact !== 'PEPPOL-SB') throw new Error(`${jarName}: no ${entry}`);
    return text;
  };
  const out = path.join(repoRoot, 'src/domain/validation/codelists');
  const written: string[] = [];
  for (const spec of LISTS) {
    const perRelease = releases.map((release) => {
      const text = read(release, spec.artefact);
      if (text.length === 0) return { release, codes: [] as string[] };
      const expr =
        'assert' in spec.from ? assertTest(text, spec.from.assert) : variableSelect(text, spec.from.variable);
      return { release, codes: distinct(codesIn(expr, 'assert' in spec.from ? spec.from.pick : 0)) };
    });
    const source = 'assert' in spec.from ? `assert ${spec.from.assert}` : `variable ${spec.from.variable}`;
    const lines = [
      `// Generated by scripts/codelists.ts from ${jarName} ${entryOf(`{${releases.join(',')}}`, spec.artefact)}`,
      `// (${source}), do not edit.`,
      `// ${spec.doc}`,
      `import { codes, type CodeList } from './codeList.js';`,
      '',
    ];
    const constOf = new Map<string, string>();
    for (const { release, codes } of perRelease) {
      const key = codes.join(' ');
      if (constOf.has(key)) continue;
      const constName = `r${release.replace(/\W/g, '_')}`;
      constOf.set(key, constName);
      // One line per release: the official list as it is, space-separated (no code has a space).
      if (codes.some((c) => /\s/.test(c))) throw new Error(`${spec.name}: a code with white space`);
      if (codes.length === 0)
        lines.push(`// ${release}: the release has no ${path.basename(entryOf(release, spec.artefact))}.`);
      lines.push(`const ${constName} = codes('${codes.join(' ')}');`);
    }
    lines.push('', `export const ${spec.name}: CodeList = {`);
    for (const { release, codes } of perRelease) lines.push(`  '${release}': ${constOf.get(codes.join(' '))},`);
    lines.push('};', '');
    fs.writeFileSync(path.join(out, `${spec.name}.ts`), lines.join('\n'));
    written.push(path.join(out, `${spec.name}.ts`));
    const counts = perRelease.map((p) => `${p.release}: ${p.codes.length}`).join(', ');
    console.log(`${spec.name} (${spec.artefact} ${source}): ${counts}`);
  }
  execFileSync(path.join(repoRoot, 'node_modules/.bin/prettier'), ['--write', ...written], { stdio: 'ignore' });
}

main();
