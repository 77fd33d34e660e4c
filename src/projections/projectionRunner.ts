import type { Logger } from 'pino';
import type { AllSubscription, EventStore } from '../application/ports/eventStore.js';
import { CheckpointConflictError, type ReadModelStore } from '../application/ports/readModelStore.js';
import { checkpointName, type Projection } from './projection.js';

const RESTART_DELAY_MS = 200;
/** How far the stored checkpoint of a projection may lag behind events it had nothing to do with. */
const CHECKPOINT_EVERY = 10_000n;

/**
 * Feeds each projection from the event store's global order. Each batch of events and the
 * projection's checkpoint are committed together, so after a crash a projection resumes
 * exactly where its read models are. Several processes may run the same projection: the
 * checkpoint move is conditional, the loser of a race backs off and resumes from the winner's
 * checkpoint.
 */
export class ProjectionRunner {
  private readonly subscriptions = new Map<string, AllSubscription>();
  private readonly positions = new Map<string, bigint>();
  private readonly waiters = new Set<() => void>();
  private running = false;

  constructor(
    private readonly events: EventStore,
    private readonly readModels: ReadModelStore,
    readonly projections: readonly Projection[],
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    this.running = true;
    await this.readModels.ensureCollections(this.projections.flatMap((p) => p.collections));
    for (const projection of this.projections) await this.follow(projection);
  }

  private async follow(projection: Projection): Promise<void> {
    if (!this.running) return;
    const name = checkpointName(projection);
    let checkpoint = await this.readModels.getCheckpoint(name);
    this.setPosition(name, checkpoint ?? -1n);
    const handles = new Set(projection.handles);
    const subscription = this.events.subscribeToAll({
      after: checkpoint ?? -1n,
      batchSize: 500,
      onEvents: async (events) => {
        const to = events[events.length - 1]!.globalPosition;
        const relevant = events.filter((e) => handles.has(e.type));
        // A batch with nothing for this projection changes no read model: it only moves the
        // position in memory, and the stored checkpoint catches up with the next write (or
        // every so often), instead of one transaction per projection per batch.
        if (relevant.length === 0 && to - (checkpoint ?? -1n) < CHECKPOINT_EVERY) {
          this.setPosition(name, to);
          return;
        }
        await this.readModels.commitWithCheckpoint(name, checkpoint, to, async (session) => {
          if (projection.handleBatch) await projection.handleBatch(relevant, session);
          else for (const event of relevant) await projection.handle(event, session);
        });
        checkpoint = to;
        this.setPosition(name, to);
      },
      onError: (error) => {
        if (!this.running) return;
        if (!(error instanceof CheckpointConflictError)) {
          this.logger.error({ err: error, projection: name }, 'projection failed; restarting from its checkpoint');
        }
        this.subscriptions.delete(name);
        setTimeout(() => void this.follow(projection).catch((e: unknown) => this.logger.error({ err: e }, 'projection restart failed')), RESTART_DELAY_MS);
      },
    });
    this.subscriptions.set(name, subscription);
  }

  private setPosition(name: string, position: bigint): void {
    this.positions.set(name, position);
    for (const wake of this.waiters) wake();
  }

  /** The smallest position every projection has reached (-1 when none has run). */
  lowestPosition(): bigint {
    let lowest: bigint | null = null;
    for (const projection of this.projections) {
      const position = this.positions.get(checkpointName(projection)) ?? -1n;
      if (lowest === null || position < lowest) lowest = position;
    }
    return lowest ?? -1n;
  }

  /**
   * Waits (bounded) until every projection has applied `position`, for read-your-writes on
   * list endpoints. Returns false on timeout; callers then answer with what is there.
   */
  async waitFor(position: bigint, timeoutMs = 5000): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (this.lowestPosition() < position) {
      if (Date.now() >= deadline) return false;
      // Another process may be the one applying events: its checkpoints are in the store.
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.waiters.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(wake, 50);
        this.waiters.add(wake);
      });
      if (this.lowestPosition() < position) await this.refreshFromStore();
    }
    return true;
  }

  /** Waits until the projections have caught up with everything appended so far. */
  async catchUp(timeoutMs = 5000): Promise<boolean> {
    return this.waitFor(await this.events.headPosition(), timeoutMs);
  }

  private async refreshFromStore(): Promise<void> {
    for (const projection of this.projections) {
      const name = checkpointName(projection);
      const stored = await this.readModels.getCheckpoint(name);
      if (stored !== null && stored > (this.positions.get(name) ?? -1n)) this.positions.set(name, stored);
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all([...this.subscriptions.values()].map((s) => s.stop()));
    this.subscriptions.clear();
  }
}

/** Empties a projection's read models and checkpoint, so that it is rebuilt from the first event. */
export async function resetProjection(readModels: ReadModelStore, projection: Projection): Promise<void> {
  await readModels.ensureCollections(projection.collections);
  await readModels.clearCollections(projection.collections.map((c) => c.name));
  await readModels.resetCheckpoint(checkpointName(projection));
}
