import type { AsOfMoment, AsOfMoments } from '../application/asOf/asOfMoment.js';
import type { ReadModelProgress } from '../application/ports/projection.js';
import { HttpError } from './errors.js';

/**
 * Reads a request's `as_of` (undefined when not given). `read models`: the answer comes from the
 * read models (lists, stats), which must have reached the moment first; `events`: it is folded
 * from the document's own events.
 */
export type AsOfReader = (text: string | undefined, from: 'events' | 'read models') => Promise<AsOfMoment | undefined>;

/** Time a list as of a moment waits for the read models to reach it, then answers 503. */
const WAIT_MS = 5000;

export function asOfReader(moments: AsOfMoments, readModels: ReadModelProgress): AsOfReader {
  return async (text, from) => {
    const moment = await moments.resolve(text);
    if (moment && from === 'read models' && !(await readModels.waitFor(moment.position, WAIT_MS)))
      throw new HttpError(
        503,
        `The read models have not reached position ${moment.position} yet (they are being built, e.g. after an upgrade): try again shortly`,
        { 'Retry-After': '5' },
      );
    return moment;
  };
}
