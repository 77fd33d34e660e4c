import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { loadConfig } from '../../src/infrastructure/config.js';
import { HistoryChainer } from '../../src/application/history/historyChainer.js';
import { parseCheckpoints } from '../../src/application/history/checkpointJson.js';
import { checkpointSignatureProblem } from '../../src/application/history/checkpointStatement.js';
import { HistoryVerification } from '../../src/application/history/historyVerification.js';
import { WorkerRangeWalker } from '../../src/infrastructure/history/workerRangeWalker.js';
import {
  CHECKPOINT_SIGNER,
  HISTORY_BLOB_STORE,
  HISTORY_CHAIN_STORE,
} from '../../src/application/ports/historyChain.js';
import { RECORDED_EVENT_STORE } from '../../src/application/ports/eventStore.js';
import { bearer, createOrganization, createTenant, startTestService, type TestService } from '../support/service.js';
import { realisticDocuments } from '../domain/document/fixtures/realisticDocuments.js';

const run = promisify(execFile);
const VERIFY_SCRIPT = fileURLToPath(new URL('../../scripts/verify-history.js', import.meta.url));

interface Report {
  ok: boolean;
  first_problem: { kind: string; position: string; event_id: string | null; detail: string } | null;
  problems: Array<{ kind: string; position: string; count: number }>;
  events_checked: number;
  checkpoints_checked: number;
  external_checkpoints_checked: number;
  blobs_checked: number;
}

/** A service whose checkpoints are written only on demand, each also appended to a file of the test's. */
async function historyService(dataDir: string, blobs: 'postgres' | 'fs' = 'postgres'): Promise<TestService> {
  const defaults = loadConfig({});
  return startTestService({
    dataDir,
    blobStore: blobs === 'fs' ? { kind: 'fs', dir: path.join(dataDir, 'blobs') } : { kind: 'postgres' },
    history: {
      ...defaults.history,
      checkpointIntervalMs: 0,
      checkpointEveryEvents: 0,
      checkpointFile: path.join(dataDir, 'checkpoints.jsonl'),
    },
  });
}

async function someDocuments(t: TestService, count: number): Promise<void> {
  const { adminKey } = await createOrganization(t);
  const tenant = await createTenant(t, adminKey);
  for (let i = 0; i < count; i++) {
    const res = await t.http
      .post('/api/documents/')
      .set(bearer(tenant.key))
      .send({ ...structuredClone(realisticDocuments()[0]!.body), invoice_id: `HIST-${i}` });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
  }
}

describe('Proving history: the hash chain, its signed checkpoints and their verification (real app, PostgreSQL)', function () {
  let t: TestService;
  let dataDir: string;
  let pool: pg.Pool;
  /** A DocumentCreated event in the middle of the log, and the first checkpoint's position. */
  let p: number;

  const verify = async (body: Record<string, unknown> = {}): Promise<Report> => {
    const res = await t.http.post('/api/operator/history/verify').set(bearer(t.operatorKey)).send(body);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body as Report;
  };
  const checkpointsFile = () => path.join(dataDir, 'checkpoints.jsonl');
  const script = (...args: string[]) =>
    run(process.execPath, [VERIFY_SCRIPT, ...args], {
      env: { ...process.env, DATABASE_URL: t.databaseUrl, DATA_DIR: dataDir, LOG_LEVEL: 'error' },
    }).then(
      (done) => ({ code: 0, stdout: done.stdout }),
      (failed: { code: number; stdout: string }) => ({ code: failed.code, stdout: failed.stdout }),
    );

  before(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'history-'));
    t = await historyService(dataDir);
    pool = new pg.Pool({ connectionString: t.databaseUrl, max: 2 });
    await someDocuments(t, 6);
    const { rows } = await pool.query<{ position: string }>(
      `SELECT global_position AS position FROM es_events WHERE type = 'DocumentCreated' ORDER BY global_position OFFSET 2 LIMIT 1`,
    );
    p = Number(rows[0]!.position);
  });
  after(async () => {
    await pool?.end();
    await t?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('chains every event right after it is committed, and writes a signed checkpoint on demand, listed and copied to the file', async () => {
    const first = await t.http.post('/api/operator/history/checkpoints').set(bearer(t.operatorKey));
    expect(first.status, JSON.stringify(first.body)).to.equal(201);
    const head = await pool.query<{ position: string; count: string }>(
      'SELECT max(global_position) AS position, count(*) AS count FROM es_events',
    );
    expect(first.body).to.include({ position: head.rows[0]!.position, events: Number(head.rows[0]!.count) });
    // Nothing appended since: the same checkpoint, not a new one.
    const again = await t.http.post('/api/operator/history/checkpoints').set(bearer(t.operatorKey));
    expect(again.status).to.equal(200);
    expect(again.body.signature).to.equal(first.body.signature);

    const list = await t.http.get('/api/operator/history/checkpoints').set(bearer(t.operatorKey));
    expect(list.status).to.equal(200);
    expect(list.body.items).to.deep.equal([first.body]);
    expect(list.body.chain).to.deep.include({ chained_through: first.body.position, log_head: first.body.position });
    expect(list.body.signing_key_id).to.equal(first.body.key_id);

    const copied = parseCheckpoints(await readFile(checkpointsFile(), 'utf8'));
    expect(copied).to.have.length(1);
    expect(copied[0]!.headHash).to.equal(first.body.head_hash);
    expect(checkpointSignatureProblem(copied[0]!)).to.equal(null);
  });

  it('verifies a clean log: every event, link, checkpoint and blob holds (the route, and npm run verify-history with the file)', async () => {
    const report = await verify({
      checkpoints: (await t.http.get('/api/operator/history/checkpoints').set(bearer(t.operatorKey))).body.items,
    });
    expect(report.ok, JSON.stringify(report.problems)).to.equal(true);
    expect(report.events_checked).to.be.greaterThan(9);
    expect(report.checkpoints_checked).to.equal(1);
    expect(report.external_checkpoints_checked).to.equal(1);
    expect(report.blobs_checked).to.be.greaterThan(6);
    const { code, stdout } = await script('--checkpoints', checkpointsFile());
    expect(code, stdout).to.equal(0);
    expect(stdout).to.contain('OK: the log is as chained');
  });

  describe('each kind of tampering with the database is found and named at its position', () => {
    before(async () => {
      // Tampering below changes positions the chainer has passed; stopped, it does not chain a
      // renumbered tail either, so every scenario is undone exactly.
      await t.service.resolve(HistoryChainer).stop();
    });

    /** Applies `tamper` (SQL), checks the report, then undoes it; the log verifies again after. */
    const scenario = async (tamper: string[], undo: string[], expected: { kind: string; position: () => number }) => {
      for (const sql of tamper) await pool.query(sql);
      try {
        const report = await verify();
        expect(report.ok).to.equal(false);
        expect(report.first_problem, JSON.stringify(report.problems)).to.include({
          kind: expected.kind,
          position: String(expected.position()),
        });
      } finally {
        for (const sql of undo) await pool.query(sql);
      }
      expect((await verify()).ok).to.equal(true);
    };

    it('an edited event (data): changed', async () => {
      const { rows } = await pool.query<{ data: string }>(
        'SELECT data::text FROM es_events WHERE global_position = $1',
        [p],
      );
      const original = rows[0]!.data.replace(/'/g, "''");
      await scenario(
        [`UPDATE es_events SET data = jsonb_set(data, '{file_name}', '"forged.json"') WHERE global_position = ${p}`],
        [`UPDATE es_events SET data = '${original}'::jsonb WHERE global_position = ${p}`],
        { kind: 'changed', position: () => p },
      );
    });

    it('an edited event (metadata): changed', async () => {
      const { rows } = await pool.query<{ metadata: string }>(
        'SELECT metadata::text FROM es_events WHERE global_position = $1',
        [p + 1],
      );
      const original = rows[0]!.metadata.replace(/'/g, "''");
      await scenario(
        [
          `UPDATE es_events SET metadata = jsonb_set(metadata, '{requestId}', '"someone-else"') WHERE global_position = ${p + 1}`,
        ],
        [`UPDATE es_events SET metadata = '${original}'::jsonb WHERE global_position = ${p + 1}`],
        { kind: 'changed', position: () => p + 1 },
      );
    });

    it('a deleted event: missing', async () => {
      await pool.query('CREATE TABLE removed AS SELECT * FROM es_events WHERE global_position = $1', [p]);
      await scenario(
        [`DELETE FROM es_events WHERE global_position = ${p}`],
        ['INSERT INTO es_events SELECT * FROM removed', 'DROP TABLE removed'],
        { kind: 'missing', position: () => p },
      );
    });

    it('an inserted event, the positions after it moved up: inserted', async () => {
      await scenario(
        [
          `UPDATE es_events SET global_position = -global_position - 1 WHERE global_position >= ${p}`,
          'UPDATE es_events SET global_position = -global_position WHERE global_position < 0',
          `INSERT INTO es_events (global_position, event_id, stream_name, stream_revision, type, data, metadata)
             VALUES (${p}, gen_random_uuid(), 'document-intruder', 0, 'DocumentDeleted', '{"document_id": "intruder"}', '{}')`,
        ],
        [
          `DELETE FROM es_events WHERE stream_name = 'document-intruder'`,
          `UPDATE es_events SET global_position = -global_position WHERE global_position > ${p}`,
          'UPDATE es_events SET global_position = -global_position - 1 WHERE global_position < 0',
        ],
        { kind: 'inserted', position: () => p },
      );
    });

    it('two events that swapped positions: reordered', async () => {
      const swap = [
        `UPDATE es_events SET global_position = -1 WHERE global_position = ${p}`,
        `UPDATE es_events SET global_position = ${p} WHERE global_position = ${p + 1}`,
        `UPDATE es_events SET global_position = ${p + 1} WHERE global_position = -1`,
      ];
      await scenario(swap, swap, { kind: 'reordered', position: () => p });
    });

    it('the same answers when the chain is walked in ranges by worker threads, as a long chain is', async () => {
      const resolve = <T>(token: symbol) => t.service.resolve<T>(token);
      const inRanges = new HistoryVerification(
        resolve(RECORDED_EVENT_STORE),
        resolve(HISTORY_CHAIN_STORE),
        resolve(HISTORY_BLOB_STORE),
        resolve(CHECKPOINT_SIGNER),
        new WorkerRangeWalker({ databaseUrl: t.databaseUrl, eventStoreUrl: null, blobStore: { kind: 'postgres' } }, 2),
        { inProcessBelow: 0, minRangeEvents: 3 },
      );
      const whole = await verify();
      const clean = await inRanges.verify();
      expect(clean.ok, JSON.stringify(clean.problems)).to.equal(true);
      expect([clean.events_checked, clean.links_checked, clean.checkpoints_checked, clean.blobs_checked]).to.deep.equal(
        [whole.events_checked, whole.events_checked, whole.checkpoints_checked, whole.blobs_checked],
      );
      // An edit in each range: both found, the first named first.
      const last = (await pool.query<{ p: string }>('SELECT max(global_position) AS p FROM es_events')).rows[0]!.p;
      const original = await pool.query<{ position: string; metadata: unknown }>(
        'SELECT global_position AS position, metadata FROM es_events WHERE global_position IN (1, $1)',
        [last],
      );
      for (const [position, name] of [
        [last, 'late'],
        ['1', 'early'],
      ])
        await pool.query(
          `UPDATE es_events SET metadata = jsonb_set(metadata, '{requestId}', to_jsonb($2::text)) WHERE global_position = $1`,
          [position, name],
        );
      try {
        const tampered = await inRanges.verify();
        expect(tampered.problems.map((x) => [x.kind, x.position])).to.deep.equal([
          ['changed', '1'],
          ['changed', last],
        ]);
      } finally {
        for (const row of original.rows)
          await pool.query('UPDATE es_events SET metadata = $2 WHERE global_position = $1', [
            row.position,
            row.metadata,
          ]);
      }
    });

    it('an edited row of the chain table: link_changed (the event is as chained)', async () => {
      const { rows } = await pool.query<{ hash: string }>(
        "SELECT encode(hash, 'hex') AS hash FROM es_chain WHERE global_position = $1",
        [p],
      );
      await scenario(
        [`UPDATE es_chain SET hash = sha256(hash) WHERE global_position = ${p}`],
        [`UPDATE es_chain SET hash = decode('${rows[0]!.hash}', 'hex') WHERE global_position = ${p}`],
        { kind: 'link_changed', position: () => p },
      );
    });

    it('a deleted row of the chain table: link_missing', async () => {
      await pool.query('CREATE TABLE removed_link AS SELECT * FROM es_chain WHERE global_position = $1', [p]);
      await scenario(
        [`DELETE FROM es_chain WHERE global_position = ${p}`],
        ['INSERT INTO es_chain SELECT * FROM removed_link', 'DROP TABLE removed_link'],
        { kind: 'link_missing', position: () => p },
      );
    });

    it("a blob's bytes changed in the blob table: blob_changed, at the event that names it", async () => {
      const { rows } = await pool.query<{ sha256: string }>(
        "SELECT data->'document_ref'->>'sha256' AS sha256 FROM es_events WHERE global_position = $1",
        [p],
      );
      const blob = rows[0]!.sha256;
      await scenario(
        [`UPDATE blobs SET content = content || '\\x20'::bytea WHERE sha256 = '${blob}'`],
        [`UPDATE blobs SET content = substring(content FROM 1 FOR length(content) - 1) WHERE sha256 = '${blob}'`],
        { kind: 'blob_changed', position: () => p },
      );
    });

    it('the log rewritten with its chain: the signed checkpoint names it; with its checkpoints gone too, the copy outside does', async () => {
      const checkpoint = (await t.http.get('/api/operator/history/checkpoints').set(bearer(t.operatorKey))).body
        .items[0];
      // Rewrite an event, throw the chain away from there and let the chainer chain the rewritten log.
      await pool.query(
        `UPDATE es_events SET data = jsonb_set(data, '{file_name}', '"rewritten.json"') WHERE global_position = $1`,
        [p],
      );
      await pool.query('DELETE FROM es_chain WHERE global_position >= $1', [p]);
      const chainer = t.service.resolve(HistoryChainer);
      await chainer.start();
      expect(await chainer.catchUp()).to.equal(true);
      const rewritten = await verify();
      expect(rewritten.problems.map((x) => [x.kind, x.position])).to.deep.equal([
        ['checkpoint_mismatch', checkpoint.position],
      ]);

      await pool.query('DELETE FROM es_checkpoints');
      const withCopy = await verify({ checkpoints: [checkpoint] });
      expect(withCopy.problems.map((x) => x.kind)).to.deep.equal(['checkpoint_missing', 'checkpoint_mismatch']);
      const { code, stdout } = await script('--checkpoints', checkpointsFile());
      expect(code, stdout).to.equal(1);
      expect(stdout).to.contain(
        `NOT OK: the first difference is at position ${checkpoint.position}: checkpoint_missing`,
      );
    });
  });

  it('refuses malformed checkpoints with a 422 naming the field, and changes nothing', async () => {
    const res = await t.http
      .post('/api/operator/history/verify')
      .set(bearer(t.operatorKey))
      .send({ checkpoints: [{ position: 'one', events: 1 }] });
    expect(res.status).to.equal(422);
    expect(JSON.stringify(res.body.detail)).to.contain('position must be a decimal string');
    const other = await t.http.post('/api/operator/history/verify').set(bearer(t.operatorKey)).send({ blobs: 'yes' });
    expect(other.status).to.equal(422);
  });
});

describe('Proving history: a blob changed or removed in the file-system blob store (real app, PostgreSQL)', function () {
  let t: TestService;
  let dataDir: string;
  let pool: pg.Pool;

  before(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'history-fs-'));
    t = await historyService(dataDir, 'fs');
    pool = new pg.Pool({ connectionString: t.databaseUrl, max: 2 });
    await someDocuments(t, 2);
    expect(await t.service.resolve(HistoryChainer).catchUp()).to.equal(true);
  });
  after(async () => {
    await pool?.end();
    await t?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('names the first event that refers to a blob whose file changed, then to one whose file is gone', async () => {
    const verify = async () =>
      (await t.http.post('/api/operator/history/verify').set(bearer(t.operatorKey)).send({})).body as Report;
    expect((await verify()).ok).to.equal(true);
    const { rows } = await pool.query<{ position: string; sha256: string }>(
      `SELECT global_position AS position, data->'ubl_ref'->'skeleton'->>'sha256' AS sha256
         FROM es_events WHERE type = 'DocumentCreated' ORDER BY global_position`,
    );
    const [first, second] = rows;
    const file = (sha: string) => path.join(dataDir, 'blobs', sha.slice(0, 2), sha.slice(2, 4), sha);
    const bytes = await readFile(file(first!.sha256));
    await writeFile(file(first!.sha256), Buffer.concat([bytes, Buffer.from(' ')]));
    await rm(file(second!.sha256));
    const report = await verify();
    expect(report.problems.map((x) => [x.kind, x.position])).to.deep.equal([
      ['blob_changed', first!.position],
      ['blob_missing', second!.position],
    ]);
  });
});
