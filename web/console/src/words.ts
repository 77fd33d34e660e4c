/** The service's codes as people say them: units, lifecycle steps, who acted. */
import type { NamedUnitCode } from '../../../src/domain/document/invoice/codeLists.js';
import type { WebhookEventKind } from '../../../src/domain/webhook/webhook.js';

/** Each named unit (the service's own list: a new code there must be named here), singular and plural. */
const UNITS: Record<NamedUnitCode, [string, string]> = {
  C62: ['piece', 'pieces'],
  H87: ['piece', 'pieces'],
  EA: ['each', 'each'],
  HUR: ['hour', 'hours'],
  DAY: ['day', 'days'],
  WEE: ['week', 'weeks'],
  MON: ['month', 'months'],
  ANN: ['year', 'years'],
  MIN: ['minute', 'minutes'],
  MTR: ['metre', 'metres'],
  MTK: ['square metre', 'square metres'],
  MTQ: ['cubic metre', 'cubic metres'],
  KMT: ['kilometre', 'kilometres'],
  KGM: ['kilogram', 'kilograms'],
  TNE: ['tonne', 'tonnes'],
  LTR: ['litre', 'litres'],
  KWH: ['kilowatt hour', 'kilowatt hours'],
  SET: ['set', 'sets'],
  PR: ['pair', 'pairs'],
  XBX: ['box', 'boxes'],
  ZZ: ['unit', 'units'],
};

/** The units the new-invoice form offers, by their names. */
export const FORM_UNITS: NamedUnitCode[] = [
  'C62',
  'HUR',
  'DAY',
  'WEE',
  'MON',
  'KGM',
  'MTR',
  'LTR',
  'KWH',
  'SET',
  'XBX',
];

/** "2 days", "1 hour", "3.5 hours"; a code without a name here is shown as it is. */
export function quantityWithUnit(
  quantity: string | number | null | undefined,
  unit: string | null | undefined,
): string {
  const q = quantity === null || quantity === undefined ? '' : String(quantity);
  if (!unit) return q;
  const names = (UNITS as Record<string, [string, string] | undefined>)[unit];
  if (!names) return `${q} ${unit}`;
  return `${q} ${Number(q) === 1 ? names[0] : names[1]}`.trim();
}

export function unitName(unit: NamedUnitCode): string {
  return UNITS[unit][1];
}

/** The lifecycle's step types (GET /api/documents/{id}/timeline) in words. */
const STEPS: Record<string, string> = {
  created: 'Created',
  validated: 'Checked against the rules',
  attachment_added: 'Attachment added',
  attachment_removed: 'Attachment removed',
  deleted: 'Deleted',
  send_requested: 'Sending requested',
  delivery_attempted: 'Delivery attempted',
  sent: 'Delivered',
  failed: 'Delivery failed',
  received: 'Received',
  accepted: 'Accepted',
  rejected: 'Rejected',
  response_received: "The buyer's answer received",
  response_delivery_attempted: 'Answer sent to the supplier',
  mls_received: "The receiving provider's status received",
};

export function stepName(type: string): string {
  const known = STEPS[type];
  if (known) return known;
  const words = type.replace(/[._]/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The service's own workers, as its events record them. */
const SERVICE_ACTORS: Record<string, string> = {
  delivery: 'by the delivery service',
  'as4-inbox': 'over Peppol (AS4)',
  'response-delivery': "by the delivery of the buyer's answer",
  'response-router': 'over Peppol (AS4)',
  'mls-responder': 'by the receiving provider',
  webhooks: 'by the webhooks service',
};

/**
 * Who acted, in words: the key's name when known; the operator; the service's own work; an actor
 * the service already names in words ("API key 'erp' (…)") as it is. A key's id is never shown.
 */
export function actorWords(actor: string | null | undefined, keyName?: string | null): string | null {
  if (keyName) return `by key ${keyName}`;
  if (!actor || actor === 'unknown') return null;
  if (actor.startsWith('key:')) return 'by an API key';
  if (actor === 'operator') return 'by the operator';
  if (/^[a-z0-9-]+$/.test(actor)) return SERVICE_ACTORS[actor] ?? 'by the service';
  return `by ${actor}`;
}

/** The webhook event kinds in words (each shown with its code, which is what a receiver reads). */
const EVENT_KINDS: Record<WebhookEventKind, string> = {
  'document.created': 'Document created',
  'document.transit': 'Sending started',
  'document.sent': 'Delivered',
  'document.failed': 'Delivery failed',
  'document.received': 'Document received',
  'document.accepted': 'Accepted',
  'document.rejected': 'Rejected',
  'document.deleted': 'Deleted',
  'document.mls_received': "Receiving provider's status",
};

export function eventKindName(kind: string): string {
  if (kind === '*') return 'Every event';
  return (EVENT_KINDS as Record<string, string | undefined>)[kind] ?? stepName(kind.replace(/^document\./, ''));
}
