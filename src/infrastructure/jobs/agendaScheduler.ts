import { Agenda, type AgendaBackend } from 'agenda';
import type { Logger } from 'pino';
import type { JobScheduler } from '../../application/ports/jobScheduler.js';

export interface AgendaSchedulerOptions {
  backend: AgendaBackend;
  logger: Logger;
  /** How often idle workers look for due jobs, in ms (a number: Agenda 6 misreads strings). */
  processEveryMs?: number;
  /** How long a claimed job stays locked before another worker may take it over. */
  lockLifetimeMs?: number;
  /** Runs once the backend is connected (and its tables exist), before jobs are processed. */
  afterReady?: () => Promise<void>;
  /** Jobs of all kinds one process runs at once (Agenda's default of 20 would cap the per-kind concurrency). */
  maxConcurrency?: number;
}

/** Agenda behind the JobScheduler port; the backend is PostgreSQL or MongoDB per profile. */
export class AgendaScheduler implements JobScheduler {
  private readonly agenda: Agenda;
  private stopped = false;

  constructor(private readonly options: AgendaSchedulerOptions) {
    this.agenda = new Agenda({
      backend: options.backend,
      processEvery: options.processEveryMs ?? 1000,
      defaultLockLifetime: options.lockLifetimeMs ?? 60_000,
      maxConcurrency: options.maxConcurrency ?? 20,
    });
    this.agenda.on('error', (error: unknown) => options.logger.error({ err: error }, 'agenda error'));
    // The backend's LISTEN connection reports a database shutdown as an 'error' event; without
    // a listener that would crash the process while it is stopping (the channel reconnects).
    const channel = (
      options.backend as { notificationChannel?: { on?(event: 'error', listener: (error: unknown) => void): unknown } }
    ).notificationChannel;
    // Once stopped, its connection going away with the database is the shutdown itself, not news.
    channel?.on?.('error', (error) =>
      this.stopped
        ? options.logger.debug({ err: error }, 'job notification channel closed after the scheduler stopped')
        : options.logger.warn({ err: error }, 'job notification channel error'),
    );
  }

  define<Data extends object>(
    name: string,
    handler: (data: Data) => Promise<void>,
    options: { concurrency?: number } = {},
  ): void {
    this.agenda.define<Data>(
      name,
      async (job) => {
        // The lock is renewed while the job runs, so it lapses (and another process takes the job
        // over) only when this process is gone, not when an attempt is slow: a delivery taken
        // over while its first runner is still at it would be made twice.
        const lifetime = this.options.lockLifetimeMs ?? 60_000;
        const renew = setInterval(() => void job.touch().catch(() => undefined), Math.max(100, lifetime / 3));
        try {
          await handler(job.attrs.data);
        } catch (error) {
          const data = job.attrs.data as Record<string, unknown>;
          this.options.logger.warn(
            { err: error, job: name, data },
            `job ${name} for ${subjectOf(data)} failed (${(error as Error).message}); it runs again later`,
          );
          throw error;
        } finally {
          clearInterval(renew);
        }
      },
      // A handler that throws (a database outage, a lost race past its retries) has done nothing
      // it cannot redo: run it again later, 1 s, 2 s, 4 s … up to every 5 minutes, never giving up.
      {
        concurrency: options.concurrency ?? 5,
        backoff: (context: { attempt: number }) => Math.min(1000 * 2 ** (context.attempt - 1), 5 * 60_000),
      },
    );
  }

  async schedule<Data extends object>(
    name: string,
    data: Data,
    options: { at?: Date; uniqueKey?: string } = {},
  ): Promise<void> {
    const job = this.agenda.create(name, options.uniqueKey ? { ...data, unique_key: options.uniqueKey } : data);
    if (options.uniqueKey) job.unique({ 'data.unique_key': options.uniqueKey }, { insertOnly: true });
    job.schedule(options.at ?? new Date());
    await job.save();
  }

  async start(): Promise<void> {
    this.stopped = false;
    await this.agenda.ready;
    await this.options.afterReady?.();
    await this.agenda.start();
  }

  async stop(graceMs = 0): Promise<void> {
    this.stopped = true;
    if (graceMs <= 0) return void (await this.agenda.stop());
    // No new jobs; the running ones finish (up to graceMs: those still running stay locked until
    // their lock expires and run again, as after a crash).
    await this.agenda.drain(graceMs);
  }
}

/** What a job is about, for its log line: the document, message, webhook delivery or month its data names. */
function subjectOf(data: Record<string, unknown>): string {
  for (const [field, what] of [
    ['document_id', 'document'],
    ['message_id', 'message'],
    ['delivery_id', 'delivery'],
    ['month', 'month'],
  ] as const)
    if (typeof data?.[field] === 'string') return `${what} ${data[field] as string}`;
  return JSON.stringify(data ?? {}).slice(0, 200);
}
