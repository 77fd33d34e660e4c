export interface RetrySchedule {
  /** The first attempt plus one per retry. */
  readonly maxAttempts: number;
  /**
   * When the attempt after `attempt` (1-based) is due, or null when `attempt` was the last one.
   * The delays are in schedule units: `unitMs` is a minute in production (tests compress it).
   */
  nextAttemptAt(attempt: number, finishedAt: Date, unitMs: number): Date | null;
}

/** A schedule that retries a failed attempt after each of `delays` in turn, then gives up. */
export function retrySchedule(delays: readonly number[]): RetrySchedule {
  const maxAttempts = delays.length + 1;
  return {
    maxAttempts,
    nextAttemptAt: (attempt, finishedAt, unitMs) =>
      attempt >= 1 && attempt < maxAttempts ? new Date(finishedAt.getTime() + delays[attempt - 1]! * unitMs) : null,
  };
}
