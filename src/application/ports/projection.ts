import type { RecordedEvent } from './eventStore.js';
import type { CollectionDefinition, ReadModelSession } from './readModelStore.js';

/**
 * A read-model projection: which events it reads, which collections (and indexes) it owns, and
 * how an event changes them. Handlers must be idempotent: the runner delivers each event at
 * least once (exactly once where the store commits checkpoint and writes together).
 */
export interface Projection {
  /** Also the name of its checkpoint; bump `version` to rebuild it after a change of shape. */
  name: string;
  version: number;
  collections: CollectionDefinition[];
  handles: readonly string[];
  handle(event: RecordedEvent, session: ReadModelSession): Promise<void>;
  /**
   * Optional: the relevant events of one batch at once (e.g. to read and write each document
   * once per batch). Used instead of `handle`.
   */
  handleBatch?(events: RecordedEvent[], session: ReadModelSession): Promise<void>;
}

export const checkpointName = (projection: Pick<Projection, 'name' | 'version'>) =>
  `${projection.name}@v${projection.version}`;

/** Read models remember the last event applied, so a redelivered older event changes nothing. */
export interface Versioned {
  last_position: string;
}

export function isNewer(event: RecordedEvent, existing: Versioned | null): boolean {
  return existing === null || event.globalPosition > BigInt(existing.last_position);
}

/** How far the read models have come, so a read can wait for the writes made before it. */
export interface ReadModelProgress {
  /** Waits (at most `timeoutMs`) until every read model includes everything appended so far; false on timeout. */
  catchUp(timeoutMs?: number): Promise<boolean>;
  /** Waits (at most `timeoutMs`) until every read model includes `position`; false on timeout. */
  waitFor(position: bigint, timeoutMs?: number): Promise<boolean>;
}

/** The read-model projections (`Projection[]`): what reads wait for. */
export const READ_MODEL_PROJECTIONS = Symbol('ReadModelProjections');
/** The process managers (`Projection[]`): they follow the log for their side effects. */
export const PROCESS_MANAGERS = Symbol('ProcessManagers');
export const READ_MODEL_PROGRESS = Symbol('ReadModelProgress');

/** Where each projection (read model or process manager) stands, for readiness and monitoring. */
export interface ProjectionStatus {
  /** Whether the projections follow the log in this process (started and not stopped). */
  readonly following: boolean;
  /** Each projection's name (with its version) and the last position it has applied (-1 when none). */
  positions(): Promise<Array<{ name: string; position: bigint }>>;
}
export const PROJECTION_STATUS = Symbol('ProjectionStatus');
