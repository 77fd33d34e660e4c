import type { ValidationIssue } from '../../domain/validation/index.js';

/**
 * The business rules over UBL text this service wrote and stored: the text is parsed at the edge
 * (infrastructure/xml/ublText.ts), the rules are the domain's.
 */
export interface StoredUblRules {
  check(ubl: string): ValidationIssue[];
}

/** Injection token of the `StoredUblRules`. */
export const STORED_UBL_RULES = Symbol('StoredUblRules');
