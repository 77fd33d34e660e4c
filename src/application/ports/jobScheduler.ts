/**
 * Durable jobs for process managers: a job survives restarts and runs at least once, so
 * handlers must be idempotent. A unique key makes scheduling idempotent too (job ids derived
 * from event ids: scheduling the same job twice creates it once).
 */
export interface JobScheduler {
  define<Data extends object>(name: string, handler: (data: Data) => Promise<void>, options?: { concurrency?: number }): void;
  schedule<Data extends object>(name: string, data: Data, options?: { at?: Date; uniqueKey?: string }): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
}
