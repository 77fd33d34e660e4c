import { Readable } from 'node:stream';
import type pg from 'pg';
import { assertBlobKey, blobMediaType, type BlobRef, type BlobStore } from '../../application/ports/blobStore.js';
import { checkedBytes, sha256HexInTurns } from './blobDigest.js';

/**
 * Blobs in PostgreSQL, the default profile: table `blobs` (pgSchema.ts), one row per SHA-256, the
 * bytes as bytea (TOAST compresses XML several times over and stores large values out of line).
 * One database to back up, and a blob's row commits durably like the events that will refer to it.
 */
export class PgBlobStore implements BlobStore {
  constructor(private readonly pool: pg.Pool) {}

  async put(bytes: Uint8Array, options: { mediaType?: string } = {}): Promise<BlobRef> {
    const mediaType = blobMediaType(options.mediaType);
    const sha256 = await sha256HexInTurns(bytes);
    // Concurrent puts of the same bytes meet on the primary key: one inserts, the others wait for
    // it and find the row. An existing row is rewritten only when it differs (it was corrupted),
    // compared inside the server so the stored copy never travels back.
    await this.pool.query(
      `INSERT INTO blobs AS b (sha256, size, content) VALUES ($1, $2, $3)
       ON CONFLICT (sha256) DO UPDATE SET size = EXCLUDED.size, content = EXCLUDED.content
         WHERE b.size <> EXCLUDED.size OR b.content <> EXCLUDED.content`,
      [sha256, bytes.length, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)],
    );
    return { sha256, size: bytes.length, mediaType };
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
