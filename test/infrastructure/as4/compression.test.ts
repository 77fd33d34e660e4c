import zlib from 'node:zlib';
import { expect } from 'chai';
import { compressPayload, decompressPayload } from '../../../src/infrastructure/as4/compression.js';
import { As4Failure } from '../../../src/infrastructure/as4/as4Failure.js';

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a refusal');
    },
    (error: unknown) => error as As4Failure,
  );

describe('AS4 payload compression', () => {
  it('round-trips small payloads (inline) and large ones (thread pool) as gzip', async () => {
    for (const size of [10, 100_000, 1_000_000]) {
      const payload = Buffer.from('<Invoice>é</Invoice>'.repeat(size / 10).slice(0, size));
      const compressed = await compressPayload(payload);
      expect(zlib.gunzipSync(compressed).equals(payload)).to.equal(true);
      expect((await decompressPayload(compressed, 2_000_000)).equals(payload)).to.equal(true);
    }
  });

  it('a small input that expands beyond the inline share is still read whole when the limit allows', async () => {
    const payload = Buffer.alloc(600 * 1024, 0x41);
    const compressed = zlib.gzipSync(payload);
    expect(compressed.length).to.be.below(16 * 1024);
    expect((await decompressPayload(compressed, 1 << 20)).equals(payload)).to.equal(true);
  });

  it('stops a small bomb at the limit, inline or in the pool, as EBMS:0303', async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(8 * 1024 * 1024));
    expect(bomb.length).to.be.below(16 * 1024);
    for (const limit of [64 * 1024, 1 << 20]) {
      const error = await refusal(decompressPayload(bomb, limit));
      expect(error).to.be.instanceOf(As4Failure);
      expect(error.ebms).to.equal('decompressionFailure');
      expect(error.message).to.equal(`the payload decompresses to more than ${limit} bytes`);
    }
    const corrupt = Buffer.from(bomb);
    corrupt[corrupt.length - 6] ^= 0xff;
    expect((await refusal(decompressPayload(corrupt, 1 << 30))).message).to.match(/not valid gzip/);
  });
});

describe('AS4 payload decompression within the limit', () => {
  it('refuses an output past the limit though it fits the inline share (the limit is the smaller bound)', async () => {
    const payload = Buffer.alloc(100 * 1024, 0x42);
    const compressed = zlib.gzipSync(payload);
    expect(compressed.length).to.be.below(16 * 1024);
    const error = await decompressPayload(compressed, 64 * 1024).then(
      () => null,
      (e: unknown) => e as As4Failure,
    );
    expect(error?.message).to.equal(`the payload decompresses to more than ${64 * 1024} bytes`);
    expect((await decompressPayload(compressed, payload.length)).equals(payload)).to.equal(true);
  });
});
