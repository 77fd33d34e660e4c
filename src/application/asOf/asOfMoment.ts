import { RECORDED_EVENT_STORE, type EventStore } from '../ports/eventStore.js';
import { inject, injectable } from '../injection.js';
import { invalid } from '../../domain/errors.js';

/**
 * A moment of the log an answer is given as of: the global position of the last event it takes
 * into account (-1: before the first event), and when that was.
 */
export interface AsOfMoment {
  position: bigint;
  /** ISO 8601: the time asked for, or for a position, when its event was recorded. */
  at: string;
}

/** What `as_of` may say: a global log position (digits), or a date-time with its zone. */
export type AsOfInput = { kind: 'position'; position: bigint } | { kind: 'time'; ms: number };

const LOC = ['query', 'as_of'];
const POSITION = /^\d{1,19}$/; // up to 2^63: a PostgreSQL sequence, an EventStoreDB commit position
// A date-time with an explicit zone: without one the moment would depend on the server's clock.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** Reads `as_of`; a malformed one is a 422 naming ["query", "as_of"]. */
export function parseAsOf(text: string): AsOfInput {
  const value = text.trim();
  if (POSITION.test(value)) return { kind: 'position', position: BigInt(value) };
  const ms = DATE_TIME.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms))
    throw invalid(
      'as_of must be a global log position (an integer, e.g. 1234) or a date-time with its zone (e.g. 2025-03-01T12:00:00Z)',
      LOC,
    );
  return { kind: 'time', ms };
}

/**
 * Resolves `as_of` to a position of the global log. A timestamp is the last position recorded at
 * or before it, found by a binary search over the log (a few dozen one-event reads whatever its
 * length, on every event-store adapter): events are recorded in position order, so their times
 * grow with their positions (within the few milliseconds a commit's clock may differ).
 */
@injectable()
export class AsOfMoments {
  /** Only positions and times are read: the events as recorded, not upcast. */
  constructor(@inject(RECORDED_EVENT_STORE) private readonly events: EventStore) {}

  /** The moment `as_of` names; undefined when it is not given. In the future: a 422. */
  async resolve(text: string | undefined, now = Date.now()): Promise<AsOfMoment | undefined> {
    if (text === undefined) return undefined;
    const input = parseAsOf(text);
    const head = await this.events.headPosition();
    if (input.kind === 'position') {
      if (input.position > head)
        throw invalid(`as_of ${input.position} is in the future: the newest event is at position ${head}`, LOC);
      const [event] = await this.events.readAll({ after: input.position - 1n, maxCount: 1 });
      return { position: input.position, at: event?.recordedAt ?? new Date(now).toISOString() };
    }
    if (input.ms > now) throw invalid(`as_of ${new Date(input.ms).toISOString()} is in the future`, LOC);
    return { position: await this.positionAt(input.ms, head), at: new Date(input.ms).toISOString() };
  }

  /** The last position recorded at or before `ms` (-1 when the first event is later). */
  private async positionAt(ms: number, head: bigint): Promise<bigint> {
    // lo: -1 or an event recorded at or before ms; every event at or after hi is recorded after it.
    let lo = -1n;
    let hi = head + 1n;
    while (hi - lo > 1n) {
      const mid = (lo + hi) / 2n;
      const [event] = await this.events.readAll({ after: mid - 1n, maxCount: 1 });
      if (!event || event.globalPosition >= hi) hi = mid;
      else if (Date.parse(event.recordedAt) <= ms) lo = event.globalPosition;
      else hi = event.globalPosition;
    }
    return lo;
  }
}
