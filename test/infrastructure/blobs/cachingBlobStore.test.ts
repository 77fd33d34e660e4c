import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { Readable } from 'node:stream';
import type { BlobRef, BlobStore } from '../../../src/application/ports/blobStore.js';
import { CachingBlobStore } from '../../../src/infrastructure/blobs/cachingBlobStore.js';

/** A store that counts the reads that reach it (the cache's whole point is that fewer do). */
class CountingStore implements BlobStore {
  readonly blobs = new Map<string, Buffer>();
  reads = 0;
  async put(bytes: Uint8Array): Promise<BlobRef> {
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    this.blobs.set(sha256, Buffer.from(bytes));
    return { sha256, size: bytes.length, mediaType: 'application/octet-stream' };
  }
  async get(sha256: string): Promise<Buffer | null> {
    this.reads += 1;
    return this.blobs.get(sha256) ?? null;
  }
  async has(sha256: string): Promise<boolean> {
    return this.blobs.has(sha256);
  }
  async stream(sha256: string): Promise<Readable | null> {
    this.reads += 1;
    const bytes = this.blobs.get(sha256);
    return bytes ? Readable.from([bytes]) : null;
  }
}

const bytesOf = (n: number, fill: number) => Buffer.alloc(n, fill);

describe('Caching blob store', () => {
  it('answers a blob it wrote without reading the store, with the same bytes', async () => {
    const inner = new CountingStore();
    const cache = new CachingBlobStore(inner, 1_000);
    const ref = await cache.put(bytesOf(10, 1));
    expect(await cache.get(ref.sha256)).to.deep.equal(bytesOf(10, 1));
    expect(inner.reads).to.equal(0);
  });

  it('keeps its own copy: changing the buffer given or answered changes nothing cached', async () => {
    const cache = new CachingBlobStore(new CountingStore(), 1_000);
    const given = bytesOf(10, 1);
    const ref = await cache.put(given);
    given.fill(9);
    const answered = (await cache.get(ref.sha256))!;
    answered.fill(8);
    expect(await cache.get(ref.sha256)).to.deep.equal(bytesOf(10, 1));
  });

  it('evicts the least recently used past its byte budget, and reads those from the store again', async () => {
    const inner = new CountingStore();
    const cache = new CachingBlobStore(inner, 30, 30);
    const a = await cache.put(bytesOf(10, 1));
    const b = await cache.put(bytesOf(10, 2));
    await cache.get(a.sha256); // a is now the most recent
    await cache.put(bytesOf(10, 3));
    await cache.put(bytesOf(10, 4)); // 40 bytes: b, the least recent, goes
    expect(cache.size).to.equal(30);
    expect(inner.reads).to.equal(0);
    expect(await cache.get(a.sha256)).to.deep.equal(bytesOf(10, 1));
    expect(inner.reads).to.equal(0);
    expect(await cache.get(b.sha256)).to.deep.equal(bytesOf(10, 2));
    expect(inner.reads).to.equal(1);
  });

  it('does not cache a blob larger than one entry may be, and reads it through', async () => {
    const inner = new CountingStore();
    const cache = new CachingBlobStore(inner, 100, 20);
    const big = await cache.put(bytesOf(50, 7));
    expect(cache.size).to.equal(0);
    expect(await cache.get(big.sha256)).to.deep.equal(bytesOf(50, 7));
    expect((await cache.stream(big.sha256)) !== null).to.equal(true);
    expect(inner.reads).to.equal(2);
  });

  it('answers null for an unknown key, and streams a cached blob without the store', async () => {
    const inner = new CountingStore();
    const cache = new CachingBlobStore(inner, 100);
    expect(await cache.get('0'.repeat(64))).to.equal(null);
    const ref = await cache.put(bytesOf(5, 5));
    const chunks: Buffer[] = [];
    for await (const chunk of (await cache.stream(ref.sha256))!) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks)).to.deep.equal(bytesOf(5, 5));
    expect(inner.reads).to.equal(1);
  });
});
