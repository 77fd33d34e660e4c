import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Express } from 'express';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { DependencyContainer, InjectionToken } from './composition/container.js';
import { compose } from './composition/compose.js';
import { createHttpApp } from './composition/httpApp.js';
import type { CompositionOptions } from './composition/options.js';
import { CONFIG, type Config } from './infrastructure/config.js';
import { DATABASE, PG_POOL } from './infrastructure/postgres/tokens.js';
import { whileStartingAlone } from './infrastructure/postgres/pgSchema.js';
import { BLOBS } from './infrastructure/blobs/openBlobStore.js';
import type { Database } from './infrastructure/postgres/database.js';
import { EmailTransport } from './infrastructure/mail/emailTransport.js';
import { TaskPool } from './infrastructure/workers/taskPool.js';
import { ProjectionRunner } from './projections/projectionRunner.js';
import { EVENT_STORE, type EventStore } from './application/ports/eventStore.js';
import { READ_MODEL_STORE, type ReadModelStore } from './application/ports/readModelStore.js';
import { JOB_SCHEDULER, type JobScheduler } from './application/ports/jobScheduler.js';
import { IDEMPOTENCY_STORE, type IdempotencyStore } from './application/ports/idempotencyStore.js';
import { LOGGER } from './application/ports/logger.js';
import { DeliveryProcess } from './application/delivery/deliveryProcess.js';
import { AccountCommands } from './application/accounts/accountCommands.js';
import { systemActor } from './application/actor.js';
import { PeppolReporting } from './application/reporting/peppolReports.js';
import { HistoryChainer } from './application/history/historyChainer.js';
import { HistoryCheckpoints } from './application/history/historyCheckpoints.js';
import { CHECKPOINT_SIGNER } from './application/ports/historyChain.js';
import type { KeyCheckpointSigner } from './infrastructure/history/checkpointSigner.js';
import type { RouteRegistry } from './http/routeRegistry.js';

export const VERSION = '0.1.0';

/**
 * One running instance of the service: its adapters, projections, jobs and HTTP app (composed by
 * its storage profile's composition root), started and stopped in dependency order.
 */
export class Service {
  readonly app: Express;
  readonly routes: RouteRegistry;
  private server: Server | null = null;

  private constructor(readonly container: DependencyContainer) {
    const { app, routes } = createHttpApp(container, VERSION);
    this.app = app;
    this.routes = routes;
  }

  static async create(options: CompositionOptions): Promise<Service> {
    return new Service(await compose(options));
  }

  resolve<T>(token: InjectionToken<T>): T {
    return this.container.resolve<T>(token);
  }

  get eventStore(): EventStore {
    return this.resolve<EventStore>(EVENT_STORE);
  }

  get projections(): ProjectionRunner {
    return this.resolve(ProjectionRunner);
  }

  async start(): Promise<void> {
    const config = this.resolve<Config>(CONFIG);
    const logger = this.resolve<Logger>(LOGGER);
    if (config.bootstrapAdminKey) {
      const created = await this.resolve(AccountCommands).bootstrapOrganization(config.bootstrapAdminKey, {
        actor: systemActor('bootstrap'),
      });
      if (created) logger.info('created the bootstrap organization for BOOTSTRAP_ADMIN_KEY');
    }
    // Their stores create what they need on a new database; processes starting together take turns.
    await whileStartingAlone(this.resolve<pg.Pool>(PG_POOL), async () => {
      await this.projections.start();
      await this.resolve<JobScheduler>(JOB_SCHEDULER).start();
    });
    // The hash chain follows the log from where it stands; checkpoints are signed on their schedule.
    const signer = this.resolve<KeyCheckpointSigner>(CHECKPOINT_SIGNER);
    logger.info({ keyId: signer.keyId, source: signer.source }, 'history checkpoints are signed with this key');
    await this.resolve(HistoryChainer).start();
    this.resolve(HistoryCheckpoints).start();
    this.resolve(DeliveryProcess).startRecovery();
    // The monthly Peppol reports: this month's is prepared on the 1st of the next (one job per month).
    await this.resolve(PeppolReporting).scheduleFor(new Date());
  }

  /** Serves HTTP on the port; requests Node's parser refuses still get the spec's error body. */
  listen(port: number, host: string): Promise<Server> {
    return new Promise((resolve, reject) => {
      const server = this.app.listen(port, host, (error?: Error) => (error ? reject(error) : resolve(server)));
      server.on('clientError', answerClientError);
      // Idle keep-alive connections are closed after a minute rather than Node's 5 s: a client that
      // reuses a connection just as the server closes it sees a reset, and clients (and load
      // balancers) keep connections open for longer than 5 s.
      server.keepAliveTimeout = 65_000;
      server.headersTimeout = 66_000;
      this.server = server;
    });
  }

  /**
   * Stops taking requests and lets the ones under way finish, then the deliveries and jobs under
   * way, each for at most `graceMs` (what is still running then is cut off: a request's
   * connection is closed, a job runs again later); then the projections, the connections, and the
   * database last (when this process started it).
   */
  async stop(graceMs = 0): Promise<void> {
    if (this.server) {
      const server = this.server;
      this.server = null;
      await new Promise<void>((resolve) => {
        const cutOff = graceMs > 0 ? setTimeout(() => server.closeAllConnections(), graceMs) : undefined;
        // A keep-alive connection whose request was under way is closed once it answered (clients
        // would otherwise hold it open until their own idle timeout).
        const idle = setInterval(() => server.closeIdleConnections(), 50);
        server.close(() => {
          clearTimeout(cutOff);
          clearInterval(idle);
          resolve();
        });
        server.closeIdleConnections();
      });
    }
    await within(this.resolve(DeliveryProcess).stop(), graceMs);
    await this.resolve<JobScheduler>(JOB_SCHEDULER).stop(graceMs);
    this.resolve(EmailTransport).close();
    await this.resolve(TaskPool).close();
    await this.resolve(HistoryCheckpoints).stop();
    await this.resolve(HistoryChainer).stop();
    await this.projections.stop();
    await this.resolve<IdempotencyStore>(IDEMPOTENCY_STORE).close();
    await this.resolve<ReadModelStore>(READ_MODEL_STORE).close();
    await this.eventStore.close();
    this.resolve<{ close(): void }>(BLOBS).close();
    await this.resolve<pg.Pool>(PG_POOL).end();
    await this.resolve<Database>(DATABASE).stop();
  }
}

/** Waits for `work`, but no longer than `ms` when that is more than 0. */
async function within(work: Promise<void>, ms: number): Promise<void> {
  if (ms <= 0) return work;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/**
 * Requests that never reach express, refused by Node's HTTP parser (headers or URL over 16 KB,
 * malformed request lines), are answered in the spec's error format rather than with an empty
 * body, then the connection is closed.
 */
function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable || (socket as Duplex & { _httpMessage?: unknown })._httpMessage) {
    socket.destroy();
    return;
  }
  const [status, reason, detail] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large', 'Request line or headers larger than 16 KB']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'Request not received in time']
        : [400, 'Bad Request', 'Malformed HTTP request'];
  const body = JSON.stringify({ detail });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
