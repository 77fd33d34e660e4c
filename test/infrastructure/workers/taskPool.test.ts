import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { TaskPool } from '../../../src/infrastructure/workers/taskPool.js';
import { WorkRefused } from '../../../src/application/documents/documentWork.js';
import { DocumentRejected } from '../../../src/application/documents/documentCommands.js';
import { XmlInputError } from '../../../src/domain/validation/index.js';
import { invoiceWithLines } from '../../../scripts/benchDocuments.js';

/** The task pool with real worker processes: budgets, errors across the boundary, and turns between tenants. */
const TASK_PROCESS = fileURLToPath(new URL('../../../src/composition/taskProcess.js', import.meta.url));
const DYING_TASK_PROCESS = fileURLToPath(new URL('../../support/dyingTaskProcess.js', import.meta.url));

describe('TaskPool (worker processes)', function () {
  this.timeout(60_000);

  it('ends a task over its time budget with a refusal naming the limit, and serves the next task on a fresh worker', async () => {
    const pool = new TaskPool({
      workers: 1,
      entry: TASK_PROCESS,
      taskTimeoutMs: 150,
      maxHeapMb: 256,
      maxWaitingPerTenant: 4,
    });
    try {
      // A 9,000-line invoice takes seconds of CPU to check: far over 150 ms.
      const error = await pool
        .run({ tenantId: 'a' }, 'checkJson', [invoiceWithLines(9_000), { renderPdf: false }])
        .catch((e: unknown) => e);
      expect(error).to.be.instanceOf(WorkRefused);
      expect((error as WorkRefused).reason).to.equal('time_budget');
      expect((error as Error).message).to.include('WORK_TASK_TIMEOUT_MS');
      const small = await pool.run<{ ok: boolean; isValid: boolean }>({ tenantId: 'a' }, 'checkJson', [
        invoiceWithLines(1),
        { renderPdf: false },
      ]);
      expect(small).to.include({ ok: true, isValid: true });
    } finally {
      await pool.close();
    }
  });

  it('brings errors back as their own classes, with their fields', async () => {
    const pool = new TaskPool({
      workers: 1,
      entry: TASK_PROCESS,
      taskTimeoutMs: 30_000,
      maxHeapMb: 256,
      maxWaitingPerTenant: 4,
    });
    try {
      const malformed = await pool
        .run({ tenantId: 'a' }, 'checkUbl', ['<Invoice', { read: false }])
        .catch((e: unknown) => e);
      expect(malformed).to.be.instanceOf(XmlInputError);
      const rejected = await pool
        .run({ tenantId: 'a' }, 'checkJson', [{ ...invoiceWithLines(1), customer_name: null }, { renderPdf: true }])
        .catch((e: unknown) => e);
      expect(rejected).to.be.instanceOf(DocumentRejected);
      expect((rejected as DocumentRejected).issues.map((i) => i.rule_id)).to.include('BR-07');
    } finally {
      await pool.close();
    }
  });

  it('takes tenants in turn: a tenant with a backlog does not hold up another tenant behind all of it', async () => {
    const pool = new TaskPool({
      workers: 1,
      entry: TASK_PROCESS,
      taskTimeoutMs: 30_000,
      maxHeapMb: 256,
      maxWaitingPerTenant: 8,
    });
    try {
      const done: string[] = [];
      const task = (tenantId: string, label: string) =>
        pool.run({ tenantId }, 'checkJson', [invoiceWithLines(200), { renderPdf: false }]).then(() => done.push(label));
      const all = [task('a', 'a1'), task('a', 'a2'), task('a', 'a3'), task('b', 'b1')];
      await Promise.all(all);
      expect(done).to.deep.equal(['a1', 'b1', 'a2', 'a3']);
      // More waiting than allowed is refused at once as busy.
      const many = Array.from({ length: 10 }, () =>
        pool.run({ tenantId: 'c' }, 'checkJson', [invoiceWithLines(1), { renderPdf: false }]).catch((e: unknown) => e),
      );
      const refusals = (await Promise.all(many)).filter((r) => r instanceof WorkRefused && r.reason === 'busy');
      expect(refusals.length).to.be.greaterThan(0);
    } finally {
      await pool.close();
    }
  });

  describe('a worker that dies under a task', () => {
    let scratch: string;
    const refusals: string[] = [];
    const pool = (maxHeapMb = 256) =>
      new TaskPool({
        workers: 1,
        entry: DYING_TASK_PROCESS,
        taskTimeoutMs: 30_000,
        maxHeapMb,
        maxWaitingPerTenant: 4,
        refused: (reason) => refusals.push(reason),
      });
    const small = [invoiceWithLines(1), { renderPdf: false }];
    beforeEach(async () => {
      scratch = await mkdtemp(path.join(os.tmpdir(), 'dying-worker-'));
      process.env.DYING_WORKER_MARKER = path.join(scratch, 'died');
      refusals.length = 0;
    });
    afterEach(async () => {
      delete process.env.DYING_WORKER;
      delete process.env.DYING_WORKER_MARKER;
      await rm(scratch, { recursive: true, force: true });
    });

    it('for another reason than memory: the task runs again on a fresh worker, and succeeds', async () => {
      process.env.DYING_WORKER = 'once';
      const tasks = pool();
      try {
        const result = await tasks.run<{ ok: boolean; isValid: boolean }>({ tenantId: 'a' }, 'checkJson', small);
        expect(result).to.include({ ok: true, isValid: true });
        expect(refusals).to.deep.equal([]);
      } finally {
        await tasks.close();
      }
    });

    it('twice for another reason than memory: refused as a worker failure naming how both ended, never as memory', async () => {
      process.env.DYING_WORKER = 'always';
      const tasks = pool();
      try {
        const error = await tasks.run({ tenantId: 'a' }, 'checkJson', small).catch((e: unknown) => e);
        expect(error).to.be.instanceOf(WorkRefused);
        expect((error as WorkRefused).reason).to.equal('worker_failed');
        expect((error as Error).message).to.equal(
          'Processing this document failed: its worker process ended with code 3 (Error: this worker was told to die at start), and the one that tried again ended with code 3 (Error: this worker was told to die at start)',
        );
        expect((error as Error).message).to.not.match(/memory/);
        expect(refusals).to.deep.equal(['worker_failed']);
      } finally {
        await tasks.close();
      }
    });

    it('out of heap: refused at once as over the memory limit (not tried again)', async () => {
      process.env.DYING_WORKER = 'heap';
      const tasks = pool(64);
      try {
        const error = await tasks.run({ tenantId: 'a' }, 'checkJson', small).catch((e: unknown) => e);
        expect(error).to.be.instanceOf(WorkRefused);
        expect((error as WorkRefused).reason).to.equal('memory_budget');
        expect((error as Error).message).to.match(
          /^Processing this document needs more memory than the limit of 64 MB \(WORK_HEAP_MB; the worker ran out of heap and ended with /,
        );
        expect(refusals).to.deep.equal(['memory_budget']);
      } finally {
        await tasks.close();
      }
    });
  });
});
