import type { SignedCheckpoint } from '../ports/historyChain.js';

/**
 * A signed checkpoint as the operator sees it (the operator route, the checkpoint file, an evidence
 * bundle): JSON with the position as a decimal string (EventStoreDB positions exceed 2^53).
 */
export interface CheckpointJson {
  position: string;
  events: number;
  head_hash: string;
  created_at: string;
  algorithm: string;
  signature: string;
  key_id: string;
  public_key: string;
  certificate: string | null;
}

export function checkpointJson(c: SignedCheckpoint): CheckpointJson {
  return {
    position: String(c.position),
    events: c.events,
    head_hash: c.headHash,
    created_at: c.createdAt,
    algorithm: c.algorithm,
    signature: c.signature,
    key_id: c.keyId,
    public_key: c.publicKey,
    certificate: c.certificate,
  };
}

/** A checkpoint read back from outside (a file, a request): its fields checked, or why not. */
export function checkpointFromJson(value: unknown): SignedCheckpoint | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'a checkpoint is a JSON object';
  const v = value as Record<string, unknown>;
  const text = (name: string) => (typeof v[name] === 'string' && v[name] !== '' ? (v[name] as string) : null);
  const position = text('position');
  if (position === null || !/^(0|[1-9][0-9]{0,19})$/.test(position)) return 'position must be a decimal string';
  if (typeof v.events !== 'number' || !Number.isSafeInteger(v.events) || v.events < 1)
    return 'events must be a positive integer';
  const headHash = text('head_hash');
  if (headHash === null || !/^[0-9a-f]{64}$/.test(headHash)) return 'head_hash must be 64 lowercase hexadecimal digits';
  const createdAt = text('created_at');
  if (createdAt === null || Number.isNaN(Date.parse(createdAt))) return 'created_at must be an ISO 8601 time';
  const keyId = text('key_id');
  if (keyId === null || !/^[0-9a-f]{64}$/.test(keyId)) return 'key_id must be 64 lowercase hexadecimal digits';
  for (const name of ['algorithm', 'signature', 'public_key']) if (text(name) === null) return `${name} is required`;
  if (v.certificate !== undefined && v.certificate !== null && typeof v.certificate !== 'string')
    return 'certificate must be a PEM string or null';
  return {
    position: BigInt(position),
    events: v.events,
    headHash,
    createdAt,
    algorithm: text('algorithm')!,
    signature: text('signature')!,
    keyId,
    publicKey: text('public_key')!,
    certificate: (v.certificate as string | null | undefined) ?? null,
  };
}

/**
 * Checkpoints from a copy kept outside the database: JSON lines (the checkpoint file), a JSON array,
 * or the operator route's answer ({items: [...]}). Names the line or item that is not one.
 */
export function parseCheckpoints(text: string): SignedCheckpoint[] {
  if (text.trim() === '') return [];
  let whole: unknown;
  try {
    whole = JSON.parse(text);
  } catch {
    // Not one JSON value: JSON lines, one checkpoint a line.
    return text
      .split('\n')
      .map((line, i) => ({ line: line.trim(), where: `line ${i + 1}` }))
      .filter(({ line }) => line !== '')
      .map(({ line, where }) => single(parseLine(line, where), where));
  }
  const list = Array.isArray(whole) ? whole : (whole as { items?: unknown } | null)?.items;
  if (!Array.isArray(list)) return [single(whole, 'the checkpoint')];
  return list.map((value, i) => single(value, `item ${i + 1}`));
}

function single(value: unknown, where: string): SignedCheckpoint {
  const checkpoint = checkpointFromJson(value);
  if (typeof checkpoint === 'string') throw new InvalidCheckpointError(`${where}: ${checkpoint}`);
  return checkpoint;
}

function parseLine(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new InvalidCheckpointError(`${where}: not JSON`);
  }
}

export class InvalidCheckpointError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidCheckpointError';
  }
}
