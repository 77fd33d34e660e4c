import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import libxmljs from 'libxmljs';
import type { XMLDocument } from 'libxmljs';

/** One schema violation; line is the line of the offending node in the validated XML when libxml knows it. */
export interface SchemaIssue {
  message: string;
  line?: number;
}

const INVOICE_NS = 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2';
const CREDIT_NOTE_NS = 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2';

/**
 * The .xsd files: a build generation carries its own copy beside this module (scripts/build), so a
 * running process never reads schemas a checkout may change under it. A developer's bare `tsc`
 * output (dist/) has none: there they are read from the source tree, found from the repository
 * root (the first folder above this module that holds package.json).
 */
const schemaDir = (): string => {
  const beside = path.join(path.dirname(fileURLToPath(import.meta.url)), 'schemas');
  if (fs.existsSync(beside)) return beside;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error('schemaValidator: repository root (package.json) not found');
    dir = up;
  }
  return path.join(dir, 'src', 'infrastructure', 'xml', 'schemas');
};

const cache = new Map<string, XMLDocument>();
const schemaFor = (root: 'Invoice' | 'CreditNote'): XMLDocument => {
  let schema = cache.get(root);
  if (!schema) {
    const dir = schemaDir();
    // baseUrl lets libxml resolve the xs:import schemaLocation of cac.xsd / cbc.xsd next to the root schema.
    schema = libxmljs.parseXml(fs.readFileSync(path.join(dir, `${root}.xsd`), 'utf8'), {
      baseUrl: `${dir}${path.sep}`,
      nonet: true,
    });
    cache.set(root, schema);
  }
  return schema;
};

/**
 * Validates a UBL Invoice or CreditNote given as text against our Peppol BIS subset schema; an empty
 * array means valid. Uploads are not parsed again for this: see schemaIssuesOf.
 */
export const validateAgainstSchema = (xml: string): SchemaIssue[] => {
  if (/<!DOCTYPE/i.test(xml)) return [{ message: 'DOCTYPE declarations are not accepted' }];
  let doc: XMLDocument;
  try {
    doc = libxmljs.parseXml(xml, { nonet: true, replaceEntities: false });
  } catch (e) {
    return [{ message: `not well-formed XML: ${(e as Error).message.trim()}` }];
  }
  return schemaIssuesOf(doc);
};

/** The schema's verdict on a document libxml2 parsed already (the upload's one parse, xmlParser.ts). */
export const schemaIssuesOf = (doc: XMLDocument): SchemaIssue[] => {
  const root = doc.root();
  const ns = root?.namespace()?.href() ?? '';
  const kind =
    root?.name() === 'Invoice' && ns === INVOICE_NS
      ? 'Invoice'
      : root?.name() === 'CreditNote' && ns === CREDIT_NOTE_NS
        ? 'CreditNote'
        : null;
  if (!kind) return [{ message: `root element must be a UBL Invoice or CreditNote, got {${ns}}${root?.name() ?? ''}` }];
  if (doc.validate(schemaFor(kind)) === true) return [];
  const errors = doc.validationErrors as Array<{ message?: string; line?: number }>;
  const issues = errors.map((e) => {
    const issue: SchemaIssue = { message: String(e.message ?? e).trim() };
    if (typeof e.line === 'number' && e.line > 0) issue.line = e.line;
    return issue;
  });
  return issues.length > 0 ? issues : [{ message: 'document is not valid against the schema' }];
};
