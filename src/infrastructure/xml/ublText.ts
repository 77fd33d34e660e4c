import type libxmljs from 'libxmljs';
import type { StoredUblRules } from '../../application/ports/storedUblRules.js';
import { readCii } from '../../domain/document/ubl/ciiReader.js';
import type { Document } from '../../domain/document/invoice/documentModel.js';
import { readUbl, UblReadError } from '../../domain/document/ubl/ublReader.js';
import { XmlInputError } from '../../domain/validation/errors.js';
import {
  ublTreeOf,
  validateUblTree,
  type RuleLayer,
  type RuleSet,
  type UblTree,
  type ValidationIssue,
  type XmlLimits,
} from '../../domain/validation/index.js';
import type { XNode } from '../../domain/xml/xmlTree.js';
import { MalformedXml, parseOwnXml, parseUntrustedXml } from './xmlParser.js';

/*
 * UBL (and CII) text in: parsed once into the tree (xmlParser.ts), which the rules, the readers
 * and, for uploads, the XSD (through libxml2's document of the same parse) all use.
 */

/** An uploaded UBL, parsed: its text, its tree, and libxml2's document for the XSD. */
export interface ParsedUbl {
  text: string;
  tree: UblTree;
  native: libxmljs.XMLDocument;
}

/**
 * Untrusted UBL (text, or bytes in UTF-8 or UTF-16) → its tree. Throws XmlInputError when the input
 * is not acceptable XML (malformed, DOCTYPE/entities, wrong root), XmlLimitExceeded when it is beyond
 * `limits`, XmlEncodingError when bytes are not text in their encoding.
 */
export function parseUbl(input: string | Uint8Array, limits?: XmlLimits): ParsedUbl {
  const { text, root, native } = parseUntrustedXml(input, limits);
  return { text, tree: ublTreeOf(root), native };
}

/** Every EN 16931 and Peppol rule on untrusted UBL (errors as parseUbl's). */
export function validateUbl(
  input: string | Uint8Array,
  options?: { layers?: RuleLayer[]; limits?: XmlLimits; ruleSet?: RuleSet },
): ValidationIssue[] {
  return validateUblTree(parseUbl(input, options?.limits).tree, {
    layers: options?.layers,
    ruleSet: options?.ruleSet,
  });
}

/** UBL this service wrote and stored: no gate for untrusted input (xmlParser.parseOwnXml). */
export function parseOwnUbl(xml: string): UblTree {
  return ublTreeOf(parseOwnXml(xml));
}

/** The rules over UBL this service stored (SendDocument checks a PDF draft's before it leaves). */
export class StoredUblValidator implements StoredUblRules {
  check(ubl: string): ValidationIssue[] {
    return validateUblTree(parseOwnUbl(ubl));
  }
}

/**
 * Untrusted XML for the readers: refused as UblReadError, as readers say it (not well-formed, over
 * a limit, DOCTYPE …).
 */
export function parseForReading(xml: string | Uint8Array): XNode {
  try {
    return parseUntrustedXml(xml).root;
  } catch (error) {
    if (error instanceof MalformedXml) throw new UblReadError(`not well-formed XML: ${error.detail}`);
    if (error instanceof XmlInputError) throw new UblReadError(error.message);
    throw error;
  }
}

/** A UBL Invoice/CreditNote's text → the document model (UblReadError when it cannot be read). */
export const readUblText = (xml: string): Document => readUbl(parseForReading(xml));

/** A CII invoice's text → the document model (UblReadError when it cannot be read). */
export const readCiiText = (xml: string): Document => readCii(parseForReading(xml));
