/**
 * The first result of each request made with an `Idempotency-Key`, per tenant, so a retried
 * request (after a network error or a client timeout) gets that result instead of doing the work
 * again. A key is claimed before the work starts; the result is kept once it is known. A claim
 * lives only as long as the process that holds it: when that process dies, the key is claimed
 * again by the next retry, which finds what the first request did in the events it recorded
 * (they carry the key: EventMetadata.idempotency) and answers that.
 */
export type IdempotencyClaim =
  /**
   * The key is new, or its earlier claim's process died (the same request: it may have done its
   * work already): do the work, then `complete`.
   */
  | { kind: 'claimed' }
  /** The same key with the same request: its result. */
  | { kind: 'completed'; status: number; body: unknown }
  /** The same key with a different request. */
  | { kind: 'mismatch' }
  /** The same key's first request is still being worked on. */
  | { kind: 'in_progress' };

export interface IdempotencyStore {
  /** `fingerprint`: a hash of the request (method, path, query, body). */
  claim(scope: string, key: string, fingerprint: string): Promise<IdempotencyClaim>;
  complete(scope: string, key: string, status: number, body: unknown): Promise<void>;
  /** The work failed in a way a retry may fix (5xx): the key is free again. */
  release(scope: string, key: string): Promise<void>;
  /** Lets go of the claims this process holds (at shutdown). */
  close(): Promise<void>;
}

export const IDEMPOTENCY_STORE = Symbol('IdempotencyStore');
