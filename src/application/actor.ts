import { assertNever } from '../domain/decider.js';

/**
 * The service's own jobs that cause events: the delivery process manager, the one that takes a
 * buyer's answer back to the seller's access point, the router of answers between tenants of this
 * instance, the webhook dispatcher, the monthly Peppol reporting, and the organization created at
 * start for BOOTSTRAP_ADMIN_KEY.
 */
export const SYSTEM_JOBS = [
  'delivery',
  'response-delivery',
  'response-router',
  'webhooks',
  'peppol-reporting',
  'network-messages',
  'mls-responder',
  'bootstrap',
] as const;
export type SystemJob = (typeof SYSTEM_JOBS)[number];

/**
 * Who caused an event, as its metadata records it (`metadata.actor`): a tenant's API key, an
 * organization's admin key (each with its id and its name at the time), the operator, another
 * access point (its Peppol seat id, the CN of the certificate its message was signed with), or
 * one of the service's jobs. `unknown` only for events recorded before actors were recorded, where
 * nothing tells.
 */
export type Actor =
  | { kind: 'api_key'; keyId: string; keyName: string | null; tenantId: string | null }
  | { kind: 'organization_admin'; keyId: string; keyName: string | null; organizationId: string | null }
  | { kind: 'operator' }
  /** seatId null: an old event that did not record which access point. */
  | { kind: 'access_point'; seatId: string | null }
  | { kind: 'system'; job: SystemJob }
  | { kind: 'unknown' };

export const OPERATOR: Actor = { kind: 'operator' };
export const systemActor = (job: SystemJob): Actor => ({ kind: 'system', job });
export const accessPointActor = (seatId: string): Actor => ({ kind: 'access_point', seatId });

/** What the system jobs are called in words. */
const JOB_WORDS: Record<SystemJob, string> = {
  delivery: 'delivery job',
  'response-delivery': 'response delivery job',
  'response-router': 'response router',
  webhooks: 'webhook dispatcher',
  'peppol-reporting': 'Peppol reporting job',
  'network-messages': 'network message delivery job',
  'mls-responder': 'MLS responder',
  bootstrap: 'start-up (BOOTSTRAP_ADMIN_KEY)',
};

const LEGACY_KEY = /^key:([0-9a-f-]{36})$/;
const isJob = (value: unknown): value is SystemJob => SYSTEM_JOBS.includes(value as SystemJob);
const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/**
 * The actor of an event from its metadata. Events recorded before actors were tagged carry a
 * string ('key:<id>', 'operator', a job's name, 'as4-inbox'), or nothing: what it says is read
 * back (a key's name and an access point's seat id were not recorded then: null), else unknown.
 */
export function actorOf(metadata: Record<string, unknown>): Actor {
  const recorded = metadata.actor;
  if (typeof recorded === 'object' && recorded !== null) return knownActor(recorded as Record<string, unknown>);
  if (typeof recorded !== 'string') return { kind: 'unknown' };
  if (recorded === 'operator') return OPERATOR;
  if (isJob(recorded)) return systemActor(recorded);
  if (recorded === 'as4-inbox') return { kind: 'access_point', seatId: null };
  const key = LEGACY_KEY.exec(recorded);
  if (key) {
    // A tenant key's requests recorded the tenant; an organization key's only the organization.
    // Some recorded the key's name beside it (actorName).
    const tenantId = text(metadata.tenantId);
    const keyName = text(metadata.actorName);
    return tenantId
      ? { kind: 'api_key', keyId: key[1]!, keyName, tenantId }
      : { kind: 'organization_admin', keyId: key[1]!, keyName, organizationId: text(metadata.organizationId) };
  }
  return { kind: 'unknown' };
}

/** A recorded actor object, taken only when it is one of the union's shapes. */
function knownActor(a: Record<string, unknown>): Actor {
  switch (a.kind) {
    case 'api_key':
      return text(a.keyId)
        ? { kind: 'api_key', keyId: text(a.keyId)!, keyName: text(a.keyName), tenantId: text(a.tenantId) }
        : { kind: 'unknown' };
    case 'organization_admin':
      return text(a.keyId)
        ? {
            kind: 'organization_admin',
            keyId: text(a.keyId)!,
            keyName: text(a.keyName),
            organizationId: text(a.organizationId),
          }
        : { kind: 'unknown' };
    case 'operator':
      return OPERATOR;
    case 'access_point':
      return { kind: 'access_point', seatId: text(a.seatId) };
    case 'system':
      return isJob(a.job) ? systemActor(a.job) : { kind: 'unknown' };
    default:
      return { kind: 'unknown' };
  }
}

/** The actor in words, as the history shows it: "API key 'erp' (…)", "the operator", "access point POP000123", "delivery job". */
export function describeActor(actor: Actor): string {
  switch (actor.kind) {
    case 'api_key':
      return actor.keyName === null ? `API key ${actor.keyId}` : `API key '${actor.keyName}' (${actor.keyId})`;
    case 'organization_admin':
      return actor.keyName === null
        ? `organization admin key ${actor.keyId}`
        : `organization admin key '${actor.keyName}' (${actor.keyId})`;
    case 'operator':
      return 'the operator';
    case 'access_point':
      return actor.seatId === null ? 'an access point (not recorded which)' : `access point ${actor.seatId}`;
    case 'system':
      return JOB_WORDS[actor.job];
    case 'unknown':
      return 'unknown';
    default:
      return assertNever(actor);
  }
}

/** The actor as the API answers it: snake_case, as the rest of the answers. */
export function actorView(actor: Actor): Record<string, string | null> {
  switch (actor.kind) {
    case 'api_key':
      return { kind: actor.kind, key_id: actor.keyId, key_name: actor.keyName, tenant_id: actor.tenantId };
    case 'organization_admin':
      return {
        kind: actor.kind,
        key_id: actor.keyId,
        key_name: actor.keyName,
        organization_id: actor.organizationId,
      };
    case 'access_point':
      return { kind: actor.kind, seat_id: actor.seatId };
    case 'system':
      return { kind: actor.kind, job: actor.job };
    case 'operator':
    case 'unknown':
      return { kind: actor.kind };
    default:
      return assertNever(actor);
  }
}
