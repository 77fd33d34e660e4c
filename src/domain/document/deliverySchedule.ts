/**
 * When a document in TRANSIT is tried again. The spec's schedule: after the first attempt, 10
 * retries with delays of 1, 2, 4, …, 256 minutes and a last one capped at 6 hours (about 24
 * hours in all); when the tenth retry fails too, the document is FAILED.
 */
export const RETRY_DELAYS_MINUTES: readonly number[] = [1, 2, 4, 8, 16, 32, 64, 128, 256, 360];

/** The first attempt plus one per retry. */
export const MAX_ATTEMPTS = RETRY_DELAYS_MINUTES.length + 1;

/**
 * The delay before the attempt after `attempt` (1-based), in schedule units (minutes in
 * production), or null when `attempt` was the last one.
 */
export function delayAfterAttempt(attempt: number): number | null {
  return attempt >= 1 && attempt < MAX_ATTEMPTS ? RETRY_DELAYS_MINUTES[attempt - 1]! : null;
}

/** The time of the next attempt; `unitMs` is a minute in production (tests compress it). */
export function nextAttemptAt(attempt: number, finishedAt: Date, unitMs: number): Date | null {
  const delay = delayAfterAttempt(attempt);
  return delay === null ? null : new Date(finishedAt.getTime() + delay * unitMs);
}
