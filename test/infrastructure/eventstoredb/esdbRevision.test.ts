import { expect } from 'chai';
import {
  ANY,
  NO_STREAM,
  STREAM_EXISTS,
  StreamNotFoundError,
  WrongExpectedVersionError,
  type AllStreamResolvedEvent,
} from '@eventstore/db-client';
import { WrongExpectedRevisionError } from '../../../src/application/ports/eventStore.js';
import {
  isSystemEvent,
  toEsdbExpectedRevision,
  toPortAppendError,
  toRecordedEvent,
} from '../../../src/infrastructure/eventstoredb/esdbMapping.js';

describe('EventStoreDB mapping', () => {
  describe('expected revision', () => {
    it('maps the named expectations to the client constants', () => {
      expect(toEsdbExpectedRevision('any')).to.equal(ANY);
      expect(toEsdbExpectedRevision('no_stream')).to.equal(NO_STREAM);
      expect(toEsdbExpectedRevision('stream_exists')).to.equal(STREAM_EXISTS);
    });

    it('maps a revision number to the same bigint revision', () => {
      expect(toEsdbExpectedRevision(0)).to.equal(0n);
      expect(toEsdbExpectedRevision(41)).to.equal(41n);
      expect(toEsdbExpectedRevision(Number.MAX_SAFE_INTEGER)).to.equal(BigInt(Number.MAX_SAFE_INTEGER));
    });

    it('refuses revisions that are not stream revisions', () => {
      for (const bad of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
        expect(() => toEsdbExpectedRevision(bad), String(bad)).to.throw(RangeError);
      }
    });
  });

  describe('append errors', () => {
    it('turns WrongExpectedVersionError into WrongExpectedRevisionError with the actual revision', () => {
      const error = toPortAppendError(
        new WrongExpectedVersionError(undefined, { streamName: 'invoice-1', expected: 0n, current: 3n }),
        'invoice-1',
        0,
      );
      expect(error).to.be.instanceOf(WrongExpectedRevisionError);
      const mapped = error as WrongExpectedRevisionError;
      expect(mapped.streamName).to.equal('invoice-1');
      expect(mapped.expected).to.equal(0);
      expect(mapped.actual).to.equal(3);
      expect(typeof mapped.actual).to.equal('number');
    });

    it("reports an absent stream as 'no_stream'", () => {
      const error = toPortAppendError(
        new WrongExpectedVersionError(undefined, { streamName: 's', expected: STREAM_EXISTS, current: NO_STREAM }),
        's',
        'stream_exists',
      ) as WrongExpectedRevisionError;
      expect(error).to.be.instanceOf(WrongExpectedRevisionError);
      expect(error.actual).to.equal('no_stream');
      expect(error.expected).to.equal('stream_exists');
    });

    it('passes every other error through unchanged', () => {
      const other = new StreamNotFoundError(undefined, 's');
      expect(toPortAppendError(other, 's', 'any')).to.equal(other);
      const plain = new Error('boom');
      expect(toPortAppendError(plain, 's', 'any')).to.equal(plain);
    });
  });

  describe('recorded events', () => {
    const created = new Date('2026-02-03T04:05:06.789Z');
    const resolved = (overrides: Record<string, unknown> = {}): AllStreamResolvedEvent =>
      ({
        event: {
          streamId: 'invoice-1',
          id: 'a1b2c3d4-0000-4000-8000-000000000001',
          isJson: true,
          revision: 7n,
          type: 'InvoiceIssued',
          created,
          data: { n: 1 },
          metadata: { tenantId: 't1' },
          position: { commit: 9_007_199_254_740_993n, prepare: 9_007_199_254_740_993n },
          ...overrides,
        },
        commitPosition: 9_007_199_254_740_993n,
      }) as AllStreamResolvedEvent;

    it('keeps id, stream, type, data and metadata; revision as a number, commit position as the global position', () => {
      expect(toRecordedEvent(resolved())).to.deep.equal({
        id: 'a1b2c3d4-0000-4000-8000-000000000001',
        streamName: 'invoice-1',
        revision: 7,
        globalPosition: 9_007_199_254_740_993n,
        type: 'InvoiceIssued',
        data: { n: 1 },
        metadata: { tenantId: 't1' },
        recordedAt: '2026-02-03T04:05:06.789Z',
      });
    });

    it('reads absent or non-object metadata as empty', () => {
      expect(toRecordedEvent(resolved({ metadata: undefined }))!.metadata).to.deep.equal({});
      expect(toRecordedEvent(resolved({ metadata: new Uint8Array([1, 2]) }))!.metadata).to.deep.equal({});
      expect(toRecordedEvent(resolved({ metadata: ['x'] }))!.metadata).to.deep.equal({});
    });

    it('falls back to the resolved commit position, and refuses an event with no position at all', () => {
      expect(toRecordedEvent(resolved({ position: undefined }))!.globalPosition).to.equal(9_007_199_254_740_993n);
      const bare = { event: { ...resolved().event!, position: undefined } } as unknown as AllStreamResolvedEvent;
      expect(() => toRecordedEvent(bare)).to.throw(/22\.6/);
    });

    it('yields null for a resolved entry without an event', () => {
      expect(toRecordedEvent({})).to.equal(null);
    });

    it('recognises system events by type or stream', () => {
      expect(isSystemEvent({ type: '$metadata', streamId: '$$invoice-1' })).to.equal(true);
      expect(isSystemEvent({ type: '$statsCollected', streamId: '$stats-127.0.0.1:2113' })).to.equal(true);
      expect(isSystemEvent({ type: 'Projected', streamId: '$ce-invoice' })).to.equal(true);
      expect(isSystemEvent({ type: '$>', streamId: 'invoice-1' })).to.equal(true);
      expect(isSystemEvent({ type: 'InvoiceIssued', streamId: 'invoice-1' })).to.equal(false);
    });
  });
});
