import { expect } from 'chai';
import { createHash, generateKeyPairSync, randomUUID } from 'node:crypto';
import type { RecordedEvent } from '../../../src/application/ports/eventStore.js';
import type { ChainLink, SignedCheckpoint } from '../../../src/application/ports/historyChain.js';
import { walkChain, type ChainWalkSources } from '../../../src/application/history/chainWalk.js';
import { linksFor } from '../../../src/application/history/historyChainer.js';
import { checkpointStatement } from '../../../src/application/history/checkpointStatement.js';
import { KeyCheckpointSigner } from '../../../src/infrastructure/history/checkpointSigner.js';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** A log of `n` events at positions 0…n-1, three per document stream, each naming a blob. */
function log(n: number): RecordedEvent[] {
  return Array.from({ length: n }, (_, i) => ({
    id: randomUUID(),
    streamName: `document-${Math.floor(i / 3)}`,
    revision: i % 3,
    globalPosition: BigInt(i),
    type: 'DocumentValidated',
    data: { n: i, amount: '12.30', ref: { sha256: sha(`blob ${i % 5}`), size: 3, media_type: 'text/plain' } },
    metadata: { tenantId: 't1', actor: { kind: 'operator' as const } },
    recordedAt: new Date(1_700_000_000_000 + i).toISOString(),
  }));
}

const signer = new KeyCheckpointSigner(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey, null, 'test');

function checkpointAt(links: ChainLink[], index: number): SignedCheckpoint {
  const link = links[index]!;
  const checkpoint = {
    position: link.position,
    events: link.seq + 1,
    headHash: link.hash.toString('hex'),
    createdAt: new Date(1_800_000_000_000 + index).toISOString(),
  };
  return { ...checkpoint, ...signer.sign(checkpointStatement(checkpoint)) };
}

function after<T>(items: T[], position: (item: T) => bigint) {
  return async (from: bigint | undefined, max: number) =>
    items.filter((item) => from === undefined || position(item) > from).slice(0, max);
}

function sources(
  events: RecordedEvent[],
  links: ChainLink[],
  checkpoints: SignedCheckpoint[] = [],
  extra: Partial<ChainWalkSources> = {},
): ChainWalkSources {
  const byPosition = <T extends { globalPosition?: bigint; position?: bigint }>(list: T[]) =>
    [...list].sort((a, b) => Number((a.globalPosition ?? a.position!) - (b.globalPosition ?? b.position!)));
  return {
    readEvents: after(byPosition(events), (e) => e.globalPosition),
    readLinks: after(byPosition(links), (l) => l.position),
    readCheckpoints: after(byPosition(checkpoints), (c) => c.position),
    trustedKeyIds: new Set([signer.keyId]),
    ...extra,
  };
}

describe('Walking the log against its hash chain', () => {
  it('Given a log chained as it is, When walked, Then nothing differs and every event, link and checkpoint is counted', async () => {
    const events = log(50);
    const links = linksFor(events, null);
    const report = await walkChain(sources(events, links, [checkpointAt(links, 19), checkpointAt(links, 49)]));
    expect(report.ok).to.equal(true);
    expect(report.first_problem).to.equal(null);
    expect(report.events_checked).to.equal(50);
    expect(report.links_checked).to.equal(50);
    expect(report.checkpoints_checked).to.equal(2);
    expect(report.chained_through).to.equal('49');
  });

  it('Given an event whose data was edited, When walked, Then its position is named as changed, and only it', async () => {
    const events = log(30);
    const links = linksFor(events, null);
    events[12] = { ...events[12]!, data: { ...(events[12]!.data as object), amount: '99.99' } };
    const report = await walkChain(sources(events, links, [checkpointAt(links, 29)]));
    expect(report.ok).to.equal(false);
    expect(report.first_problem).to.include({ kind: 'changed', position: '12', event_id: events[12]!.id });
    // The chain's record still holds, so the checkpoint after it matches: one edit, one problem.
    expect(report.problems).to.have.length(1);
  });

  it('Given an edited event type, metadata or time, When walked, Then each is a change at its position', async () => {
    for (const edit of [
      (e: RecordedEvent) => ({ ...e, type: 'DocumentDeleted' }),
      (e: RecordedEvent) => ({ ...e, metadata: { ...e.metadata, actor: { kind: 'unknown' as const } } }),
      (e: RecordedEvent) => ({ ...e, recordedAt: new Date(Date.parse(e.recordedAt) + 1).toISOString() }),
      (e: RecordedEvent) => ({ ...e, streamName: 'document-other' }),
    ]) {
      const events = log(10);
      const links = linksFor(events, null);
      events[4] = edit(events[4]!);
      const report = await walkChain(sources(events, links));
      expect(report.first_problem).to.include({ kind: 'changed', position: '4' });
    }
  });

  it('Given a row removed from the log (no renumbering), When walked, Then its position is named as missing', async () => {
    const events = log(20);
    const links = linksFor(events, null);
    const removed = events.splice(7, 1)[0]!;
    const report = await walkChain(sources(events, links, [checkpointAt(links, 19)]));
    expect(report.first_problem).to.include({ kind: 'missing', position: '7', event_id: removed.id });
    expect(report.problems).to.have.length(1);
  });

  it('Given a row removed and the positions after it renumbered, When walked, Then it is missing and the rest renumbered, in one entry', async () => {
    const events = log(20);
    const links = linksFor(events, null);
    events.splice(7, 1);
    for (let i = 7; i < events.length; i++) events[i] = { ...events[i]!, globalPosition: BigInt(i) };
    const report = await walkChain(sources(events, links));
    expect(report.first_problem).to.include({ kind: 'missing', position: '7' });
    expect(report.problems[1]).to.include({ kind: 'renumbered', position: '7', to_position: '18', count: 12 });
  });

  it('Given an event inserted with the positions after it moved up, When walked, Then it is named as inserted', async () => {
    const events = log(20);
    const links = linksFor(events, null);
    const [intruder] = log(1);
    events.splice(5, 0, { ...intruder!, globalPosition: 5n });
    for (let i = 6; i < events.length; i++) events[i] = { ...events[i]!, globalPosition: BigInt(i) };
    const report = await walkChain(sources(events, links));
    expect(report.first_problem).to.include({ kind: 'inserted', position: '5', event_id: intruder!.id });
    expect(report.problems[1]).to.include({ kind: 'renumbered', position: '6', count: 15 });
  });

  it('Given an event inserted where the chain has no position (a gap), When walked, Then it is inserted', async () => {
    const events = log(10).map((e, i) => ({ ...e, globalPosition: BigInt(i * 10) }));
    const links = linksFor(events, null);
    const [intruder] = log(1);
    events.splice(3, 0, { ...intruder!, globalPosition: 25n });
    const report = await walkChain(sources(events, links));
    expect(report.first_problem).to.include({ kind: 'inserted', position: '25' });
    expect(report.problems).to.have.length(1);
  });

  it('Given two events that swapped positions, When walked, Then the run is named as reordered', async () => {
    const events = log(20);
    const links = linksFor(events, null);
    const [a, b] = [events[8]!, events[9]!];
    events[8] = { ...b, globalPosition: 8n };
    events[9] = { ...a, globalPosition: 9n };
    const report = await walkChain(sources(events, links, [checkpointAt(links, 19)]));
    expect(report.first_problem).to.include({ kind: 'reordered', position: '8' });
    expect(report.first_problem!.detail).to.contain('8–9');
    expect(report.problems).to.have.length(1);
  });

  it("Given the chain's stored hash or digest edited, When walked, Then it is a changed link and the event is as chained", async () => {
    const events = log(10);
    const links = linksFor(events, null);
    const hashEdited = links.map((l, i) => (i === 3 ? { ...l, hash: Buffer.alloc(32, 7) } : l));
    const byHash = await walkChain(sources(events, hashEdited));
    expect(byHash.first_problem).to.include({ kind: 'link_changed', position: '3' });
    expect(byHash.problems).to.have.length(1);
    const digestEdited = links.map((l, i) => (i === 3 ? { ...l, digest: Buffer.alloc(32, 7) } : l));
    const byDigest = await walkChain(sources(events, digestEdited));
    expect(byDigest.first_problem).to.include({ kind: 'link_changed', position: '3' });
    expect(byDigest.problems).to.have.length(1);
  });

  it("Given the chain's row of an event removed, When walked, Then the link is named as missing, not the event", async () => {
    const events = log(10);
    const links = linksFor(events, null);
    links.splice(4, 1);
    const report = await walkChain(sources(events, links));
    expect(report.first_problem).to.include({ kind: 'link_missing', position: '4' });
    expect(report.problems).to.have.length(1);
  });

  it('Given the log and its chain rewritten together, When walked, Then the signed checkpoint after the edit names it', async () => {
    const events = log(30);
    const links = linksFor(events, null);
    const checkpoints = [checkpointAt(links, 9), checkpointAt(links, 19), checkpointAt(links, 29)];
    events[12] = { ...events[12]!, data: { n: 12, amount: '0.01' } };
    const rewritten = linksFor(events, null);
    const report = await walkChain(sources(events, rewritten, checkpoints));
    expect(report.problems.map((p) => [p.kind, p.position])).to.deep.equal([
      ['checkpoint_mismatch', '19'],
      ['checkpoint_mismatch', '29'],
    ]);
  });

  it('Given a checkpoint whose head hash was edited in the database, When walked, Then its signature no longer holds', async () => {
    const events = log(10);
    const links = linksFor(events, null);
    const checkpoint = { ...checkpointAt(links, 9), headHash: sha('forged') };
    const report = await walkChain(sources(events, links, [checkpoint]));
    expect(report.problems.map((p) => p.kind)).to.include('checkpoint_signature');
  });

  it('Given a copy of the checkpoints kept outside, When the database lost one or changed one, Then each is named', async () => {
    const events = log(20);
    const links = linksFor(events, null);
    const kept = [checkpointAt(links, 9), checkpointAt(links, 19)];
    const resigned = { ...kept[1]!, createdAt: '2030-01-01T00:00:00.000Z' };
    const report = await walkChain(
      sources(events, links, [{ ...resigned, ...signer.sign(checkpointStatement(resigned)) }], { external: kept }),
    );
    expect(report.problems.map((p) => [p.kind, p.position])).to.deep.equal([
      ['checkpoint_missing', '9'],
      ['checkpoint_changed', '19'],
    ]);
    expect(report.external_checkpoints_checked).to.equal(2);
  });

  it('Given the tail of the log and its chain both removed, When a checkpoint (kept outside) covers it, Then the checkpoint says so', async () => {
    const events = log(20);
    const links = linksFor(events, null);
    const outside = [checkpointAt(links, 19)];
    const report = await walkChain(sources(events.slice(0, 15), links.slice(0, 15), [], { external: outside }));
    expect(report.problems.map((p) => p.kind)).to.deep.equal(['checkpoint_missing', 'checkpoint_mismatch']);
    expect(report.problems[1]!.detail).to.contain('past the end of the chain');
  });

  it('Given checkpoints signed by another key, When walked, Then they hold but are noted as not signed by the service', async () => {
    const events = log(5);
    const links = linksFor(events, null);
    const report = await walkChain(
      sources(events, links, [checkpointAt(links, 4)], { trustedKeyIds: new Set(['0'.repeat(64)]) }),
    );
    expect(report.ok).to.equal(true);
    expect(report.notes.join()).to.contain(signer.keyId);
  });

  it('Given events not chained yet, When walked, Then they are counted as unchained, not as a problem', async () => {
    const events = log(12);
    const links = linksFor(events.slice(0, 10), null);
    const report = await walkChain(sources(events, links));
    expect(report.ok).to.equal(true);
    expect(report.unchained_events).to.equal(2);
  });

  it('Given a blob whose bytes changed or that is gone, When walked with blobs, Then the first event naming it is named, once per blob', async () => {
    const events = log(10);
    const links = linksFor(events, null);
    const changed = sha('blob 2');
    const gone = sha('blob 4');
    const report = await walkChain(
      sources(events, links, [], {
        checkBlob: async (digest) => (digest === changed ? 'changed' : digest === gone ? 'missing' : 'ok'),
      }),
    );
    expect(report.problems.map((p) => [p.kind, p.position])).to.deep.equal([
      ['blob_changed', '2'],
      ['blob_missing', '4'],
    ]);
    expect(report.blobs_checked).to.equal(5);
  });
});
