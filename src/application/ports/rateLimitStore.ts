/** A key's count in its current window, and when that window ends. */
export interface RateLimitHits {
  totalHits: number;
  resetTime: Date | undefined;
}

/** The counters of one limit (e.g. an organization key's requests per hour), per key. */
export interface RateLimitCounter {
  /** Counts a hit and answers the count so far, atomically across processes. */
  increment(key: string): Promise<RateLimitHits>;
  get(key: string): Promise<RateLimitHits | undefined>;
  /** Gives a hit back (a skipped request); never below zero, never into a new window. */
  decrement(key: string): Promise<void>;
  resetKey(key: string): Promise<void>;
  resetAll(): Promise<void>;
}

/**
 * Request counters in fixed windows, shared by every process of a deployment so that a limit
 * holds for the deployment rather than per process.
 */
export interface RateLimitStore {
  /** The counters of the limit `name`, counted in windows of `windowMs`; names keep limits apart. */
  counter(name: string, windowMs: number): RateLimitCounter;
}

export const RATE_LIMIT_STORE = Symbol('RateLimitStore');
