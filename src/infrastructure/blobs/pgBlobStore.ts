import { Readable } from 'node:stream';
import type pg from 'pg';
import { assertBlobKey, blobMediaType, type BlobRef, type BlobStore } from '../../application/ports/blobStore.js';
import { checkedBytes, sha256HexInTurns } from './blobDigest.js';

interface PendingPut {
  sha256: string;
  content: Buffer;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** Rows and bytes of one insert statement: large blobs go in on their own. */
const MAX_ROWS = 64;
const MAX_BYTES = 8 * 1024 * 1024;

function chunks(puts: PendingPut[]): PendingPut[][] {
  const out: PendingPut[][] = [];
  let current: PendingPut[] = [];
  let bytes = 0;
  for (const put of puts) {
    if (current.length > 0 && (current.length >= MAX_ROWS || bytes + put.content.length > MAX_BYTES)) {
      out.push(current);
      current = [];
      bytes = 0;
    }
    current.push(put);
    bytes += put.content.length;
  }
  if (current.length > 0) out.push(current);
  return out;
}

/**
 * Blobs in PostgreSQL, the default profile: table `blobs` (pgSchema.ts), one row per SHA-256, the
 * bytes as bytea (TOAST compresses XML several times over and stores large values out of line).
 * One database to back up, and a blob's row commits durably like the events that will refer to it.
 */
export class PgBlobStore implements BlobStore {
  private pending: PendingPut[] = [];

  constructor(private readonly pool: pg.Pool) {}

  async put(bytes: Uint8Array, options: { mediaType?: string } = {}): Promise<BlobRef> {
    const mediaType = blobMediaType(options.mediaType);
    const sha256 = await sha256HexInTurns(bytes);
    await new Promise<void>((resolve, reject) => {
      const content = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      if (this.pending.push({ sha256, content, resolve, reject }) === 1) setImmediate(() => this.flush());
    });
    return { sha256, size: bytes.length, mediaType };
  }

  /**
   * The puts of one turn of the event loop go in as one statement (a document's evidence is a few
   * blobs stored at once, and concurrent requests store theirs in the same turns): one round trip
   * and one statement for the server instead of one each. Each put resolves when its row commits.
   */
  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    for (const chunk of chunks(batch)) void this.insert(chunk);
  }

  private async insert(chunk: PendingPut[]): Promise<void> {
    // Bytes put twice in one turn are one row: a statement may not affect a row twice.
    const rows = [...new Map(chunk.map((p) => [p.sha256, p])).values()];
    const params = rows.flatMap((p) => [p.sha256, p.content.length, p.content]);
    try {
      // Concurrent puts of the same bytes meet on the primary key: one inserts, the others wait for
      // it and find the row. An existing row is rewritten only when it differs (it was corrupted),
      // compared inside the server so the stored copy never travels back.
      await this.pool.query(
        `INSERT INTO blobs AS b (sha256, size, content) VALUES ${rows.map((_, i) => `($${3 * i + 1}, $${3 * i + 2}, $${3 * i + 3})`).join(', ')}
         ON CONFLICT (sha256) DO UPDATE SET size = EXCLUDED.size, content = EXCLUDED.content
           WHERE b.size <> EXCLUDED.size OR b.content <> EXCLUDED.content`,
        params,
      );
      for (const put of chunk) put.resolve();
    } catch (error) {
      for (const put of chunk) put.reject(error);
    }
  }

  async get(sha256: string): Promise<Buffer | null> {
    assertBlobKey(sha256);
    const { rows } = await this.pool.query<{ content: Buffer }>('SELECT content FROM blobs WHERE sha256 = $1', [
      sha256,
    ]);
    const row = rows[0];
    return row ? await checkedBytes(sha256, row.content) : null;
  }

  async has(sha256: string): Promise<boolean> {
    assertBlobKey(sha256);
    const { rowCount } = await this.pool.query('SELECT 1 FROM blobs WHERE sha256 = $1', [sha256]);
    return rowCount === 1;
  }

  /** bytea has no streaming read: the value is read and checked whole, then streamed. */
  async stream(sha256: string): Promise<Readable | null> {
    const bytes = await this.get(sha256);
    return bytes ? Readable.from([bytes], { objectMode: false }) : null;
  }
}
