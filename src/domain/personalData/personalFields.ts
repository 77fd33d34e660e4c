/*
 * Which recorded values are personal data: those that name or reach a person rather than a
 * party of the invoice (docs/operating/retention-and-erasure.md says why these and not others).
 * They are kept encrypted with their tenant's key (application/personalData), and shown as ERASED
 * once that key is destroyed.
 */

/** What an erased value reads as, wherever the API would have shown it. */
export const ERASED = '[erased]';

/**
 * The document fields that are personal: the contacts' e-mail addresses and the names of the
 * people at each address (the UBL's cac:Contact/cbc:Name, "attn." lines). The parties' names,
 * addresses and identifiers are the invoice's mandatory content (VAT Directive art. 226) and are
 * not: they stay readable for as long as the document is kept.
 */
export const DOCUMENT_PERSONAL_FIELDS = [
  'vendor_email',
  'customer_email',
  'vendor_address_recipient',
  'customer_address_recipient',
  'billing_address_recipient',
  'shipping_address_recipient',
  'remittance_address_recipient',
  'service_address_recipient',
] as const;
export type DocumentPersonalField = (typeof DOCUMENT_PERSONAL_FIELDS)[number];

/** A path into an event's data. */
export type DataPath = readonly string[];

const HEADER_PATHS: DataPath[] = [
  ['header', 'vendor_email'],
  ['header', 'customer_email'],
];

/**
 * The personal values of an event's data, by path: the header's e-mail addresses of a created or
 * received document, the test-mode address a delivery goes to (and an e-mail attempt's receiver,
 * which is that address), the tenant's test-mode address.
 */
export function personalPathsOf(type: string, data: unknown): DataPath[] {
  switch (type) {
    case 'DocumentCreated':
    case 'DocumentReceived':
      return HEADER_PATHS;
    case 'SendRequested':
      return [['email']];
    case 'DeliveryAttempted':
      return (data as { transport?: unknown }).transport === 'email' ? [['receiver']] : [];
    case 'TenantTestModeChanged':
      return [['test_mode_email']];
    default:
      return [];
  }
}

/** The event types with personal values (personalPathsOf): a reader of any other passes it as it is. */
export const PERSONAL_EVENT_TYPES: ReadonlySet<string> = new Set([
  'DocumentCreated',
  'DocumentReceived',
  'SendRequested',
  'DeliveryAttempted',
  'TenantTestModeChanged',
]);

/**
 * A document (its content, or the API's resource) with each personal field that has a value
 * shown as ERASED: what a tenant whose personal data was erased sees.
 */
export function erasedDocument<D extends object>(document: D): D {
  const out = { ...document } as Record<string, unknown>;
  for (const field of DOCUMENT_PERSONAL_FIELDS)
    if (typeof out[field] === 'string' && out[field] !== '') out[field] = ERASED;
  return out as D;
}
