import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Express } from 'express';
import type pg from 'pg';
import type { DependencyContainer } from 'tsyringe';
import type { Logger } from 'pino';
import type { Config } from './infrastructure/config.js';
import type { EventStore } from './application/ports/eventStore.js';
import type { ReadModelStore } from './application/ports/readModelStore.js';
import type { DeliveryProcess } from './application/delivery/deliveryProcess.js';
import type { JobScheduler } from './application/ports/jobScheduler.js';
import type { ProjectionRunner } from './projections/projectionRunner.js';
import type { TaskPool } from './infrastructure/workers/taskPool.js';
import type { AccountCommands } from './application/accounts/accountCommands.js';
import { TOKENS, wire, type WiringOptions } from './infrastructure/container.js';
import { createApp } from './http/app.js';
import type { EmailTransport } from './infrastructure/mail/emailTransport.js';
import type { RouteRegistry } from './http/routeRegistry.js';
import { createRateLimitGates, rateLimitsFrom } from './http/rateLimit.js';
import { peppolServices } from './infrastructure/peppol/peppolWiring.js';

export const VERSION = '0.1.0';

/**
 * One running instance of the service: its adapters, projections, jobs and HTTP app, started
 * and stopped in dependency order.
 */
export class Service {
  readonly app: Express;
  readonly routes: RouteRegistry;
  private server: Server | null = null;

  private constructor(readonly container: DependencyContainer) {
    const logger = this.resolve<Logger>(TOKENS.Logger);
    const config = this.resolve<Config>(TOKENS.Config);
    const projections = this.resolve<ProjectionRunner>(TOKENS.ProjectionRunner);
    const { app, routes } = createApp({
      logger,
      pool: this.resolve(TOKENS.Pool),
      eventStore: this.resolve(TOKENS.EventStore),
      operatorKey: this.resolve(TOKENS.OperatorKey),
      accounts: this.resolve(TOKENS.AccountCommands),
      accountQueries: this.resolve(TOKENS.AccountQueries),
      documents: this.resolve(TOKENS.DocumentCommands),
      documentQueries: this.resolve(TOKENS.DocumentQueries),
      documentHistory: this.resolve(TOKENS.DocumentHistory),
      sending: this.resolve(TOKENS.SendDocument),
      inbox: this.resolve(TOKENS.InboxCommands),
      webhooks: this.resolve(TOKENS.WebhookCommands),
      peppol: peppolServices(container),
      documentPdfs: this.resolve(TOKENS.DocumentPdfs),
      readYourWrites: async () => {
        await projections.catchUp(2000);
      },
      jsonBodyLimit: config.jsonBodyLimit,
      jsonOtherBodyLimit: config.jsonOtherBodyLimit,
      uploadBodyLimit: config.uploadBodyLimit,
      hygiene: config.text,
      idempotencyStore: this.resolve(TOKENS.IdempotencyStore),
      version: VERSION,
    });
    routes.useRateLimits(createRateLimitGates(this.resolve(TOKENS.Pool), rateLimitsFrom(config)));
    this.app = app;
    this.routes = routes;
  }

  static async create(options: WiringOptions): Promise<Service> {
    return new Service(await wire(options));
  }

  resolve<T>(token: symbol): T {
    return this.container.resolve<T>(token);
  }

  get eventStore(): EventStore {
    return this.resolve(TOKENS.EventStore);
  }

  get projections(): ProjectionRunner {
    return this.resolve(TOKENS.ProjectionRunner);
  }

  async start(): Promise<void> {
    const config = this.resolve<Config>(TOKENS.Config);
    const logger = this.resolve<Logger>(TOKENS.Logger);
    if (config.bootstrapAdminKey) {
      const created = await this.resolve<AccountCommands>(TOKENS.AccountCommands).bootstrapOrganization(config.bootstrapAdminKey, {
        actor: 'bootstrap',
      });
      if (created) logger.info('created the bootstrap organization for BOOTSTRAP_ADMIN_KEY');
    }
    await this.projections.start();
    await this.resolve<JobScheduler>(TOKENS.JobScheduler).start();
    this.resolve<DeliveryProcess>(TOKENS.DeliveryProcess).startRecovery();
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

  /** Stops taking requests, then jobs, projections and connections, in that order. */
  async stop(): Promise<void> {
    if (this.server) {
      const server = this.server;
      this.server = null;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
    }
    await this.resolve<DeliveryProcess>(TOKENS.DeliveryProcess).stop();
    await this.resolve<JobScheduler>(TOKENS.JobScheduler).stop();
    this.resolve<EmailTransport>(TOKENS.EmailTransport).close();
    await this.resolve<TaskPool>(TOKENS.TaskPool).close();
    await this.projections.stop();
    await this.resolve<ReadModelStore>(TOKENS.ReadModelStore).close();
    await this.eventStore.close();
    this.resolve<{ close(): void }>(TOKENS.Blobs).close();
    await this.resolve<pg.Pool>(TOKENS.Pool).end();
  }
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
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}
