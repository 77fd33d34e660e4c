import { EVENT_STORE, type EventStore } from '../ports/eventStore.js';
import { HEALTH_PROBE, type HealthProbe } from '../ports/healthProbe.js';
import { PROJECTION_STATUS, type ProjectionStatus } from '../ports/projection.js';
import { READ_MODEL_STORE, type ReadModelStore } from '../ports/readModelStore.js';
import { inject, injectable } from '../injection.js';
import { DOCUMENTS, type DocumentView } from '../readModels/documentView.js';

export interface ProjectionLag {
  name: string;
  /** The last position of the log it has applied (-1: none). */
  position: string;
  /** How many positions of the log it is behind its head. */
  lag: number;
}

export interface Readiness {
  ready: boolean;
  database: 'ok' | 'unreachable';
  projections: { status: 'following' | 'stopped' | 'unknown'; items: ProjectionLag[] };
}

/** What an operator watches: readiness, the delivery queue, how far the projections lag. */
@injectable()
export class OperationsStatus {
  constructor(
    @inject(HEALTH_PROBE) private readonly health: HealthProbe,
    @inject(EVENT_STORE) private readonly events: EventStore,
    @inject(PROJECTION_STATUS) private readonly projections: ProjectionStatus,
    @inject(READ_MODEL_STORE) private readonly readModels: ReadModelStore,
  ) {}

  /** Deliveries waiting for a retry: documents in TRANSIT with a next attempt planned. */
  async queueDepth(): Promise<number> {
    const { total } = await this.readModels.collection<DocumentView>(DOCUMENTS).find({
      filter: {
        op: 'and',
        filters: [
          { op: 'eq', field: 'state', value: 'TRANSIT' },
          { op: 'ne', field: 'summary.delivery.next_attempt_at', value: null },
        ],
      },
      limit: 1,
    });
    return total;
  }

  /** Each projection's position and its lag behind the head of the log. */
  async projectionLag(): Promise<ProjectionLag[]> {
    const [head, positions] = await Promise.all([this.events.headPosition(), this.projections.positions()]);
    return positions.map(({ name, position }) => ({
      name,
      position: position.toString(),
      lag: Number(head > position ? head - position : 0n),
    }));
  }

  /** Ready when the database answers and the projections follow the log. */
  async readiness(): Promise<Readiness> {
    try {
      await this.health.checkDatabase();
    } catch {
      return { ready: false, database: 'unreachable', projections: { status: 'unknown', items: [] } };
    }
    const following = this.projections.following;
    let items: ProjectionLag[] = [];
    try {
      items = await this.projectionLag();
    } catch {
      return { ready: false, database: 'unreachable', projections: { status: 'unknown', items: [] } };
    }
    return {
      ready: following,
      database: 'ok',
      projections: { status: following ? 'following' : 'stopped', items },
    };
  }
}
