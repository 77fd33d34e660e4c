export const NS = {
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  ext: 'urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2',
  invoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  creditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  applicationResponse: 'urn:oasis:names:specification:ubl:schema:xsd:ApplicationResponse-2',
} as const;

/** Canonical prefix per namespace, so rules can match on 'cbc:ID' whatever prefixes the sender used. */
export const CANONICAL_PREFIX: ReadonlyMap<string, string> = new Map([
  [NS.cbc, 'cbc:'],
  [NS.cac, 'cac:'],
  [NS.ext, 'ext:'],
  [NS.invoice, ''],
  [NS.creditNote, ''],
]);

/**
 * The name an element of a parsed tree has (XNode.name): the canonical prefix of a UBL namespace
 * ('cbc:ID', 'Invoice'), `{uri}local` in any other namespace, the bare local name in none.
 */
export function treeName(uri: string, local: string): string {
  const canon = CANONICAL_PREFIX.get(uri);
  return canon !== undefined ? canon + local : uri ? `{${uri}}${local}` : local;
}
