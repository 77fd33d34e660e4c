import { inject, injectable } from '../injection.js';
import type { RecordedEvent } from '../ports/eventStore.js';
import { HISTORY_CHAIN_STORE, type ChainLink, type HistoryChainStore } from '../ports/historyChain.js';
import { chainHash, digestOf, GENESIS_HASH, hashFromHex, type ChainedEvent } from './canonicalEvent.js';
import { checkpointFromJson, checkpointJson, type CheckpointJson } from './checkpointJson.js';
import { checkpointSignatureProblem } from './checkpointStatement.js';
import { HistoryCheckpoints } from './historyCheckpoints.js';

/*
 * What links some events of the log (a document's) to signed checkpoints, in a form that is checked
 * offline with nothing but this file's functions (an evidence bundle carries it):
 *
 *   event   : the event as recorded (eventJson), whose canonical bytes hash to its link's digest;
 *   segment : consecutive links of the chain, with the hash before the first, from the event's
 *             position up to a checkpoint's; recomputing hash = SHA-256(previous ‖ digest) along it
 *             must give each stored hash, and the last one must be the checkpoint's head hash;
 *   checkpoint: signed (checkpointStatement.ts) by a key the verifier trusts.
 */

/** One link as JSON: hashes in hex, the position a decimal string. */
export interface LinkJson {
  position: string;
  event_id: string;
  digest: string;
  hash: string;
}

/** Consecutive links of the chain, and the chain's hash just before the first. */
export interface ChainSegment {
  previous_hash: string;
  links: LinkJson[];
}

/** Links from some events to one checkpoint. */
export interface HistoryProof {
  checkpoint: CheckpointJson;
  segment: ChainSegment;
}

/** An event as an evidence bundle carries it: every field its canonical bytes are made of. */
export interface EventJson {
  position: string;
  stream: string;
  revision: number;
  id: string;
  type: string;
  recorded_at: string;
  data: unknown;
  metadata: Record<string, unknown>;
}

export const linkJson = (link: ChainLink): LinkJson => ({
  position: String(link.position),
  event_id: link.eventId,
  digest: link.digest.toString('hex'),
  hash: link.hash.toString('hex'),
});

/** The event as recorded, for a bundle (read it from RECORDED_EVENT_STORE: an upcast event hashes differently). */
export const eventJson = (event: RecordedEvent): EventJson => ({
  position: String(event.globalPosition),
  stream: event.streamName,
  revision: event.revision,
  id: event.id,
  type: event.type,
  recorded_at: event.recordedAt,
  data: event.data,
  metadata: event.metadata,
});

export const chainedEventOf = (event: EventJson): ChainedEvent => ({
  globalPosition: BigInt(event.position),
  streamName: event.stream,
  revision: event.revision,
  id: event.id,
  type: event.type,
  recordedAt: event.recorded_at,
  data: event.data,
  metadata: event.metadata,
});

/** What does not hold in a proof: the checkpoint (its signature, its key), the segment of the chain, or an event. */
export interface ProofProblem {
  part: 'checkpoint' | 'chain_segment' | 'events';
  detail: string;
}

/**
 * Checks events against proofs, offline: each event's canonical bytes hash to the digest its
 * position has in a segment, each segment's hashes follow from the hash before it, each segment ends
 * on its checkpoint's position and head hash, each checkpoint's signature holds, and (when
 * `trustedKeyIds` is given) is made by a trusted key. Answers what does not hold; [] when all does.
 */
export function verifyHistoryProofs(
  events: EventJson[],
  proofs: HistoryProof[],
  trustedKeyIds?: ReadonlySet<string>,
): ProofProblem[] {
  const problems: ProofProblem[] = [];
  const digests = new Map<string, string>();
  for (const [i, proof] of proofs.entries()) {
    const where = `proof ${i + 1}`;
    const checkpoint = checkpointFromJson(proof.checkpoint);
    if (typeof checkpoint === 'string') {
      problems.push({ part: 'checkpoint', detail: `${where}: its checkpoint is malformed: ${checkpoint}` });
      continue;
    }
    const signature = checkpointSignatureProblem(checkpoint);
    if (signature)
      problems.push({
        part: 'checkpoint',
        detail: `${where}: checkpoint at position ${checkpoint.position}: ${signature}`,
      });
    else if (trustedKeyIds && !trustedKeyIds.has(checkpoint.keyId))
      problems.push({
        part: 'checkpoint',
        detail: `${where}: checkpoint at position ${checkpoint.position} is signed by key ${checkpoint.keyId}, which is not trusted`,
      });
    const segment = segmentProblem(proof.segment);
    if (segment) {
      problems.push({ part: 'chain_segment', detail: `${where}: ${segment}` });
      continue;
    }
    const last = proof.segment.links[proof.segment.links.length - 1]!;
    if (last.position !== String(checkpoint.position) || last.hash !== checkpoint.headHash)
      problems.push({
        part: 'chain_segment',
        detail: `${where}: the segment does not end on its checkpoint's position and head hash`,
      });
    for (const link of proof.segment.links) digests.set(link.position, link.digest);
  }
  for (const event of events) {
    const digest = digests.get(event.position);
    if (digest === undefined) {
      problems.push({
        part: 'events',
        detail: `event ${event.id} (position ${event.position}) is in no proof's segment`,
      });
    } else if (digestOf(chainedEventOf(event)).digest.toString('hex') !== digest) {
      problems.push({
        part: 'events',
        detail: `event ${event.id} (position ${event.position}) is not what was chained: its bytes differ`,
      });
    }
  }
  return problems;
}

/** Why a segment's hashes do not follow one from another; null when they do. */
export function segmentProblem(segment: ChainSegment): string | null {
  let previous = hashFromHex(segment.previous_hash);
  if (!previous) return 'its previous hash is not 64 hexadecimal digits';
  if (segment.links.length === 0) return 'it has no links';
  let lastPosition: bigint | null = null;
  for (const link of segment.links) {
    const digest = hashFromHex(link.digest);
    const hash = hashFromHex(link.hash);
    if (!digest || !hash || !/^\d+$/.test(link.position)) return `the link at position ${link.position} is malformed`;
    const position = BigInt(link.position);
    if (lastPosition !== null && position <= lastPosition)
      return `its links are out of order at position ${link.position}`;
    if (!chainHash(previous, digest).equals(hash))
      return `the hash at position ${link.position} does not follow from the one before`;
    previous = hash;
    lastPosition = position;
  }
  return null;
}

/**
 * The chain's API for evidence: the hashes of one event, the checkpoint that covers it, and the
 * links from events to their checkpoints (one proof per checkpoint, each no longer than the events
 * between two checkpoints).
 */
@injectable()
export class HistoryProofs {
  constructor(
    @inject(HISTORY_CHAIN_STORE) private readonly chain: HistoryChainStore,
    @inject(HistoryCheckpoints) private readonly checkpoints: HistoryCheckpoints,
  ) {}

  /** The link of the event at `position` (its digest and chain hash); null while it is not chained. */
  async linkOf(position: bigint): Promise<LinkJson | null> {
    const link = await this.chain.linkAt(position);
    return link ? linkJson(link) : null;
  }

  /** The links from `from` through `to` (both chained positions), with the hash before the first. */
  async segment(from: bigint, to: bigint): Promise<ChainSegment> {
    const before = await this.chain.linkBefore(from);
    const links: ChainLink[] = [];
    let after = from - 1n;
    for (;;) {
      const page = await this.chain.read({ after, maxCount: 5000 });
      const within = page.filter((l) => l.position <= to);
      links.push(...within);
      if (within.length < page.length || page.length < 5000) break;
      after = page[page.length - 1]!.position;
    }
    return { previous_hash: (before?.hash ?? GENESIS_HASH).toString('hex'), links: links.map(linkJson) };
  }

  /**
   * Proofs for events at these positions: each event under the first checkpoint at or after it.
   * Events no checkpoint covers yet get one written now (`checkpointNow`), so a proof is always
   * complete once the events are chained.
   */
  async proofsFor(positions: bigint[]): Promise<HistoryProof[]> {
    const sorted = [...new Set(positions)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    const proofs: HistoryProof[] = [];
    let i = 0;
    while (i < sorted.length) {
      const first = sorted[i]!;
      const checkpoint = (await this.chain.checkpointCovering(first)) ?? (await this.checkpoints.checkpointNow());
      if (checkpoint.position < first) throw new Error(`position ${first} is not chained yet`);
      proofs.push({ checkpoint: checkpointJson(checkpoint), segment: await this.segment(first, checkpoint.position) });
      while (i < sorted.length && sorted[i]! <= checkpoint.position) i++;
    }
    return proofs;
  }
}
