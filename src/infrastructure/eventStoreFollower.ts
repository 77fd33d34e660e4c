import type { AllSubscription, EventStore, SubscribeToAllOptions } from '../application/ports/eventStore.js';

/** How long a follower sleeps without a wake-up signal before it polls anyway. */
const FALLBACK_POLL_MS = 1000;

/**
 * Follows the global order by reading in batches from a position, sleeping between reads
 * until `onWake` signals new events (e.g. PostgreSQL NOTIFY) or the fallback poll is due.
 */
export function followAll(
  store: Pick<EventStore, 'readAll'>,
  options: SubscribeToAllOptions,
  listen: (wake: () => void) => () => void,
): AllSubscription {
  const batchSize = options.batchSize ?? 500;
  let position = options.after ?? -1n;
  let stopped = false;
  let sleeping: (() => void) | null = null;
  let signalled = false;
  const wake = () => {
    signalled = true;
    sleeping?.();
  };
  const unlisten = listen(wake);

  const loop = (async () => {
    while (!stopped) {
      signalled = false;
      const events = await store.readAll({ after: position, maxCount: batchSize });
      if (stopped) break;
      if (events.length > 0) {
        await options.onEvents(events);
        position = events[events.length - 1]!.globalPosition;
      }
      if (events.length < batchSize && !signalled && !stopped) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, FALLBACK_POLL_MS);
          sleeping = () => {
            clearTimeout(timer);
            resolve();
          };
        });
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
      await loop;
    },
  };
}
