import type { EventMetadata, NewEvent, RecordedEvent } from '../ports/eventStore.js';
import type { Upcaster } from '../upcastingEventStore.js';
import { inject, injectable } from '../injection.js';
import {
  ERASED,
  PERSONAL_EVENT_TYPES,
  personalPathsOf,
  type DataPath,
} from '../../domain/personalData/personalFields.js';
import { isSealedValue, PersonalDataVault } from './personalDataVault.js';

/*
 * The personal values of events (personalFields.ts), sealed with the tenant's key before they are
 * appended and opened as they are read: the event stores (PostgreSQL and EventStoreDB alike) hold
 * only ciphertext, and every reader (aggregates, projections, process managers, the history) sees
 * the values, or ERASED once the tenant's key is destroyed.
 */

/** The tenant an event is about: the one its data names, or its metadata's. */
const tenantOf = (data: unknown, metadata: EventMetadata | undefined): string | undefined => {
  const named = (data as { tenant_id?: unknown } | null)?.tenant_id;
  return typeof named === 'string' ? named : metadata?.tenantId;
};

/** Seals the personal values of events about to be appended. */
@injectable()
export class PersonalEventSealer {
  constructor(@inject(PersonalDataVault) private readonly vault: PersonalDataVault) {}

  async seal(streamName: string, events: NewEvent[]): Promise<NewEvent[]> {
    if (!events.some((e) => PERSONAL_EVENT_TYPES.has(e.type))) return events;
    const out: NewEvent[] = [];
    for (const event of events) {
      const paths = personalPathsOf(event.type, event.data);
      const plain = paths.filter((p) => {
        const value = valueAt(event.data, p);
        return typeof value === 'string' && !isSealedValue(value);
      });
      if (plain.length === 0) {
        out.push(event);
        continue;
      }
      const tenantId = tenantOf(event.data, event.metadata);
      // Never stored in the clear for want of a tenant: a caller that records personal data names it.
      if (!tenantId)
        throw new Error(`${event.type} of ${streamName} carries personal data but names no tenant to seal it for`);
      const sealer = await this.vault.sealer(tenantId);
      out.push({ ...event, data: await withValues(event.data, plain, (v) => sealer.value(v)) });
    }
    return out;
  }
}

/**
 * Opens the personal values of events as they are read. A value recorded in the clear (before
 * personal data was sealed) of a tenant whose personal data was erased since reads as ERASED too:
 * the log keeps what it recorded, the answers do not show it.
 */
@injectable()
export class PersonalEventOpener implements Upcaster {
  constructor(@inject(PersonalDataVault) private readonly vault: PersonalDataVault) {}

  isOld(event: RecordedEvent): boolean {
    return PERSONAL_EVENT_TYPES.has(event.type);
  }

  async upcast(event: RecordedEvent): Promise<RecordedEvent> {
    const paths = personalPathsOf(event.type, event.data).filter((p) => typeof valueAt(event.data, p) === 'string');
    if (paths.length === 0) return event;
    const tenantId = tenantOf(event.data, event.metadata);
    const erased = tenantId !== undefined && (await this.vault.erasedAt(tenantId)) !== null;
    const data = await withValues(event.data, paths, (value) =>
      isSealedValue(value) ? this.vault.value(value) : erased ? ERASED : value,
    );
    return { ...event, data };
  }
}

/** Upcasters applied one after the other (each sees what the one before made of the event). */
export class ChainedUpcaster implements Upcaster {
  constructor(private readonly upcasters: readonly Upcaster[]) {}

  isOld(event: RecordedEvent): boolean {
    return this.upcasters.some((u) => u.isOld(event));
  }

  async upcast(event: RecordedEvent, whole: () => Promise<RecordedEvent>): Promise<RecordedEvent> {
    let current = event;
    for (const upcaster of this.upcasters) if (upcaster.isOld(current)) current = await upcaster.upcast(current, whole);
    return current;
  }
}

/** The value at `path`, or undefined. */
function valueAt(data: unknown, path: DataPath): unknown {
  let value = data;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** A copy of `data` with the string at each path replaced by `replace`'s answer (others untouched). */
async function withValues(
  data: unknown,
  paths: readonly DataPath[],
  replace: (value: string) => string | Promise<string>,
): Promise<unknown> {
  let out = data;
  for (const path of paths) {
    const value = valueAt(out, path);
    if (typeof value !== 'string') continue;
    out = setAt(out, path, await replace(value));
  }
  return out;
}

function setAt(data: unknown, path: DataPath, value: string): unknown {
  const [key, ...rest] = path;
  const record = data as Record<string, unknown>;
  return { ...record, [key!]: rest.length === 0 ? value : setAt(record[key!], rest, value) };
}
