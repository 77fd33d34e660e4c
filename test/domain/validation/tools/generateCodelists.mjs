// One-off generator: turns the public code lists (one code per line) into TypeScript
// modules so the engine does not read ../shared at run time.
// Usage: node test/domain/validation/tools/generateCodelists.mjs <codelists dir>
import fs from 'node:fs';
import path from 'node:path';
const src = process.argv[2] ?? path.resolve('..', 'shared', 'conformance', 'codelists');
const out = path.resolve('src/domain/validation/codelists');
const lists = {
  easCen: ['eas-cen-1.3.14.1.txt', 'Electronic address schemes accepted by EN 16931 1.3.14.1 (BR-CL-25)'],
  easPeppol: ['eas-peppol-3.0.19.txt', 'Electronic address schemes accepted by Peppol 3.0.19 (PEPPOL-EN16931-CL008)'],
  iso3166: ['iso3166-1-alpha2.txt', 'ISO 3166-1 alpha-2 country codes incl. 1A and XI (BR-CL-14/15)'],
  iso4217Cen: ['iso4217-cen-1.3.14.1.txt', 'ISO 4217 currency codes, CEN 1.3.14.1 list (BR-CL-03/04/05)'],
  iso4217Peppol: ['iso4217-peppol-3.0.19.txt', 'ISO 4217 currency codes, Peppol 3.0.19 list (PEPPOL-EN16931-CL007)'],
  iso6523Icd: ['iso6523-icd.txt', 'ISO 6523 ICD identifier schemes (BR-CL-10/11/21/26)'],
  mimeTypes: ['mime-types.txt', 'Attachment MIME codes (BR-CL-24, PEPPOL-EN16931-CL001)'],
  peppolCreditNoteTypes: [
    'peppol-credit-note-type-codes-3.0.19.txt',
    'Credit note type codes allowed in Peppol profile 01 (P0101)',
  ],
  peppolInvoiceTypes: [
    'peppol-invoice-type-codes-3.0.19.txt',
    'Invoice type codes allowed in Peppol profile 01 (P0100)',
  ],
  uncl4461: ['uncl4461.txt', 'UNCL 4461 payment means codes (BR-CL-16)'],
  uncl5189: ['uncl5189-subset.txt', 'UNCL 5189 allowance reason codes, EN 16931 subset (BR-CL-19, CL002)'],
  uncl5305: ['uncl5305-subset.txt', 'UNCL 5305 VAT category codes, EN 16931 subset (BR-CL-17/18)'],
  uncl7161: ['uncl7161.txt', 'UNCL 7161 charge reason codes (BR-CL-20, CL003)'],
  unitCodes: ['unece-rec20-rec21.txt', 'UN/ECE Recommendation 20 incl. Rec 21 unit codes (BR-CL-23)'],
  untdid1001CreditNote: ['untdid1001-creditnote-cen-1.3.14.1.txt', 'UNTDID 1001 credit note subset (BR-CL-01)'],
  untdid1001Invoice: ['untdid1001-invoice-cen-1.3.14.1.txt', 'UNTDID 1001 invoice subset (BR-CL-01)'],
  untdid1153: ['untdid1153.txt', 'UNTDID 1153 reference code qualifiers (BR-CL-07)'],
  untdid2005: ['untdid2005-subset.txt', 'UNTDID 2005 VAT date codes subset (BR-CL-06, CL006)'],
  untdid4451: ['untdid4451.txt', 'UNTDID 4451 text subject qualifiers (BR-CL-08)'],
  untdid7143: ['untdid7143.txt', 'UNTDID 7143 item type identification codes (BR-CL-13)'],
  vatIdPrefixes: ['vat-id-prefixes.txt', 'VAT identifier country prefixes: ISO 3166-1 plus EL (BR-CO-09)'],
  vatex: ['vatex.txt', 'VATEX exemption reason codes (BR-CL-22)'],
};
const index = [];
for (const [name, [file, doc]] of Object.entries(lists)) {
  const codes = fs
    .readFileSync(path.join(src, file), 'utf8')
    .split(/\r?\n/)
    .map((s) => s.trim())
    .filter(Boolean);
  const chunks = [];
  for (let i = 0; i < codes.length; i += 12)
    chunks.push(
      '  ' +
        codes
          .slice(i, i + 12)
          .map((c) => JSON.stringify(c))
          .join(', ') +
        ',',
    );
  fs.writeFileSync(
    path.join(out, `${name}.ts`),
    `// Generated from the public code list (${codes.length} codes); do not edit by hand.\n// ${doc}\nexport const ${name}: ReadonlySet<string> = new Set([\n${chunks.join('\n')}\n]);\n`,
  );
  index.push(`export { ${name} } from './${name}.js';`);
}
fs.writeFileSync(
  path.join(out, 'index.ts'),
  '// Code lists used by the rules (generated modules, see test/domain/validation/tools/generateCodelists.mjs).\n' +
    index.join('\n') +
    '\n',
);
console.log('generated', Object.keys(lists).length, 'lists');
