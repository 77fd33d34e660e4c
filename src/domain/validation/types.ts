export type RuleFlag = 'fatal' | 'warning';

export interface ValidationIssue {
  rule_id: string;
  type: 'error';
  flag: RuleFlag;
  message: string;
  /** XPath-like path of the offending node, e.g. /Invoice/cac:InvoiceLine[2]/cbc:LineExtensionAmount */
  location: string;
}

/** 'peppol' includes the national rules. */
export type RuleLayer = 'cen' | 'peppol';
