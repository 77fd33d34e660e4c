import type { Logger } from 'pino';
import {
  EVENT_STORE,
  type AllSubscription,
  type DataPaths,
  type EventStore,
  type RecordedEvent,
} from '../application/ports/eventStore.js';
import { CheckpointConflictError, READ_MODEL_STORE, type ReadModelStore } from '../application/ports/readModelStore.js';
import {
  checkpointName,
  PROCESS_MANAGERS,
  READ_MODEL_PROJECTIONS,
  type Projection,
  type ProjectionStatus,
  type ReadModelProgress,
} from '../application/ports/projection.js';
import { LOGGER } from '../application/ports/logger.js';
import { inject, injectable } from '../application/injection.js';

/**
 * The payloads events recorded before they went to the blob store carry (the document, its UBL,
 * a file's content, an Invoice Response's XML): left out of the shared read of the log. Events
 * recorded since carry none. The upcaster reads such an old event whole again, on its own, to
 * store its payloads and give it today's shape (application/documents/documentUpcaster.ts).
 */
const PAYLOADS: DataPaths = [['document'], ['ubl'], ['attachment', 'file_data'], ['invoice_response']];

const RESTART_DELAY_MS = 200;
const SHARED = 'shared reader';
/** How many batches the shared reader may read ahead of the slowest projection. */
const READ_AHEAD_BATCHES = 4;
/** How far the stored checkpoint of a projection may lag behind events it had nothing to do with. */
const CHECKPOINT_EVERY = 10_000n;

/** Where one projection stands: `checkpoint` as stored, `position` as far as it has seen. */
interface Progress {
  projection: Projection;
  name: string;
  handles: ReadonlySet<string>;
  checkpoint: bigint | null;
  position: bigint;
  /** Batches handed over and not yet applied, and the promise of the last one. */
  pending: number;
  tail: Promise<void>;
  /** Failed in the shared reader: it follows the log on its own now. */
  detached: boolean;
}

/**
 * Feeds each projection from the event store's global order. Each batch of events and the
 * projection's checkpoint are committed together, so after a crash a projection resumes
 * exactly where its read models are. Several processes may run the same projection: the
 * checkpoint move is conditional, the loser of a race backs off and resumes from the winner's
 * checkpoint.
 *
 * One subscription reads the log for all projections (rather than one reader each), and hands
 * every batch to each projection from where it stands. A projection that fails, or loses a
 * checkpoint race, leaves the shared reader and goes on with a subscription of its own, which
 * restarts from its checkpoint after errors; the others are not held up by it.
 */
@injectable()
export class ProjectionRunner implements ReadModelProgress, ProjectionStatus {
  private readonly subscriptions = new Map<string, AllSubscription>();
  private readonly applied = new Map<string, bigint>();
  private readonly waiters = new Set<() => void>();
  private running = false;

  /** The read models and the process managers: all of them follow the log. */
  readonly projections: readonly Projection[];
  private readonly logger: Logger;

  constructor(
    @inject(EVENT_STORE) private readonly events: EventStore,
    @inject(READ_MODEL_STORE) private readonly readModels: ReadModelStore,
    /** What list reads wait for (`waitFor`). */
    @inject(READ_MODEL_PROJECTIONS) private readonly readModelProjections: readonly Projection[],
    @inject(LOGGER) logger: Logger,
    /** Followed for their side effects; nothing a read waits for is theirs to write. */
    @inject(PROCESS_MANAGERS) processManagers: readonly Projection[] = [],
  ) {
    this.logger = logger.child({ component: 'projections' });
    this.projections = [...readModelProjections, ...processManagers];
  }

  async start(): Promise<void> {
    this.running = true;
    await this.readModels.ensureCollections(this.projections.flatMap((p) => p.collections));
    const shared: Progress[] = [];
    for (const projection of this.projections) shared.push(await this.progressOf(projection));
    this.followTogether(shared);
  }

  private async progressOf(projection: Projection): Promise<Progress> {
    const name = checkpointName(projection);
    const checkpoint = await this.readModels.getCheckpoint(name);
    this.setPosition(name, checkpoint ?? -1n);
    return {
      projection,
      name,
      handles: new Set(projection.handles),
      checkpoint,
      position: checkpoint ?? -1n,
      pending: 0,
      tail: Promise.resolve(),
      detached: false,
    };
  }

  private followTogether(shared: Progress[]): void {
    if (!this.running || shared.length === 0) return;
    const from = shared.reduce((min, p) => (p.position < min ? p.position : min), shared[0]!.position);
    const subscription = this.events.subscribeToAll({
      after: from,
      batchSize: 500,
      withoutData: PAYLOADS,
      onEvents: async (events) => {
        // Each projection works through the batches at its own pace; the reader may run a few
        // batches ahead of the slowest before it waits for it.
        for (const progress of [...shared]) {
          progress.pending++;
          progress.tail = progress.tail.then(async () => {
            if (progress.detached) return;
            try {
              await this.apply(
                progress,
                events.filter((e) => e.globalPosition > progress.position),
              );
            } catch (error) {
              progress.detached = true;
              shared.splice(shared.indexOf(progress), 1);
              this.onFailure(progress.projection, error, 'leaves the shared reader');
            } finally {
              progress.pending--;
            }
          });
        }
        for (;;) {
          const slowest = shared.reduce<Progress | null>(
            (max, p) => (max === null || p.pending > max.pending ? p : max),
            null,
          );
          if (!slowest || slowest.pending <= READ_AHEAD_BATCHES) break;
          await slowest.tail;
        }
      },
      onError: (error) => {
        if (!this.running) return;
        this.logger.error({ err: error }, 'projection reader failed; restarting');
        this.subscriptions.delete(SHARED);
        setTimeout(
          () => void Promise.all(shared.map((p) => p.tail)).then(() => this.followTogether(shared)),
          RESTART_DELAY_MS,
        );
      },
    });
    this.subscriptions.set(SHARED, subscription);
  }

  /** One batch (already past the projection's position) into the projection's read models. */
  private async apply(progress: Progress, events: RecordedEvent[]): Promise<void> {
    if (events.length === 0) return;
    const to = events[events.length - 1]!.globalPosition;
    const relevant = events.filter((e) => progress.handles.has(e.type));
    // A batch with nothing for this projection changes no read model: it only moves the
    // position in memory, and the stored checkpoint catches up with the next write (or every
    // so often), instead of one transaction per projection per batch.
    if (relevant.length > 0 || to - (progress.checkpoint ?? -1n) >= CHECKPOINT_EVERY) {
      const { projection } = progress;
      await this.readModels.commitWithCheckpoint(progress.name, progress.checkpoint, to, async (session) => {
        if (projection.handleBatch) await projection.handleBatch(relevant, session);
        else for (const event of relevant) await projection.handle(event, session);
      });
      progress.checkpoint = to;
    }
    progress.position = to;
    this.setPosition(progress.name, to);
  }

  private onFailure(projection: Projection, error: unknown, what: string): void {
    if (!this.running) return;
    if (!(error instanceof CheckpointConflictError)) {
      this.logger.error(
        { err: error, projection: projection.name },
        `projection failed; it ${what} and restarts from its checkpoint`,
      );
    }
    this.subscriptions.delete(checkpointName(projection));
    setTimeout(
      () =>
        void this.followAlone(projection).catch((e: unknown) =>
          this.logger.error({ err: e }, 'projection restart failed'),
        ),
      RESTART_DELAY_MS,
    );
  }

  /** A projection on a subscription of its own, from its stored checkpoint. */
  private async followAlone(projection: Projection): Promise<void> {
    if (!this.running) return;
    const progress = await this.progressOf(projection);
    const subscription = this.events.subscribeToAll({
      after: progress.position,
      batchSize: 500,
      withoutData: PAYLOADS,
      onEvents: (events) => this.apply(progress, events),
      onError: (error) => this.onFailure(projection, error, 'stops'),
    });
    this.subscriptions.set(progress.name, subscription);
  }

  private setPosition(name: string, position: bigint): void {
    this.applied.set(name, position);
    for (const wake of this.waiters) wake();
  }

  /** The smallest position every read-model projection has reached (-1 when none has run). */
  lowestPosition(): bigint {
    let lowest: bigint | null = null;
    for (const projection of this.readModelProjections) {
      const position = this.applied.get(checkpointName(projection)) ?? -1n;
      if (lowest === null || position < lowest) lowest = position;
    }
    return lowest ?? -1n;
  }

  /**
   * Waits (bounded) until every read-model projection has applied `position`, for read-your-writes on
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
    for (const projection of this.readModelProjections) {
      const name = checkpointName(projection);
      const stored = await this.readModels.getCheckpoint(name);
      if (stored !== null && stored > (this.applied.get(name) ?? -1n)) this.applied.set(name, stored);
    }
  }

  get following(): boolean {
    return this.running;
  }

  /** Each projection's position: as far as this process has applied it, or its stored checkpoint when another process went further. */
  async positions(): Promise<Array<{ name: string; position: bigint }>> {
    return Promise.all(
      this.projections.map(async (projection) => {
        const name = checkpointName(projection);
        const here = this.applied.get(name) ?? -1n;
        const stored = (await this.readModels.getCheckpoint(name)) ?? -1n;
        return { name, position: stored > here ? stored : here };
      }),
    );
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
