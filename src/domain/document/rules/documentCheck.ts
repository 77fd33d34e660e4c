import { LATEST_RULE_SET, validateUblTree, type RuleSet, type ValidationIssue } from '../../validation/index.js';
import type { Document } from '../invoice/documentModel.js';
import { completeDocument } from '../invoice/documentTotals.js';
import { missingRequiredFields } from './documentCompleteness.js';
import { serializeUbl, writeUblTree } from '../ubl/ublWriter.js';

/** One problem as the Validation result lists it (the client's UblDocumentValidation.Issue). */
export interface ValidationResultIssue {
  message: string;
  type: 'error' | 'warning';
  flag: 'fatal' | 'warning';
  rule_id: string | null;
  location: string | null;
  /** Which rule set reported it. */
  schematron: string;
}

export interface DocumentCheck {
  /** The document with every total the caller omitted computed. */
  document: Document;
  ubl: string;
  issues: ValidationResultIssue[];
  isValid: boolean;
}

/** Rules that state the same requirement as another (the allowance/charge reason twice over). */
const SAME_RULE: Readonly<Record<string, string[]>> = {
  'BR-33': ['BR-CO-21'],
  'BR-38': ['BR-CO-22'],
  'BR-42': ['BR-CO-23'],
  'BR-44': ['BR-CO-24'],
};

const NATIONAL = /^(DE|DK|GR|IT|NL|NO|SE|IS|AUNZ|SG|JP)-/;

export function schematronOf(ruleId: string): string {
  if (ruleId.startsWith('PEPPOL-') || NATIONAL.test(ruleId)) return 'PEPPOL-EN16931-UBL';
  return 'CEN-EN16931-UBL';
}

export function issueFromRule(issue: ValidationIssue): ValidationResultIssue {
  return {
    message: issue.message,
    type: issue.flag === 'fatal' ? 'error' : 'warning',
    flag: issue.flag,
    rule_id: issue.rule_id,
    location: issue.location,
    schematron: schematronOf(issue.rule_id),
  };
}

/**
 * JSON document → completed totals → UBL → every EN 16931 and Peppol rule. A document is
 * valid when neither our field checks nor any fatal rule object. The rules check the tree the
 * writer built, the one its text is serialised from: our own UBL is never parsed back.
 */
export function checkDocument(input: Document, ruleSet: RuleSet = LATEST_RULE_SET): DocumentCheck {
  const completed = completeDocument(input, 'strict');
  const tree = writeUblTree(completed.document);
  const ubl = serializeUbl(tree);
  const missing = missingRequiredFields(input, ruleSet);
  // A field already named as missing is not named missing again by the totals' check (one problem, one issue).
  const missingFields = new Set(missing.map((p) => p.field));
  const fieldProblems = [
    ...missing,
    ...completed.problems.filter((p) => !(p.type === 'missing' && missingFields.has(p.field))),
  ];
  const fieldIssues: ValidationResultIssue[] = fieldProblems.map((p) => ({
    message: `${p.field}: ${p.message}`,
    type: 'error',
    flag: 'fatal',
    rule_id: p.rule_id ?? null,
    location: p.field,
    schematron: 'JSON',
  }));
  // A rule a field check already reported (naming the field to fill) is not repeated by the engine.
  const covered = new Set(
    fieldProblems.flatMap((p) => (p.rule_id ? [p.rule_id, ...(SAME_RULE[p.rule_id] ?? [])] : [])),
  );
  const ruleIssues = validateUblTree(tree, { ruleSet })
    .filter((issue) => !covered.has(issue.rule_id))
    .map(issueFromRule);
  const issues = [...fieldIssues, ...ruleIssues];
  return { document: completed.document, ubl, issues, isValid: !issues.some((i) => i.flag === 'fatal') };
}

/** The first five fatal rules as `[rule] message`, for the message that refuses a document over them. */
export const fatalRuleSummary = (fatal: ReadonlyArray<ValidationIssue>): string =>
  fatal
    .slice(0, 5)
    .map((issue) => `[${issue.rule_id}] ${issue.message}`)
    .join('; ');
