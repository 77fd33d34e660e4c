import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  BlobCorruptedError,
  InvalidBlobKeyError,
  InvalidBlobMediaTypeError,
  type BlobStore,
} from '../../src/application/ports/blobStore.js';
import { expectRejection } from '../support/rejection.js';
import { DomainError } from '../../src/domain/errors.js';

export interface BlobStoreFixture {
  store: BlobStore;
  /** Alters the stored copy of `sha256` behind the adapter's back (one byte flipped), as a bad disk or a hand edit would. */
  corrupt(sha256: string): Promise<void>;
  /** How many blobs the store holds (each suite starts from an empty store). */
  count(): Promise<number>;
  /** What a put may leave behind besides blobs (a folder's temporary files); must be none once puts returned. */
  leftovers?(): Promise<string[]>;
  /** A store of the same kind whose storage fails every access: what it answers without I/O is all it can answer. */
  unreachable(): BlobStore;
  dispose(): Promise<void>;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function read(stream: Readable | null): Promise<Buffer | null> {
  if (!stream) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const hex = sha256(Buffer.from('a key to spoil'));

/** Keys no adapter may use: each must be refused before it becomes a path, a row lookup or an object name. */
export const MALFORMED_KEYS: unknown[] = [
  '',
  'abc',
  hex.slice(1),
  `${hex}0`,
  hex.toUpperCase(),
  'g'.repeat(64),
  '../../etc/passwd',
  `${'../'.repeat(21)}x`,
  `${hex.slice(0, 2)}/${hex.slice(3)}`,
  `${hex.slice(0, 63)}\n`,
  `${hex}\n`,
  `${hex.slice(0, 10)}\u0000${hex.slice(11)}`,
  ` ${hex.slice(1)}`,
  `%2e%2e%2f${hex.slice(9)}`,
  undefined,
  null,
  42,
  { toString: () => hex },
];

/** The behaviour every blob store adapter must have; each adapter's test calls this. */
export function blobStoreContract(adapterName: string, create: () => Promise<BlobStoreFixture>): void {
  describe(`BlobStore contract: ${adapterName}`, function () {
    let fixture: BlobStoreFixture;
    let store: BlobStore;

    before(async () => {
      fixture = await create();
      store = fixture.store;
    });
    after(async () => fixture?.dispose());

    it('keys a blob by the SHA-256 of its bytes', async () => {
      expect((await store.put(Buffer.alloc(0))).sha256).to.equal(
        'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      );
      expect((await store.put(Buffer.from('abc'))).sha256).to.equal(
        'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
      );
    });

    const samples: Array<[string, () => Buffer]> = [
      ['an empty blob', () => Buffer.alloc(0)],
      ['a small text', () => Buffer.from('<Invoice>€ 12.50</Invoice>\n', 'utf8')],
      ['every byte value', () => Buffer.from(Array.from({ length: 256 }, (_, i) => i))],
      ['a 6 MiB blob', () => randomBytes(6 * 1024 * 1024)],
    ];
    for (const [what, make] of samples) {
      it(`gives back ${what} byte for byte (get, has, stream)`, async () => {
        const bytes = make();
        const ref = await store.put(bytes);
        expect(ref).to.deep.equal({ sha256: sha256(bytes), size: bytes.length, mediaType: 'application/octet-stream' });
        expect(await store.has(ref.sha256)).to.equal(true);
        const got = await store.get(ref.sha256);
        expect(Buffer.isBuffer(got)).to.equal(true);
        expect(got!.equals(bytes)).to.equal(true);
        expect((await read(await store.stream(ref.sha256)))!.equals(bytes)).to.equal(true);
      });
    }

    it('keeps bytes given as a view into a larger buffer, and only those', async () => {
      const whole = Buffer.from('headerPAYLOADtrailer');
      const view = new Uint8Array(whole.buffer, whole.byteOffset + 6, 7);
      const ref = await store.put(view);
      expect(ref).to.include({ sha256: sha256(Buffer.from('PAYLOAD')), size: 7 });
      expect((await store.get(ref.sha256))!.toString()).to.equal('PAYLOAD');
    });

    it('puts the same bytes once, whatever media type they come with', async () => {
      const bytes = randomBytes(1000);
      const before = await fixture.count();
      const first = await store.put(bytes, { mediaType: 'application/PDF' });
      const second = await store.put(bytes, { mediaType: 'text/xml; charset=UTF-8' });
      const third = await store.put(bytes);
      expect(first).to.deep.equal({ sha256: sha256(bytes), size: 1000, mediaType: 'application/pdf' });
      expect(second).to.deep.equal({ sha256: sha256(bytes), size: 1000, mediaType: 'text/xml; charset=UTF-8' });
      expect(third.mediaType).to.equal('application/octet-stream');
      expect(await fixture.count()).to.equal(before + 1);
      expect((await store.get(first.sha256))!.equals(bytes)).to.equal(true);
    });

    it('stores concurrent puts of the same bytes once, whole, leaving nothing behind', async () => {
      const bytes = randomBytes(1024 * 1024);
      const before = await fixture.count();
      const refs = await Promise.all(
        Array.from({ length: 8 }, () => store.put(bytes, { mediaType: 'application/pdf' })),
      );
      for (const ref of refs) expect(ref).to.deep.equal(refs[0]);
      expect(await fixture.count()).to.equal(before + 1);
      expect((await store.get(refs[0]!.sha256))!.equals(bytes)).to.equal(true);
      expect(await fixture.leftovers?.()).to.satisfy(
        (left: string[] | undefined) => left === undefined || left.length === 0,
      );
    });

    it('stores different bytes put at once side by side', async () => {
      const blobs = Array.from({ length: 6 }, () => randomBytes(10_000));
      const refs = await Promise.all(blobs.map((bytes) => store.put(bytes)));
      for (const [i, ref] of refs.entries()) expect((await store.get(ref.sha256))!.equals(blobs[i]!)).to.equal(true);
    });

    it('answers null / false for a key it does not hold', async () => {
      const unknown = sha256(randomBytes(32));
      expect(await store.get(unknown)).to.equal(null);
      expect(await store.has(unknown)).to.equal(false);
      expect(await store.stream(unknown)).to.equal(null);
    });

    it('refuses malformed keys, as bad input (422), before touching storage', async () => {
      const unreachable = fixture.unreachable();
      for (const target of [store, unreachable]) {
        for (const key of MALFORMED_KEYS) {
          for (const call of [
            () => target.get(key as string),
            () => target.has(key as string),
            () => target.stream(key as string),
          ]) {
            const error = await expectRejection(call());
            expect(error, `key ${JSON.stringify(key)}`).to.be.instanceOf(InvalidBlobKeyError);
            expect((error as DomainError).kind).to.equal('invalid');
            expect(error).to.be.instanceOf(DomainError);
          }
        }
      }
      // The unreachable store does fail when it has to reach its storage: the refusals above were made without it.
      const error = await expectRejection(unreachable.has(hex));
      expect(error).not.to.be.instanceOf(InvalidBlobKeyError);
    });

    it('refuses a malformed media type before touching storage', async () => {
      const unreachable = fixture.unreachable();
      for (const mediaType of [
        'pdf',
        'application/',
        '/pdf',
        'a/b/c',
        'text/html\r\nX-Injected: 1',
        'text/plain; charset',
        `application/${'x'.repeat(300)}`,
        'tëxt/plain',
      ]) {
        expect(await expectRejection(unreachable.put(Buffer.from('x'), { mediaType })), mediaType).to.be.instanceOf(
          InvalidBlobMediaTypeError,
        );
      }
      expect((await store.put(Buffer.from('x'), { mediaType: '  ' })).mediaType).to.equal('application/octet-stream');
    });

    it('reports a corrupted copy instead of returning it, and a put of the right bytes repairs it', async () => {
      const bytes = randomBytes(64 * 1024);
      const ref = await store.put(bytes, { mediaType: 'application/pdf' });
      await fixture.corrupt(ref.sha256);

      const error = await expectRejection(store.get(ref.sha256));
      expect(error).to.be.instanceOf(BlobCorruptedError);
      expect((error as BlobCorruptedError).sha256).to.equal(ref.sha256);
      // A stream may have passed bytes on, but it never ends as if they were good.
      expect(await expectRejection(store.stream(ref.sha256).then(read))).to.be.instanceOf(BlobCorruptedError);
      // has() does not read the bytes: the blob is there, damaged.
      expect(await store.has(ref.sha256)).to.equal(true);

      expect(await store.put(bytes, { mediaType: 'application/pdf' })).to.deep.equal(ref);
      expect((await store.get(ref.sha256))!.equals(bytes)).to.equal(true);
      expect((await read(await store.stream(ref.sha256)))!.equals(bytes)).to.equal(true);
    });
  });
}
