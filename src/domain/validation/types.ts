export type RuleFlag = 'fatal' | 'warning';

export interface ValidationIssue {
  rule_id: string;
  type: 'error';
  flag: RuleFlag;
  message: string;
  /** XPath-like path of the offending node, e.g. /Invoice/cac:InvoiceLine[2]/cbc:LineExtensionAmount */
  /** Where it fired (an XPath); null for the count of firings past those listed. */
  location: string | null;
}

/** 'peppol' includes the national rules. */
export type RuleLayer = 'cen' | 'peppol';
