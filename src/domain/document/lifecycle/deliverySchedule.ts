import { retrySchedule } from '../../retrySchedule.js';

/**
 * When a document in TRANSIT is tried again. The spec's schedule: after the first attempt, 10
 * retries with delays of 1, 2, 4, …, 256 minutes and a last one capped at 6 hours (about 24
 * hours in all); when the tenth retry fails too, the document is FAILED.
 */
export const RETRY_DELAYS_MINUTES: readonly number[] = [1, 2, 4, 8, 16, 32, 64, 128, 256, 360];

export const { maxAttempts: MAX_ATTEMPTS, nextAttemptAt } = retrySchedule(RETRY_DELAYS_MINUTES);
