/**
 * Durable jobs for process managers: a job survives restarts and runs at least once, so
 * handlers must be idempotent; a handler that throws is run again later. A unique key makes
 * scheduling idempotent (job ids derived from event ids: scheduling the same job again creates
 * nothing), though two processes scheduling the same key at the same instant may both insert it.
 */
export interface JobScheduler {
  define<Data extends object>(
    name: string,
    handler: (data: Data) => Promise<void>,
    options?: { concurrency?: number },
  ): void;
  schedule<Data extends object>(name: string, data: Data, options?: { at?: Date; uniqueKey?: string }): Promise<void>;
  start(): Promise<void>;
  /** Stops taking jobs; waits up to `graceMs` for the running ones (those still running after it run again later). */
  stop(graceMs?: number): Promise<void>;
}

export const JOB_SCHEDULER = Symbol('JobScheduler');
