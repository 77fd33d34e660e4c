import { expect } from 'chai';
import { createHash, randomUUID } from 'node:crypto';
import {
  blobDigestsOf,
  canonicalEventBytes,
  canonicalJson,
  chainHash,
  eventDigest,
  GENESIS_HASH,
} from '../../../src/application/history/canonicalEvent.js';

const sha = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest();

describe("An event's canonical bytes and the chain over them", () => {
  it('Given the JSON example of RFC 8785 (section 3.2.3), When canonicalised, Then it is the output the RFC gives', () => {
    const input = JSON.parse(
      '{"numbers":[333333333.33333329,1E30,4.50,2e-3,0.000000000000000000000000001],"string":"\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/","literals":[null,true,false]}',
    );
    expect(canonicalJson(input)).to.equal(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it('Given member names outside the BMP and with accents, When canonicalised, Then they are sorted by UTF-16 code units', () => {
    expect(canonicalJson({ '\u20ac': 1, '\ud83d\ude00': 2, é: 3, a: 4, B: 5 })).to.equal(
      '{"B":5,"a":4,"é":3,"€":1,"😀":2}',
    );
  });

  it('Given values JSON cannot hold, When canonicalised, Then they are refused', () => {
    expect(() => canonicalJson({ n: Number.NaN })).to.throw(TypeError);
    expect(() => canonicalJson({ n: 1n })).to.throw(TypeError);
  });

  it('Given an event, When its canonical bytes are made, Then they are RFC 8785 of the documented object, the blobs its data names included', () => {
    const blob = sha('content').toString('hex');
    const embed = sha('embed').toString('hex');
    const event = {
      id: randomUUID(),
      streamName: 'document-1',
      revision: 2,
      globalPosition: 12345678901234567890n,
      type: 'DocumentCreated',
      data: {
        document_ref: { sha256: blob, size: 7, media_type: 'application/json' },
        ubl_ref: {
          skeleton: { sha256: blob, size: 7, media_type: 'application/xml' },
          embeds: [{ at: 3, sha256: embed, size: 2 }],
        },
        note: { sha256: 'not-a-digest' },
      },
      metadata: { tenantId: 't', actor: { kind: 'operator' as const } },
      recordedAt: '2026-01-02T03:04:05.678Z',
    };
    const expected = canonicalJson({
      v: 1,
      position: '12345678901234567890',
      stream: 'document-1',
      revision: 2,
      id: event.id,
      type: 'DocumentCreated',
      recorded_at: '2026-01-02T03:04:05.678Z',
      data: event.data,
      metadata: event.metadata,
      blobs: [blob, embed].sort(),
    });
    expect(canonicalEventBytes(event).toString('utf8')).to.equal(expected);
    expect(eventDigest(event).equals(sha(expected))).to.equal(true);
    expect(blobDigestsOf(event.data)).to.deep.equal([blob, embed].sort());
    // A time not written as toISOString writes it is read as the same instant.
    const offset = canonicalEventBytes({ ...event, recordedAt: '2026-01-02T04:04:05.678+01:00' }).toString('utf8');
    expect(offset).to.equal(expected);
  });

  it('Given a previous hash and a digest, When chained, Then the hash is SHA-256 of the 64 bytes, from 32 zero bytes at the start', () => {
    const digest = sha('event');
    expect(GENESIS_HASH.equals(Buffer.alloc(32))).to.equal(true);
    expect(chainHash(GENESIS_HASH, digest).equals(sha(Buffer.concat([Buffer.alloc(32), digest])))).to.equal(true);
  });
});
