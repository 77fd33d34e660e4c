// Reads the shared conformance corpus (VEFA testSets and example documents) at test time.
// Nothing of the corpus is copied into the repository.
import fs from 'node:fs';
import path from 'node:path';
import type { RuleLayer } from '../../../../src/domain/validation/index.js';
import { repoRoot } from '../../../support/repoRoot.js';

export function sharedDir(): string {
  return process.env.SHARED_DIR ? path.resolve(process.env.SHARED_DIR) : path.resolve(repoRoot, '..', 'shared');
}

export interface Expectation {
  kind: 'success' | 'error' | 'warning';
  rule: string;
  number?: number;
}

export interface UnitTest {
  index: number;
  description: string;
  expectations: Expectation[];
  document: string;
}

export interface TestSet {
  file: string; // relative to unit/
  configuration: string;
  ruleSet: string;
  scope: string[];
  layers: RuleLayer[];
  tests: UnitTest[];
}

/** Layers per README section 3. */
export function layersFor(configuration: string): RuleLayer[] {
  switch (configuration) {
    case 'tc434-ubl':
      return ['cen'];
    case 'peppolbis-en16931-base-3.0-ubl':
      return ['peppol'];
    case 'peppolbis-en16931-01-3.0-ubl-invoice':
      return ['cen', 'peppol'];
    default:
      throw new Error(`unknown testSet configuration ${configuration}`);
  }
}

/** Reporting group of a testSet file. */
export function ruleSetOf(file: string): string {
  if (file.includes('/Invoice-unit-UBL/')) return 'EN 16931 Invoice';
  if (file.includes('/CreditNote-unit-UBL/')) return 'EN 16931 CreditNote';
  if (file.includes('/unit-UBL-PEPPOL/')) return 'Peppol';
  const m = /\/unit-UBL-([A-Z]{2})\//.exec(file);
  if (m) return `National ${m[1]}`;
  return 'Other';
}

function decodeXmlText(s: string): string {
  return s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&')
    .trim();
}

/** Parse one VEFA testSet file. Comments are dropped first (some tests are commented out upstream). */
export function parseTestSet(unitDir: string, rel: string): TestSet {
  const raw = fs.readFileSync(path.join(unitDir, rel), 'utf8').replace(/<!--[\s\S]*?-->/g, '');
  const configuration = /<testSet\b[^>]*\bconfiguration="([^"]+)"/.exec(raw)?.[1];
  if (!configuration) throw new Error(`${rel}: no testSet configuration`);
  const headerEnd = raw.search(/<test[\s>]/);
  const header = headerEnd < 0 ? raw : raw.slice(0, headerEnd);
  const scope = [...header.matchAll(/<scope>([^<]*)<\/scope>/g)].map((m) => m[1]!.trim());
  const tests: UnitTest[] = [];
  const testRe = /<test(?:\s[^>]*)?>([\s\S]*?)<\/test>/g;
  let m: RegExpExecArray | null;
  while ((m = testRe.exec(raw))) {
    const body = m[1]!;
    const assertBlock = /<assert>([\s\S]*?)<\/assert>/.exec(body)?.[1] ?? '';
    const description = decodeXmlText(/<description>([\s\S]*?)<\/description>/.exec(assertBlock)?.[1] ?? '');
    const expectations: Expectation[] = [];
    for (const e of assertBlock.matchAll(/<(success|error|warning)((?:\s[^>]*)?)>([^<]*)<\/\1>/g)) {
      const num = /\bnumber="(\d+)"/.exec(e[2] ?? '')?.[1];
      expectations.push({
        kind: e[1] as Expectation['kind'],
        rule: e[3]!.trim(),
        ...(num ? { number: Number(num) } : {}),
      });
    }
    const start = body.search(/<([\w.-]+:)?(Invoice|CreditNote)[\s>]/);
    if (start < 0) throw new Error(`${rel}: test without document`);
    const rootName = /<((?:[\w.-]+:)?(?:Invoice|CreditNote))/.exec(body.slice(start))![1]!;
    const end = body.lastIndexOf(`</${rootName}>`);
    const document = body.slice(start, end + rootName.length + 3);
    tests.push({ index: tests.length + 1, description, expectations, document });
  }
  return { file: rel, configuration, ruleSet: ruleSetOf(rel), scope, layers: layersFor(configuration), tests };
}

/** Every testSet file under unit/ (any extension: one upstream file is named *.xm). */
export function listTestSets(unitDir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.xml?$/.test(e.name)) out.push(path.relative(unitDir, p));
    }
  };
  walk(unitDir);
  return out.sort();
}

export interface ExampleRow {
  path: string;
  root: string;
  xsdValid: string;
  cenFatal: string[];
  cenWarning: string[];
  peppolFatal: string[];
  peppolWarning: string[];
}

export function readExpected(examplesDir: string): ExampleRow[] {
  const lines = fs.readFileSync(path.join(examplesDir, 'EXPECTED.tsv'), 'utf8').split(/\r?\n/).filter(Boolean);
  const header = lines.shift()!.split('\t');
  const col = (name: string) => {
    const i = header.indexOf(name);
    if (i < 0) throw new Error(`EXPECTED.tsv: missing column ${name}`);
    return i;
  };
  const ids = (v: string | undefined) =>
    !v || v === '-'
      ? []
      : v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
          .sort();
  return lines.map((l) => {
    const c = l.split('\t');
    return {
      path: c[col('path')]!,
      root: c[col('root')]!,
      xsdValid: c[col('xsd_valid')]!,
      cenFatal: ids(c[col('cen_fatal')]),
      cenWarning: ids(c[col('cen_warning')]),
      peppolFatal: ids(c[col('peppol_fatal')]),
      peppolWarning: ids(c[col('peppol_warning')]),
    };
  });
}
