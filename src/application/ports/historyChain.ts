/**
 * The ports of the tamper-evident history (application/history): where the hash chain over the
 * global log and its signed checkpoints are kept, who signs a checkpoint, and where a copy of each
 * goes outside the database. docs/internals/proving-history.md describes the chain.
 */

/** One event's place in the chain. */
export interface ChainLink {
  /** The event's global position. */
  position: bigint;
  /** 0 for the first event of the log, then 1, 2, …: how many events the chain holds before it. */
  seq: number;
  eventId: string;
  /** SHA-256 of the event's canonical bytes (canonicalEvent.ts). */
  digest: Buffer;
  /** SHA-256 of the previous link's hash and this digest. */
  hash: Buffer;
}

/** What a checkpoint says: the chain's head at one moment. */
export interface HistoryCheckpoint {
  /** Global position of the last event it covers. */
  position: bigint;
  /** How many events the chain holds up to and including that position. */
  events: number;
  /** The chain's hash at that position: 64 lowercase hexadecimal digits. */
  headHash: string;
  /** ISO 8601, when it was made. */
  createdAt: string;
}

/** A checkpoint with its signature and the key that made it. */
export interface SignedCheckpoint extends HistoryCheckpoint {
  /** What signed the statement (checkpointStatement.ts): 'sha256WithRSAEncryption', 'ecdsa-with-SHA256' or 'ed25519'. */
  algorithm: string;
  /** Base64 of the signature over the statement's bytes. */
  signature: string;
  /** SHA-256 (hex) of the signer's public key (DER SubjectPublicKeyInfo): what an operator pins. */
  keyId: string;
  /** The signer's public key, PEM (SPKI). */
  publicKey: string;
  /** The signer's certificate (PEM) when the key has one (the access point's); null otherwise. */
  certificate: string | null;
}

export interface HistoryChainStore {
  /** The chain's last link; null while nothing is chained. */
  head(): Promise<ChainLink | null>;
  /**
   * Adds links right after `expectedHead` (the position of the head the caller chained from; null
   * for an empty chain), all or none. False, with nothing added, when the head is no longer there
   * (another process chained first).
   */
  append(links: ChainLink[], expectedHead: bigint | null): Promise<boolean>;
  /** Links in position order, strictly after `after` (from the first when omitted). */
  read(options?: { after?: bigint; maxCount?: number }): Promise<ChainLink[]>;
  /** The link of the event at `position`; null when there is none. */
  linkAt(position: bigint): Promise<ChainLink | null>;
  /** The last link before `position`; null when there is none. */
  linkBefore(position: bigint): Promise<ChainLink | null>;
  /** The link with this sequence number (the chain's `seq`-th event, from 0); null when there is none. */
  linkAtSeq(seq: number): Promise<ChainLink | null>;
  /** Keeps a checkpoint; one at the same position already kept stays, and is answered instead. */
  saveCheckpoint(checkpoint: SignedCheckpoint): Promise<SignedCheckpoint>;
  /** The newest checkpoints first, a page at a time. */
  checkpoints(options: { limit: number; offset?: number }): Promise<{ items: SignedCheckpoint[]; total: number }>;
  /** Every checkpoint in position order, strictly after `after` (for a walk of the chain). */
  checkpointsAfter(after: bigint | null, maxCount: number): Promise<SignedCheckpoint[]>;
  /** The first checkpoint at or after `position`: the one that covers the event there. */
  checkpointCovering(position: bigint): Promise<SignedCheckpoint | null>;
  latestCheckpoint(): Promise<SignedCheckpoint | null>;
}

/** Signs checkpoint statements with the configured key (or the access point's). */
export interface CheckpointSigner {
  /** The signer's key id (SHA-256 of its SubjectPublicKeyInfo, hex). */
  readonly keyId: string;
  sign(statement: Buffer): Pick<SignedCheckpoint, 'algorithm' | 'signature' | 'keyId' | 'publicKey' | 'certificate'>;
}

/* What a walk of the chain reports (application/history/chainWalk.ts). */

/**
 * How the log can differ from what was chained:
 * - changed: the event at a position is not the one chained there (its bytes, or another event);
 * - missing: a chained event is gone; inserted: an event that was never chained is in the log;
 * - reordered: chained events are there, in another order; renumbered: an event is as chained
 *   but at another position (what removing or inserting one before it with renumbering leaves);
 * - link_changed / link_missing: the chain's own record was edited (the event is as chained);
 * - blob_changed / blob_missing: a blob an event names no longer has the bytes of its SHA-256;
 * - checkpoint_mismatch: the log up to a signed checkpoint no longer hashes to its head hash
 *   (the log and the chain were rewritten together); checkpoint_signature: a checkpoint's
 *   signature does not hold; checkpoint_missing / checkpoint_changed: a checkpoint of a copy kept
 *   outside the database is not in the database, or differs there.
 */
export type HistoryProblemKind =
  | 'changed'
  | 'missing'
  | 'inserted'
  | 'reordered'
  | 'renumbered'
  | 'link_changed'
  | 'link_missing'
  | 'blob_changed'
  | 'blob_missing'
  | 'checkpoint_mismatch'
  | 'checkpoint_signature'
  | 'checkpoint_missing'
  | 'checkpoint_changed';

export interface HistoryProblem {
  kind: HistoryProblemKind;
  /** The (first) global position concerned, decimal. */
  position: string;
  /** The last position of a run of neighbouring positions with the same problem. */
  to_position?: string;
  /** How many positions the run covers (1 for one). */
  count: number;
  event_id: string | null;
  detail: string;
}

export interface ChainWalkReport {
  ok: boolean;
  /** The first position where anything differs, and how; null when nothing does. */
  first_problem: HistoryProblem | null;
  /** In position order; neighbouring positions with the same problem are one entry. At most 100. */
  problems: HistoryProblem[];
  /** How many entries there were in all (`problems` lists the first 100). */
  problems_total: number;
  events_checked: number;
  links_checked: number;
  /** Position of the chain's last link (null: nothing chained). */
  chained_through: string | null;
  /** Events after the chain's last link: recorded, not chained yet (the chainer follows within about a second). */
  unchained_events: number;
  checkpoints_checked: number;
  external_checkpoints_checked: number;
  blobs_checked: number;
  notes: string[];
}

/**
 * A part of the chain, for walks of several parts at once: after a link (its position, its stored
 * hash, how many links up to it), through a position.
 */
export interface ChainRange {
  after: { position: bigint; hash: Buffer; chained: number } | null;
  /** The range's last position; null: to the end of the log (where events not chained yet are counted). */
  through: bigint | null;
}

/** What a walk of one range is asked to compare, besides the log and the chain. */
export interface RangeWalkOptions {
  external: SignedCheckpoint[];
  trustedKeyIds: string[];
  /** Whether the blobs the events name are read. */
  blobs: boolean;
}

/**
 * Walks ranges of the chain off the event loop, several at once (worker threads with connections of
 * their own): a verification of a large log uses every core and leaves the service's requests be.
 */
export interface ChainRangeWalker {
  readonly parallelism: number;
  walk(range: ChainRange, options: RangeWalkOptions): Promise<ChainWalkReport>;
}

/** Hands each new checkpoint to the operator, outside the database (a file they configure). */
export interface CheckpointPublisher {
  publish(checkpoint: SignedCheckpoint): Promise<void>;
}

export const HISTORY_CHAIN_STORE = Symbol('HistoryChainStore');
/**
 * The blob store as stored, without the service's cache in front of it: a verification must read
 * the stored bytes, not a copy kept in memory since they were written.
 */
export const HISTORY_BLOB_STORE = Symbol('HistoryBlobStore');
export const CHECKPOINT_SIGNER = Symbol('CheckpointSigner');
export const CHAIN_RANGE_WALKER = Symbol('ChainRangeWalker');
export const CHECKPOINT_PUBLISHER = Symbol('CheckpointPublisher');
