import type {
  ChainLink,
  ChainRange,
  ChainWalkReport,
  HistoryProblem,
  HistoryProblemKind,
  SignedCheckpoint,
} from '../ports/historyChain.js';
import { BatchCursor } from './batchCursor.js';
import { chainHash, digestOf, GENESIS_HASH, hashFromHex, type ChainedEvent } from './canonicalEvent.js';
import { checkpointSignatureProblem } from './checkpointStatement.js';

export interface ChainWalkSources {
  readEvents(after: bigint | undefined, maxCount: number): Promise<ChainedEvent[]>;
  readLinks(after: bigint | undefined, maxCount: number): Promise<ChainLink[]>;
  /** The store's checkpoints in position order, strictly after `after`. */
  readCheckpoints(after: bigint | undefined, maxCount: number): Promise<SignedCheckpoint[]>;
  /** Checkpoints from a copy kept outside the database (the operator's file). */
  external?: SignedCheckpoint[];
  /** Key ids whose signatures are this service's (its signing key, the external copy's keys). */
  trustedKeyIds?: ReadonlySet<string>;
  /** Whether a blob is stored with the bytes of its SHA-256; omitted: blobs are not checked. */
  checkBlob?(sha256: string): Promise<'ok' | 'missing' | 'changed'>;
  /** Called between batches (a yield to the event loop, progress). */
  onProgress?(eventsChecked: number): Promise<void>;
}

const BATCH = 2000;
/** How far ahead a walk looks to tell an insertion, a removal and a reordering apart. */
const LOOKAHEAD = 10_000;
const LISTED = 100;
/** A log that differs everywhere is not walked to its end: the first problems say what happened. */
const MAX_PROBLEMS = 1000;
const BLOB_BATCH = 64;

export const WHOLE_CHAIN: ChainRange = { after: null, through: null };

/**
 * Walks the log and the chain side by side, recomputing every event's digest and every link's hash
 * from the event store's own rows, and compares the result with the chain's stored links and with
 * every signed checkpoint (the store's, and those of a copy kept outside the database). Each
 * position is judged on its own: after a difference, the walk goes on from the chain's record, so
 * one edited row is one problem, not every position after it.
 */
export async function walkChain(sources: ChainWalkSources, range: ChainRange = WHOLE_CHAIN): Promise<ChainWalkReport> {
  return new ChainWalk(sources, range).run();
}

/** One report of the walks of consecutive ranges (in order). */
export function mergeReports(reports: ChainWalkReport[]): ChainWalkReport {
  const all = reports.flatMap((r) => r.problems).sort((a, b) => compare(BigInt(a.position), BigInt(b.position)));
  const sum = (field: keyof ChainWalkReport) => reports.reduce((n, r) => n + (r[field] as number), 0);
  const chained = reports.map((r) => r.chained_through).filter((p) => p !== null);
  return {
    ok: reports.every((r) => r.ok),
    first_problem: all[0] ?? null,
    problems: all.slice(0, LISTED),
    problems_total: sum('problems_total'),
    events_checked: sum('events_checked'),
    links_checked: sum('links_checked'),
    chained_through: chained[chained.length - 1] ?? null,
    unchained_events: sum('unchained_events'),
    checkpoints_checked: sum('checkpoints_checked'),
    external_checkpoints_checked: sum('external_checkpoints_checked'),
    blobs_checked: sum('blobs_checked'),
    notes: [...new Set(reports.flatMap((r) => r.notes))],
  };
}

class ChainWalk {
  private readonly events: BatchCursor<ChainedEvent>;
  private readonly links: BatchCursor<ChainLink>;
  private readonly storeCheckpoints: BatchCursor<SignedCheckpoint>;
  private readonly external: SignedCheckpoint[];
  private externalIndex = 0;
  /** The chain's hash at the last position judged, as it should be. */
  private previous: Buffer = GENESIS_HASH;
  private lastPosition: bigint | null = null;
  /** Positions the chain holds up to the last one judged. */
  private chained = 0;
  private step = 0;
  private readonly found: Array<HistoryProblem & { step: number; order: bigint }> = [];
  private problemCount = 0;
  private readonly notes: string[] = [];
  private readonly untrustedKeys = new Set<string>();
  private readonly blobsSeen = new Set<string>();
  private pendingBlobs: Array<{ sha256: string; position: bigint; eventId: string }> = [];
  private eventsChecked = 0;
  private linksChecked = 0;
  private checkpointsChecked = 0;
  private externalChecked = 0;
  private nextCheckpoint: bigint | null = null;

  constructor(
    private readonly sources: ChainWalkSources,
    private readonly range: ChainRange,
  ) {
    const after = range.after?.position;
    this.events = new BatchCursor(sources.readEvents, (e) => e.globalPosition, BATCH, after);
    this.links = new BatchCursor(sources.readLinks, (l) => l.position, BATCH, after);
    this.storeCheckpoints = new BatchCursor(sources.readCheckpoints, (c) => c.position, 500, after);
    this.external = (sources.external ?? [])
      .filter((c) => this.inRange(c.position) && (after === undefined || c.position > after))
      .sort((a, b) => compare(a.position, b.position));
    if (range.after) {
      this.previous = range.after.hash;
      this.lastPosition = range.after.position;
      this.chained = range.after.chained;
    }
  }

  private inRange(position: bigint): boolean {
    return this.range.through === null || position <= this.range.through;
  }

  async run(): Promise<ChainWalkReport> {
    await this.refreshNextCheckpoint();
    let unchained = 0;
    let sinceProgress = 0;
    while (this.problemCount < MAX_PROBLEMS) {
      // Past the range's end is the next range's (its lookahead may still read there).
      const nextEvent = await this.events.peek();
      const nextLink = await this.links.peek();
      const event = nextEvent && this.inRange(nextEvent.globalPosition) ? nextEvent : undefined;
      const link = nextLink && this.inRange(nextLink.position) ? nextLink : undefined;
      if (!event && !link) break;
      if (!link) {
        // Past the chain's head: recorded, not chained yet.
        unchained++;
        this.events.shift();
        continue;
      }
      this.step++;
      if (!event) this.linkWithoutEvent(link);
      else if (event.id === link.eventId) this.judgePair(event, link);
      else await this.outOfPlace(event, link);
      await this.settleIfReached();
      if (this.pendingBlobs.length >= BLOB_BATCH) await this.checkBlobs();
      if (++sinceProgress >= BATCH) {
        sinceProgress = 0;
        await this.sources.onProgress?.(this.eventsChecked);
      }
    }
    if (this.problemCount >= MAX_PROBLEMS) this.notes.push(`the walk stopped after ${MAX_PROBLEMS} problems`);
    await this.checkBlobs();
    await this.settleCheckpoints(this.range.through);
    return this.report(unchained);
  }

  /** An event and the link chained for it (same id): the event's bytes and the link's record. */
  private judgePair(event: ChainedEvent, link: ChainLink): void {
    const { digest, blobs } = digestOf(event);
    const expected = chainHash(this.previous, digest);
    if (digest.equals(link.digest)) {
      // (The position is in the digest: an equal digest is the same event at the same position.)
      if (!expected.equals(link.hash)) {
        this.problem(
          'link_changed',
          link.position,
          link.eventId,
          "the chain's stored hash was changed (the event is as chained)",
        );
      }
      this.advance(link, expected);
    } else if (expected.equals(link.hash)) {
      this.problem(
        'link_changed',
        link.position,
        link.eventId,
        "the chain's stored digest was changed (the event is as chained)",
      );
      this.advance(link, expected);
    } else if (
      event.globalPosition !== link.position &&
      digestOf({ ...event, globalPosition: link.position }).digest.equals(link.digest)
    ) {
      this.renumbered(event, link);
      this.advance(link, chainHash(this.previous, link.digest));
    } else {
      const linkHolds = chainHash(this.previous, link.digest).equals(link.hash);
      this.problem(
        'changed',
        event.globalPosition,
        event.id,
        linkHolds
          ? 'the event is not what was chained: its type, stream, data, metadata or time were edited'
          : "the event and the chain's record of it were both edited",
      );
      this.advance(link, link.hash);
    }
    this.eventsChecked++;
    this.events.shift();
    this.links.shift();
    this.queueBlobs(blobs, event);
  }

  private renumbered(event: ChainedEvent, link: ChainLink): void {
    this.problem(
      'renumbered',
      event.globalPosition,
      event.id,
      `the event is as chained, but at position ${event.globalPosition} instead of ${link.position}`,
    );
  }

  /** The walk moves past a link: `hash` is the chain's hash there, as it should be. */
  private advance(link: ChainLink, hash: Buffer): void {
    this.previous = hash;
    this.lastPosition = link.position;
    this.chained++;
    this.linksChecked++;
  }

  /** The chain has a link whose event is not in the log (any more). */
  private linkWithoutEvent(link: ChainLink): void {
    this.problem('missing', link.position, link.eventId, 'the chained event is no longer in the log');
    this.advance(link, link.hash);
    this.links.shift();
  }

  /** The event and the link in front of the walk are not the same event. */
  private async outOfPlace(event: ChainedEvent, link: ChainLink): Promise<void> {
    const eventPosition = event.globalPosition;
    const linkPosition = link.position;
    if (eventPosition < linkPosition) {
      // An event at a position the chain has no link for.
      if (await this.chainedAhead(event.id)) return this.reordered();
      const { digest, blobs } = digestOf(event);
      const withIt = chainHash(this.previous, digest);
      if (chainHash(withIt, link.digest).equals(link.hash)) {
        this.problem(
          'link_missing',
          eventPosition,
          event.id,
          "the chain's record of this event was removed (the event is as chained)",
        );
        this.previous = withIt;
        this.lastPosition = eventPosition;
        this.chained++;
        this.queueBlobs(blobs, event);
      } else {
        this.problem('inserted', eventPosition, event.id, 'an event that was never chained is in the log');
      }
      this.eventsChecked++;
      this.events.shift();
      return;
    }
    if (linkPosition < eventPosition) {
      // A link at a position the log has no event at.
      if (await this.loggedAhead(link.eventId)) return this.reordered();
      this.linkWithoutEvent(link);
      return;
    }
    // The same position, two different events.
    const eventChained = await this.chainedAhead(event.id);
    const linkLogged = await this.loggedAhead(link.eventId);
    if (eventChained && linkLogged) return this.reordered();
    if (linkLogged) {
      this.problem('inserted', eventPosition, event.id, 'an event that was never chained is in the log');
      this.eventsChecked++;
      this.events.shift();
    } else if (eventChained) {
      this.linkWithoutEvent(link);
    } else {
      this.replaced(event, link);
    }
  }

  /** Another event than the chained one is at the chained one's place: both are passed. */
  private replaced(event: ChainedEvent, link: ChainLink): void {
    this.problem(
      'changed',
      event.globalPosition,
      event.id,
      `another event (${event.id}) is where ${link.eventId} was chained`,
    );
    this.eventsChecked++;
    this.events.shift();
    this.advance(link, link.hash);
    this.links.shift();
  }

  /**
   * The events in front of the walk are the chained ones in another order: the shortest run of
   * both that holds the same events is reported as one reordering, and the walk goes on after it.
   */
  private async reordered(): Promise<void> {
    const chainedIds = new Set<string>();
    const loggedIds = new Set<string>();
    let unmatched = 0;
    for (let k = 0; k < LOOKAHEAD; k++) {
      const link = await this.links.peek(k);
      const event = await this.events.peek(k);
      if (!link || !event) break;
      for (const [id, mine, theirs] of [
        [link.eventId, chainedIds, loggedIds],
        [event.id, loggedIds, chainedIds],
      ] as const) {
        if (theirs.has(id)) {
          theirs.delete(id);
          unmatched--;
        } else {
          mine.add(id);
          unmatched++;
        }
      }
      if (unmatched === 0) {
        const first = (await this.links.peek(0))!;
        const last = link;
        this.problem(
          'reordered',
          first.position,
          first.eventId,
          `the ${k + 1} events chained at positions ${first.position}–${last.position} are in the log in another order`,
        );
        // Each event of the run is still compared with its own link (by id), as if at its chained position.
        const run = new Map<string, ChainedEvent>();
        for (let i = 0; i <= k; i++) {
          const e = (await this.events.peek(i))!;
          run.set(e.id, e);
        }
        for (let i = 0; i <= k; i++) {
          const l = (await this.links.peek(0))!;
          const e = run.get(l.eventId)!;
          const { digest, blobs } = digestOf({ ...e, globalPosition: l.position });
          if (!digest.equals(l.digest))
            this.problem(
              'changed',
              e.globalPosition,
              e.id,
              'the event is not what was chained: its type, stream, data, metadata or time were edited',
            );
          this.queueBlobs(blobs, e);
          this.advance(l, l.hash);
          this.links.shift();
          this.eventsChecked++;
          this.events.shift();
          await this.settleIfReached();
        }
        return;
      }
    }
    // No run within reach holds the same events: the event here is simply not the chained one.
    this.replaced((await this.events.peek())!, (await this.links.peek())!);
  }

  private async chainedAhead(id: string): Promise<boolean> {
    for (let k = 0; k < LOOKAHEAD; k++) {
      const link = await this.links.peek(k);
      if (!link) return false;
      if (link.eventId === id) return true;
    }
    return false;
  }

  private async loggedAhead(id: string): Promise<boolean> {
    for (let k = 0; k < LOOKAHEAD; k++) {
      const event = await this.events.peek(k);
      if (!event) return false;
      if (event.id === id) return true;
    }
    return false;
  }

  private problem(kind: HistoryProblemKind, position: bigint, eventId: string | null, detail: string): void {
    const last = this.found[this.found.length - 1];
    // A run of neighbouring positions with the same problem (a renumbering, a removed range) is one entry.
    if (last && last.kind === kind && last.step === this.step - 1 && kind !== 'checkpoint_mismatch') {
      last.step = this.step;
      last.to_position = String(position);
      last.count++;
      return;
    }
    this.problemCount++;
    this.found.push({
      kind,
      position: String(position),
      count: 1,
      event_id: eventId,
      detail,
      step: this.step,
      order: position,
    });
  }

  private queueBlobs(blobs: string[], event: ChainedEvent): void {
    if (!this.sources.checkBlob) return;
    for (const sha256 of blobs) {
      if (this.blobsSeen.has(sha256)) continue;
      this.blobsSeen.add(sha256);
      this.pendingBlobs.push({ sha256, position: event.globalPosition, eventId: event.id });
    }
  }

  private async checkBlobs(): Promise<void> {
    const check = this.sources.checkBlob;
    const pending = this.pendingBlobs;
    this.pendingBlobs = [];
    if (!check || pending.length === 0) return;
    const outcomes = await Promise.all(pending.map((b) => check(b.sha256)));
    outcomes.forEach((outcome, i) => {
      const blob = pending[i]!;
      // Out of the walk's order: never merged into a run.
      this.step += 2;
      if (outcome === 'changed') {
        this.problem(
          'blob_changed',
          blob.position,
          blob.eventId,
          `the bytes of blob ${blob.sha256} no longer have that SHA-256`,
        );
      } else if (outcome === 'missing') {
        this.problem(
          'blob_missing',
          blob.position,
          blob.eventId,
          `blob ${blob.sha256}, which the event names, is not stored`,
        );
      }
    });
  }

  // --- checkpoints ---

  private async refreshNextCheckpoint(): Promise<void> {
    const stored = await this.storeCheckpoints.peek();
    const external = this.external[this.externalIndex];
    const candidates = [stored?.position, external?.position].filter((p): p is bigint => p !== undefined);
    this.nextCheckpoint = candidates.length === 0 ? null : candidates.reduce((a, b) => (a < b ? a : b));
  }

  private async settleIfReached(): Promise<void> {
    if (this.nextCheckpoint !== null && this.lastPosition !== null && this.nextCheckpoint <= this.lastPosition)
      await this.settleCheckpoints(this.lastPosition);
  }

  /**
   * Compares every checkpoint at or before `reached` (the position just judged; null: the walk's
   * end, so every checkpoint left) with the chain as it should be there.
   */
  private async settleCheckpoints(reached: bigint | null): Promise<void> {
    for (;;) {
      const stored = await this.storeCheckpoints.peek();
      const external = this.external[this.externalIndex];
      const position =
        stored && (!external || stored.position <= external.position) ? stored.position : external?.position;
      if (position === undefined || (reached !== null && position > reached)) break;
      const fromStore = stored?.position === position ? stored : null;
      const fromOutside = external?.position === position ? external : null;
      if (fromStore) this.storeCheckpoints.shift();
      if (fromOutside) this.externalIndex++;
      this.judgeCheckpoint(position, fromStore, fromOutside);
    }
    await this.refreshNextCheckpoint();
  }

  private judgeCheckpoint(position: bigint, stored: SignedCheckpoint | null, outside: SignedCheckpoint | null): void {
    this.step += 2;
    for (const [checkpoint, where] of [
      [stored, 'kept in the database'],
      [outside, 'of the copy outside the database'],
    ] as const) {
      if (!checkpoint) continue;
      if (where === 'kept in the database') this.checkpointsChecked++;
      else this.externalChecked++;
      const signature = checkpointSignatureProblem(checkpoint);
      if (signature)
        this.problem(
          'checkpoint_signature',
          position,
          null,
          `the checkpoint ${where} made at ${checkpoint.createdAt}: ${signature}`,
        );
      else if (this.sources.trustedKeyIds && !this.sources.trustedKeyIds.has(checkpoint.keyId))
        this.untrustedKeys.add(checkpoint.keyId);
    }
    if (outside && !stored) {
      this.problem(
        'checkpoint_missing',
        position,
        null,
        `the checkpoint made at ${outside.createdAt}, in the copy outside the database, is not in the database`,
      );
    } else if (outside && stored && !sameCheckpoint(outside, stored)) {
      this.problem(
        'checkpoint_changed',
        position,
        null,
        `the checkpoint made at ${outside.createdAt} differs in the database from the copy outside it`,
      );
    }
    const checkpoint = (outside ?? stored)!;
    const head = hashFromHex(checkpoint.headHash);
    if (this.lastPosition !== position) {
      this.problem(
        'checkpoint_mismatch',
        position,
        null,
        this.lastPosition === null || this.lastPosition < position
          ? `the checkpoint made at ${checkpoint.createdAt} covers position ${position}, past the end of the chain (${this.lastPosition ?? 'nothing'}): events up to it were removed`
          : `the checkpoint made at ${checkpoint.createdAt} names position ${position}, where the log has no chained event`,
      );
    } else if (!head || !head.equals(this.previous) || checkpoint.events !== this.chained) {
      this.problem(
        'checkpoint_mismatch',
        position,
        null,
        `the log up to position ${position} no longer hashes to the head hash signed at ${checkpoint.createdAt}: it was rewritten, with its chain, since`,
      );
    }
  }

  private report(unchained: number): ChainWalkReport {
    if (this.untrustedKeys.size > 0) {
      this.notes.push(
        `checkpoints signed by keys other than this service's signing key (or the copy's): ${[...this.untrustedKeys].join(', ')}`,
      );
    }
    const ordered = this.found
      .map(({ step: _step, order, ...problem }) => ({ problem, order }))
      .sort((a, b) => compare(a.order, b.order))
      .map((p) => p.problem);
    return {
      ok: ordered.length === 0,
      first_problem: ordered[0] ?? null,
      problems: ordered.slice(0, LISTED),
      problems_total: ordered.length,
      events_checked: this.eventsChecked,
      links_checked: this.linksChecked,
      chained_through: this.lastPosition === null ? null : String(this.lastPosition),
      unchained_events: unchained,
      checkpoints_checked: this.checkpointsChecked,
      external_checkpoints_checked: this.externalChecked,
      blobs_checked: this.blobsSeen.size,
      notes: this.notes,
    };
  }
}

function sameCheckpoint(a: SignedCheckpoint, b: SignedCheckpoint): boolean {
  return (
    a.position === b.position &&
    a.events === b.events &&
    a.headHash === b.headHash &&
    a.createdAt === b.createdAt &&
    a.signature === b.signature &&
    a.keyId === b.keyId
  );
}

const compare = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);
