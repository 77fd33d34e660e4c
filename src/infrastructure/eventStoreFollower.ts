import type { AllSubscription, EventStore, SubscribeToAllOptions } from '../application/ports/eventStore.js';

/** How long a follower sleeps without a wake-up signal before it polls anyway. */
const FALLBACK_POLL_MS = 1000;
/**
 * Under steady load a follower reads at most this often. Each read costs a query, and each batch
 * a transaction in every projection it concerns; reading on every signal (one per append) made
 * those the larger part of what a sent document costs the database. After a quiet spell, the
 * first signal is still read at once.
 */
const MIN_READ_INTERVAL_MS = 15;

/** Sleeps `ms`, or less if the canceller handed to `onCancel` is called. */
const sleep = (ms: number, onCancel: (cancel: () => void) => void) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    onCancel(() => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * Follows the global order by reading in batches from a position, sleeping between reads
 * until `onWake` signals new events (e.g. PostgreSQL NOTIFY) or the fallback poll is due.
 */
export function followAll(
  store: Pick<EventStore, 'readAll'>,
  options: SubscribeToAllOptions,
  listen: (wake: () => void) => () => void,
  minReadIntervalMs = MIN_READ_INTERVAL_MS,
): AllSubscription {
  const batchSize = options.batchSize ?? 500;
  let position = options.after ?? -1n;
  let stopped = false;
  let sleeping: (() => void) | null = null;
  let signalled = false;
  let interrupt: (() => void) | null = null;
  const wake = () => {
    signalled = true;
    sleeping?.();
  };
  const unlisten = listen(wake);

  const loop = (async () => {
    let lastRead = -Infinity;
    while (!stopped) {
      // Signals that arrive during the pause need no record: the read after it sees their events.
      const pause = lastRead + minReadIntervalMs - performance.now();
      if (pause > 0) {
        await sleep(pause, (cancel) => (interrupt = cancel));
        interrupt = null;
        if (stopped) break;
      }
      signalled = false;
      const readAt = performance.now();
      const events = await store.readAll({ after: position, maxCount: batchSize, withoutData: options.withoutData });
      if (stopped) break;
      if (events.length > 0) {
        await options.onEvents(events);
        position = events[events.length - 1]!.globalPosition;
        // Paced from the last read that found events; a full batch means catching up: no pause.
        lastRead = events.length === batchSize ? -Infinity : readAt;
      }
      if (events.length < batchSize && !signalled && !stopped) {
        await sleep(FALLBACK_POLL_MS, (cancel) => (sleeping = cancel));
        sleeping = null;
      }
    }
  })().catch((error: unknown) => {
    // A failed follower is done: it stops listening, and its owner decides whether to start anew.
    unlisten();
    if (!stopped) options.onError?.(error);
  });

  return {
    async stop() {
      stopped = true;
      unlisten();
      sleeping?.();
      interrupt?.();
      await loop;
    },
  };
}
