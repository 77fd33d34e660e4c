import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { TaskPool } from '../../../src/infrastructure/workers/taskPool.js';
import { WorkRefused } from '../../../src/application/documents/documentWork.js';
import { DocumentRejected } from '../../../src/application/documents/documentCommands.js';
import { XmlInputError } from '../../../src/domain/validation/index.js';
import { invoiceWithLines } from '../../../scripts/benchDocuments.js';

/** The task pool with real worker processes: budgets, errors across the boundary, and turns between tenants. */
const TASK_PROCESS = fileURLToPath(new URL('../../../src/composition/taskProcess.js', import.meta.url));

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
});
