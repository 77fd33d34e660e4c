import { Readable } from 'node:stream';
import type { BlobRef, BlobStore } from '../../application/ports/blobStore.js';

/**
 * Recently written and read blobs kept in memory, least recently used first out, up to a number of
 * bytes. A blob never changes under its key (the key is the SHA-256 of the bytes), so a cached copy
 * can never be stale; what the cache saves is the store's round trip and the hash that checks every
 * read. The bytes it holds were hashed when they were put (the store computed the key from them) or
 * checked when they were read, so what it answers is what the key names. A document's content and
 * UBL are read soon after they are written (the send call's answer, the delivery attempt), which is
 * what this is for. A copy corrupted in the store after it was cached is not seen here: the cache
 * answers the right bytes, and the next read past the cache reports the corruption.
 */
export class CachingBlobStore implements BlobStore {
  /** Insertion order is recency order: a hit is moved to the end, eviction takes from the start. */
  private readonly entries = new Map<string, Buffer>();
  private bytes = 0;

  constructor(
    private readonly inner: BlobStore,
    private readonly maxBytes: number,
    /** A blob larger than this is never cached (one large attachment would empty the cache). */
    private readonly maxEntryBytes = Math.max(1, Math.floor(maxBytes / 4)),
  ) {}

  async put(bytes: Uint8Array, options?: { mediaType?: string }): Promise<BlobRef> {
    const ref = await this.inner.put(bytes, options);
    // A copy: the caller's buffer is the caller's to reuse.
    this.remember(ref.sha256, Buffer.from(bytes));
    return ref;
  }

  async get(sha256: string): Promise<Buffer | null> {
    const cached = this.recall(sha256);
    if (cached) return Buffer.from(cached);
    const bytes = await this.inner.get(sha256);
    if (bytes) this.remember(sha256, Buffer.from(bytes));
    return bytes;
  }

  async has(sha256: string): Promise<boolean> {
    return this.entries.has(sha256) || this.inner.has(sha256);
  }

  async stream(sha256: string): Promise<Readable | null> {
    const cached = this.recall(sha256);
    return cached ? Readable.from([Buffer.from(cached)]) : this.inner.stream(sha256);
  }

  /** Bytes held now (for tests and metrics). */
  get size(): number {
    return this.bytes;
  }

  private recall(sha256: string): Buffer | undefined {
    const cached = this.entries.get(sha256);
    if (cached) {
      this.entries.delete(sha256);
      this.entries.set(sha256, cached);
    }
    return cached;
  }

  private remember(sha256: string, bytes: Buffer): void {
    if (bytes.length > this.maxEntryBytes || this.entries.has(sha256)) return;
    this.entries.set(sha256, bytes);
    this.bytes += bytes.length;
    for (const [key, held] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(key);
      this.bytes -= held.length;
    }
  }
}
