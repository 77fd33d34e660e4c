import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { WorkRefused, type WorkOwner } from '../../application/documents/documentWork.js';
import type { TaskName } from './documentTasks.js';
import { reviveError, type SerializedError } from './taskErrors.js';

export interface TaskPoolOptions {
  /** Worker processes. */
  workers: number;
  /** A task running longer is ended (its process is killed and replaced) and refused. */
  taskTimeoutMs: number;
  /** V8 heap of each worker process; a task needing more ends its process and is refused. */
  maxHeapMb: number;
  /** Tasks one tenant may have waiting; more are refused as busy (429). */
  maxWaitingPerTenant: number;
}

export type TaskReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: SerializedError };

interface Waiting {
  name: TaskName;
  args: unknown[];
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

interface Worker {
  process: ChildProcess;
  /** The task it runs, if any. */
  busy: { id: number; tenantId: string; task: Waiting; timer: NodeJS.Timeout } | null;
}

const WORKER = fileURLToPath(new URL('./taskProcess.js', import.meta.url));

/**
 * Worker processes for CPU-heavy document work, shared fairly between tenants. Each tenant has
 * its own queue and the queues take turns; while other tenants wait, no tenant holds more than
 * all workers but one. So a tenant uploading heavy documents in a loop delays another tenant's
 * task by at most one task's budget, never by its backlog. A task over its time budget, or one
 * whose process runs out of heap, is refused and its process replaced: nothing it did survives.
 */
export class TaskPool {
  private readonly workers: Worker[] = [];
  private readonly queues = new Map<string, Waiting[]>();
  /** Tenants with waiting tasks, in turn order. */
  private readonly turns: string[] = [];
  private readonly running = new Map<string, number>();
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: TaskPoolOptions) {}

  run<T>(owner: WorkOwner, name: TaskName, args: unknown[]): Promise<T> {
    if (this.closed) return Promise.reject(new WorkRefused('busy', 'The service is shutting down'));
    const queue = this.queues.get(owner.tenantId) ?? [];
    if (queue.length >= this.options.maxWaitingPerTenant) {
      return Promise.reject(new WorkRefused('busy', 'Too many documents of this tenant are being processed; try again shortly'));
    }
    return new Promise<T>((resolve, reject) => {
      queue.push({ name, args, resolve: resolve as (value: unknown) => void, reject });
      if (!this.queues.has(owner.tenantId)) {
        this.queues.set(owner.tenantId, queue);
        this.turns.push(owner.tenantId);
      }
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const queue of this.queues.values()) for (const task of queue) task.reject(new WorkRefused('busy', 'The service is shutting down'));
    this.queues.clear();
    this.turns.length = 0;
    await Promise.all(
      this.workers.splice(0).map(
        (worker) =>
          new Promise<void>((resolve) => {
            if (worker.busy) {
              clearTimeout(worker.busy.timer);
              worker.busy.task.reject(new WorkRefused('busy', 'The service is shutting down'));
            }
            if (worker.process.exitCode !== null || worker.process.signalCode !== null) return resolve();
            worker.process.once('exit', () => resolve());
            worker.process.kill('SIGKILL');
          }),
      ),
    );
  }

  /** Starts waiting tasks while workers are free, taking tenants in turn. */
  private pump(): void {
    const cap = Math.max(1, this.options.workers - 1);
    let passes = this.turns.length;
    while (passes-- > 0) {
      const worker = this.idleWorker();
      if (!worker) return;
      const tenantId = this.turns.shift()!;
      if (this.turns.length > 0 && (this.running.get(tenantId) ?? 0) >= cap) {
        this.turns.push(tenantId);
        continue;
      }
      const queue = this.queues.get(tenantId)!;
      const task = queue.shift()!;
      if (queue.length > 0) this.turns.push(tenantId);
      else this.queues.delete(tenantId);
      this.start(worker, tenantId, task);
      passes = this.turns.length;
    }
  }

  private idleWorker(): Worker | null {
    const idle = this.workers.find((w) => w.busy === null);
    if (idle) return idle;
    if (this.workers.length >= this.options.workers) return null;
    const worker: Worker = {
      process: fork(WORKER, [], {
        execArgv: [`--max-old-space-size=${this.options.maxHeapMb}`, '--enable-source-maps'],
        serialization: 'advanced',
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      }),
      busy: null,
    };
    worker.process.on('message', (reply: TaskReply) => this.settle(worker, reply));
    worker.process.on('exit', (code, signal) => this.exited(worker, code, signal));
    // An idle pool does not keep the process alive.
    worker.process.unref();
    (worker.process.channel as { unref?: () => void } | undefined)?.unref?.();
    this.workers.push(worker);
    return worker;
  }

  private start(worker: Worker, tenantId: string, task: Waiting): void {
    const id = this.nextId++;
    this.running.set(tenantId, (this.running.get(tenantId) ?? 0) + 1);
    const timer = setTimeout(() => {
      this.finish(worker, (t) => t.reject(new WorkRefused('time_budget', `Processing this document took longer than the limit of ${this.options.taskTimeoutMs} ms (WORK_TASK_TIMEOUT_MS)`)));
      this.retire(worker);
    }, this.options.taskTimeoutMs);
    timer.unref();
    worker.busy = { id, tenantId, task, timer };
    (worker.process.channel as { ref?: () => void } | undefined)?.ref?.();
    worker.process.send({ id, name: task.name, args: task.args }, (error) => {
      if (error) this.finish(worker, (t) => t.reject(error));
    });
  }

  private settle(worker: Worker, reply: TaskReply): void {
    if (worker.busy?.id !== reply.id) return;
    this.finish(worker, (t) => (reply.ok ? t.resolve(reply.value) : t.reject(reviveError(reply.error))));
  }

  private exited(worker: Worker, code: number | null, signal: NodeJS.Signals | null): void {
    const index = this.workers.indexOf(worker);
    if (index >= 0) this.workers.splice(index, 1);
    // A process that dies under a task was (almost always) out of heap: V8 aborts it.
    this.finish(worker, (t) =>
      t.reject(new WorkRefused('memory_budget', `Processing this document needs more memory than the limit of ${this.options.maxHeapMb} MB (WORK_HEAP_MB; the worker ended with ${signal ?? `code ${code}`})`)),
    );
    if (!this.closed) this.pump();
  }

  /** Ends the worker's current task one way or another, and lets the next one start. */
  private finish(worker: Worker, settle: (task: Waiting) => void): void {
    const busy = worker.busy;
    if (!busy) return;
    worker.busy = null;
    clearTimeout(busy.timer);
    (worker.process.channel as { unref?: () => void } | undefined)?.unref?.();
    const count = (this.running.get(busy.tenantId) ?? 1) - 1;
    if (count === 0) this.running.delete(busy.tenantId);
    else this.running.set(busy.tenantId, count);
    settle(busy.task);
    if (!this.closed) this.pump();
  }

  /** Kills a worker (its task was ended); a fresh one is started when needed. */
  private retire(worker: Worker): void {
    const index = this.workers.indexOf(worker);
    if (index >= 0) this.workers.splice(index, 1);
    worker.process.kill('SIGKILL');
  }
}
