import { expect } from 'chai';
import type { DependencyContainer, InjectionToken } from '../../src/composition/container.js';
import { storageProfileOf } from '../../src/composition/options.js';
import { loadConfig } from '../../src/infrastructure/config.js';
import { EVENT_STORE } from '../../src/application/ports/eventStore.js';
import { READ_MODEL_STORE } from '../../src/application/ports/readModelStore.js';
import { JOB_SCHEDULER } from '../../src/application/ports/jobScheduler.js';
import { HEALTH_PROBE } from '../../src/application/ports/healthProbe.js';
import { RATE_LIMIT_STORE } from '../../src/application/ports/rateLimitStore.js';
import { IDEMPOTENCY_STORE } from '../../src/application/ports/idempotencyStore.js';
import { PROCESS_MANAGERS, READ_MODEL_PROGRESS } from '../../src/application/ports/projection.js';
import { DELIVERY_STARTER } from '../../src/application/delivery/deliveryStarter.js';
import { Authenticator } from '../../src/application/accounts/authenticate.js';
import { AccountCommands } from '../../src/application/accounts/accountCommands.js';
import { AccountQueries } from '../../src/application/accounts/accountQueries.js';
import { DocumentCommands } from '../../src/application/documents/documentCommands.js';
import { DocumentQueries } from '../../src/application/documents/documentQueries.js';
import { DocumentHistory } from '../../src/application/documents/documentHistory.js';
import { DocumentPdfs } from '../../src/application/documents/documentPdfs.js';
import { SendDocument } from '../../src/application/delivery/sendDocument.js';
import { DeliveryProcess } from '../../src/application/delivery/deliveryProcess.js';
import { InboxCommands } from '../../src/application/inbox/inboxCommands.js';
import { ResponseRouter } from '../../src/application/inbox/responseRouter.js';
import { WebhookCommands } from '../../src/application/webhooks/webhookCommands.js';
import { WebhookDispatch } from '../../src/application/webhooks/webhookDispatch.js';
import { PeppolRegistrations } from '../../src/application/peppol/peppolRegistration.js';
import { SmpPublication } from '../../src/application/peppol/smpPublication.js';
import { ParticipantLookup } from '../../src/application/peppol/participantLookup.js';
import { ParticipantSearch } from '../../src/application/peppol/participantSearch.js';
import { ProjectionRunner } from '../../src/projections/projectionRunner.js';
import { EmailTransport } from '../../src/infrastructure/mail/emailTransport.js';
import { TaskPool } from '../../src/infrastructure/workers/taskPool.js';
import { startTestService, type TestService } from '../support/service.js';

/** What the service itself resolves (Service, createHttpApp) and the ports bound per profile. */
const ROOTS: Array<InjectionToken<unknown>> = [
  Authenticator,
  AccountCommands,
  AccountQueries,
  DocumentCommands,
  DocumentQueries,
  DocumentHistory,
  DocumentPdfs,
  SendDocument,
  DeliveryProcess,
  InboxCommands,
  ResponseRouter,
  WebhookCommands,
  WebhookDispatch,
  PeppolRegistrations,
  SmpPublication,
  ParticipantLookup,
  ParticipantSearch,
  ProjectionRunner,
  EmailTransport,
  TaskPool,
  EVENT_STORE,
  READ_MODEL_STORE,
  JOB_SCHEDULER,
  HEALTH_PROBE,
  RATE_LIMIT_STORE,
  IDEMPOTENCY_STORE,
  READ_MODEL_PROGRESS,
  PROCESS_MANAGERS,
  DELIVERY_STARTER,
];

const nameOf = (token: InjectionToken<unknown>): string => (typeof token === 'function' ? token.name : String(token));

/** The tokens of a class's constructor parameters, by position, as its `@inject` decorators named them (tsyringe's metadata). */
function injectedTokens(type: unknown): Record<string, InjectionToken<unknown>> {
  const injected = (Reflect.getOwnMetadata('injectionTokens', type as object) ?? {}) as Record<
    string,
    { token: InjectionToken<unknown> }
  >;
  return Object.fromEntries(Object.entries(injected).map(([index, { token }]) => [index, token]));
}

/**
 * Walks the object graph from `token`: every dependency a class names must be bound in the
 * container (tsyringe would otherwise construct an unbound class afresh on each resolution, or
 * hand a constructor `undefined` for a parameter without `@inject`), and every binding resolves to
 * one instance for the whole service.
 */
function checkGraph(
  container: DependencyContainer,
  token: InjectionToken<unknown>,
  path: string[],
  seen: Set<unknown>,
): void {
  const here = [...path, nameOf(token)].join(' → ');
  expect(container.isRegistered(token, true), `${here} is not bound`).to.equal(true);
  if (seen.has(token)) return;
  seen.add(token);
  const instance = container.resolve(token);
  if (instance === null || typeof instance !== 'object') return;
  expect(container.resolve(token), `${here} resolves to one instance`).to.equal(instance);
  const type = (instance as object).constructor;
  const tokens = injectedTokens(type);
  // Values (a pool, settings) name nothing; of a class the container constructs, every parameter
  // without a default value is named: one left out would receive undefined.
  if (Object.keys(tokens).length === 0) return;
  for (let i = 0; i < type.length; i++)
    expect(tokens[i], `${here}: constructor parameter ${i} has no @inject`).to.not.equal(undefined);
  for (const dependency of Object.values(tokens)) checkGraph(container, dependency, [...path, nameOf(token)], seen);
}

describe('Composition (the PostgreSQL server profile, real PostgreSQL)', () => {
  let t: TestService;
  before(async () => {
    t = await startTestService();
  });
  after(async () => t?.stop());

  it('binds every dependency of every class the service uses, each to one instance', () => {
    const seen = new Set<unknown>();
    for (const root of ROOTS) checkGraph(t.service.container, root, [], seen);
    // Classes reached through the graph, not only the roots: the adapters behind the ports.
    expect(seen.size).to.be.greaterThan(ROOTS.length + 10);
  });

  it('shares one instance between the classes that depend on it', () => {
    const c = t.service.container;
    const commands = c.resolve(DocumentCommands);
    expect((c.resolve(DocumentPdfs) as unknown as { documents: unknown }).documents).to.equal(commands);
    // The send command starts deliveries on the very process manager the service starts and stops.
    expect((c.resolve(SendDocument) as unknown as { delivery: unknown }).delivery).to.equal(c.resolve(DeliveryProcess));
    expect(c.resolve(READ_MODEL_PROGRESS)).to.equal(t.service.projections);
    expect((t.service.projections.projections as unknown[]).includes(c.resolve(ResponseRouter))).to.equal(true);
  });

  it('keeps separate services apart: each has its own container and instances', async () => {
    const other = await startTestService();
    try {
      expect(other.service.resolve(DocumentCommands)).to.not.equal(t.service.resolve(DocumentCommands));
      expect(other.service.eventStore).to.not.equal(t.service.eventStore);
    } finally {
      await other.stop();
    }
  });
});

describe('Storage profiles', () => {
  const config = loadConfig({});
  it('chooses the embedded PostgreSQL without database settings, the server with DATABASE_URL or a given database', () => {
    expect(storageProfileOf(config)).to.equal('embedded-postgres');
    expect(storageProfileOf({ ...config, databaseUrl: 'postgres://db/invoicing' })).to.equal('postgres-server');
    expect(storageProfileOf(config, 'postgres://test/db')).to.equal('postgres-server');
  });

  it('chooses scale-out when EventStoreDB or MongoDB is configured, whatever the PostgreSQL', () => {
    expect(storageProfileOf({ ...config, eventStoreUrl: 'esdb://es:2113' })).to.equal('scale-out');
    expect(storageProfileOf({ ...config, mongodbUrl: 'mongodb://mongo' }, 'postgres://test/db')).to.equal('scale-out');
  });
});
