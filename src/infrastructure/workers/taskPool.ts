import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { WorkRefused, type WorkOwner } from '../../application/documents/documentWork.js';
import type { TaskName } from './documentTasks.js';
import { reviveError, type SerializedError } from './taskErrors.js';
import { FairQueue } from '../fairness/fairQueue.js';
import { processCpuMs } from './processCpu.js';
import { xmlLimits } from '../../domain/validation/index.js';
import { inject, injectable } from '../../application/injection.js';
import { SETTINGS } from '../settings/catalogue.js';

export interface TaskPoolOptions {
  /** Worker processes. */
  workers: number;
  /** The worker processes' entry module (a composition root: composition/taskProcess.ts). */
  entry: string;
  /** A task using more CPU time than this is ended (its process is killed and replaced) and refused. */
  taskTimeoutMs: number;
  /** V8 heap of each worker process; a task needing more ends its process and is refused. */
  maxHeapMb: number;
  /** Tasks one tenant may have waiting; more are refused as busy (429). */
  maxWaitingPerTenant: number;
  /** Told of every refusal, for monitoring. */
  refused?: (reason: WorkRefused['reason']) => void;
}

export type TaskReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: SerializedError };
type WorkerMessage = TaskReply | { id: number; started: true };

interface Waiting {
  name: TaskName;
  args: unknown[];
  /** Large input: such tasks need hundreds of MB each, so they run one at a time. */
  large: boolean;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  /** How its first worker ended, when that one died under it (the task then runs once more). */
  diedOnce?: string;
}

interface Worker {
  process: ChildProcess;
  /** The end of what it wrote to stderr: V8 says there that it ran out of heap. */
  stderrTail: string;
  /** The task it runs, if any. */
  busy: {
    id: number;
    tenantId: string;
    task: Waiting;
    timer: NodeJS.Timeout | null;
    cpuAtStart: number | null;
    startedAt: number;
  } | null;
}

const BUDGET_CHECK_MS = 100;
const WALL_FACTOR = 3;
const STDERR_TAIL = 4096;
/** What V8 writes before it aborts a process over its heap limit (--max-old-space-size). */
const OUT_OF_HEAP = /heap out of memory|Reached heap limit|Ineffective mark-compacts near heap limit/i;

/**
 * Worker processes for CPU-heavy document work, shared fairly between tenants: they take turns
 * (FairQueue), and while other tenants wait no tenant holds more than all workers but one. So a
 * tenant uploading heavy documents in a loop delays another tenant's task by at most one task's
 * budget, never by its backlog. A task over its time budget, or one
 * whose process runs out of heap, is refused and its process replaced: nothing it did survives.
 * A process that dies under a task for another reason (killed, crashed, could not load) is said
 * to have done so, and the task runs once more on a fresh process before it is refused.
 */
export const TASK_POOL_OPTIONS = Symbol('TaskPoolOptions');

@injectable()
export class TaskPool {
  private readonly workers: Worker[] = [];
  private readonly queue = new FairQueue<Waiting>();
  private readonly running = new Map<string, number>();
  private nextId = 1;
  private closed = false;

  constructor(@inject(TASK_POOL_OPTIONS) private readonly options: TaskPoolOptions) {}

  run<T>(owner: WorkOwner, name: TaskName, args: unknown[], options: { large?: boolean } = {}): Promise<T> {
    if (this.closed) return Promise.reject(new WorkRefused('busy', 'The service is shutting down'));
    if (this.queue.waiting(owner.tenantId) >= this.options.maxWaitingPerTenant) {
      return Promise.reject(
        this.refusal('busy', 'Too many documents of this tenant are being processed; try again shortly'),
      );
    }
    return new Promise<T>((resolve, reject) => {
      this.queue.push(owner.tenantId, {
        name,
        args,
        large: options.large ?? false,
        resolve: resolve as (value: unknown) => void,
        reject,
      });
      this.pump();
    });
  }

  private refusal(reason: WorkRefused['reason'], message: string): WorkRefused {
    this.options.refused?.(reason);
    return new WorkRefused(reason, message);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.queue.drain()) task.reject(new WorkRefused('busy', 'The service is shutting down'));
    await Promise.all(
      this.workers.splice(0).map(
        (worker) =>
          new Promise<void>((resolve) => {
            if (worker.busy) {
              if (worker.busy.timer) clearTimeout(worker.busy.timer);
              worker.busy.task.reject(new WorkRefused('busy', 'The service is shutting down'));
            }
            if (worker.process.exitCode !== null || worker.process.signalCode !== null) return resolve();
            worker.process.once('exit', () => resolve());
            worker.process.kill('SIGKILL');
          }),
      ),
    );
  }

  /**
   * Starts waiting tasks while workers are free; while others wait, a tenant at its cap of workers
   * is passed over, and a large task waits while another large one runs.
   */
  private pump(): void {
    const cap = Math.max(1, this.options.workers - 1);
    // A worker is started only for a task that waits.
    while (this.queue.tenantsWaiting > 0) {
      const worker = this.idleWorker();
      if (!worker) return;
      const largeRunning = this.workers.some((w) => w.busy?.task.large);
      const next = this.queue.take(
        (tenantId, task) =>
          !(task.large && largeRunning) && (this.queue.tenantsWaiting === 1 || (this.running.get(tenantId) ?? 0) < cap),
      );
      if (!next) return;
      this.start(worker, next.tenantId, next.item);
    }
  }

  private idleWorker(): Worker | null {
    const idle = this.workers.find((w) => w.busy === null);
    if (idle) return idle;
    if (this.workers.length >= this.options.workers) return null;
    const worker: Worker = {
      process: fork(this.options.entry, [], {
        execArgv: [`--max-old-space-size=${this.options.maxHeapMb}`, '--enable-source-maps'],
        serialization: 'advanced',
        // How a worker process is told the XML limits in force (taskProcess.ts).
        env: { ...process.env, [SETTINGS.INVOICING_WORKER_XML_LIMITS.name]: JSON.stringify(xmlLimits()) },
        // stderr passes through, and its end is kept to tell why the process ended.
        stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
      }),
      stderrTail: '',
      busy: null,
    };
    const stderr = worker.process.stderr!;
    stderr.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk);
      worker.stderrTail = (worker.stderrTail + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
    (stderr as { unref?: () => void }).unref?.();
    worker.process.on('message', (message: WorkerMessage) =>
      'started' in message ? this.started(worker, message.id) : this.settle(worker, message),
    );
    // Heavy work yields the CPU to the service's own thread, which answers everyone's light requests.
    try {
      if (worker.process.pid) os.setPriority(worker.process.pid, 10);
    } catch {
      // Not permitted here: the workers run at the service's priority.
    }
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
    worker.busy = { id, tenantId, task, timer: null, cpuAtStart: null, startedAt: 0 };
    (worker.process.channel as { ref?: () => void } | undefined)?.ref?.();
    // A process that cannot take the task (its channel closed: it is dying) is ended, and its
    // exit decides what becomes of the task.
    worker.process.send({ id, name: task.name, args: task.args }, (error) => {
      if (error) worker.process.kill('SIGKILL');
    });
  }

  /**
   * The worker began the task: its budget starts. The budget is CPU time, checked every tick of
   * BUDGET_CHECK_MS, so a task on a machine busy with other work is not ended for that; wall
   * time is capped too (WALL_FACTOR times the budget), and is all there is without /proc.
   */
  private started(worker: Worker, id: number): void {
    const busy = worker.busy;
    if (busy?.id !== id) return;
    const pid = worker.process.pid ?? -1;
    busy.cpuAtStart = processCpuMs(pid);
    busy.startedAt = Date.now();
    const budget = this.options.taskTimeoutMs;
    const check = () => {
      const cpu = busy.cpuAtStart === null ? null : processCpuMs(pid);
      const used = cpu === null ? Date.now() - busy.startedAt : cpu - busy.cpuAtStart!;
      if (used > budget || Date.now() - busy.startedAt > budget * WALL_FACTOR) {
        this.finish(worker, (t) =>
          t.reject(
            this.refusal(
              'time_budget',
              `Processing this document took longer than the limit of ${budget} ms of CPU time (WORK_TASK_TIMEOUT_MS)`,
            ),
          ),
        );
        this.retire(worker);
        return;
      }
      busy.timer = setTimeout(check, Math.min(BUDGET_CHECK_MS, budget));
      busy.timer.unref();
    };
    busy.timer = setTimeout(check, Math.min(BUDGET_CHECK_MS, budget));
    busy.timer.unref();
  }

  private settle(worker: Worker, reply: TaskReply): void {
    if (worker.busy?.id !== reply.id) return;
    // V8 keeps the heap a large task grew to: the process is replaced (when next needed) so that
    // its memory goes back, as the PDF reader's worker is after a large file.
    const large = worker.busy.task.large;
    if (large) this.retire(worker);
    this.finish(worker, (t) => (reply.ok ? t.resolve(reply.value) : t.reject(reviveError(reply.error))));
  }

  /**
   * A worker ended. Under a task, V8 saying it ran out of heap makes it the task's refusal;
   * anything else (killed from outside, a crash, an entry that would not load) is not the
   * document's doing: the task runs once more on a fresh worker, and is refused, naming how the
   * worker ended, only if that one dies too.
   */
  private exited(worker: Worker, code: number | null, signal: NodeJS.Signals | null): void {
    const index = this.workers.indexOf(worker);
    if (index >= 0) this.workers.splice(index, 1);
    const busy = worker.busy;
    if (busy && !this.closed) {
      const ended = `${signal ?? `code ${code}`}`;
      if (OUT_OF_HEAP.test(worker.stderrTail)) {
        this.finish(worker, (t) =>
          t.reject(
            this.refusal(
              'memory_budget',
              `Processing this document needs more memory than the limit of ${this.options.maxHeapMb} MB (WORK_HEAP_MB; the worker ran out of heap and ended with ${ended})`,
            ),
          ),
        );
      } else {
        const how = `ended with ${ended}${lastError(worker.stderrTail)}`;
        this.finish(worker, (t) => {
          if (t.diedOnce === undefined) {
            t.diedOnce = how;
            this.queue.push(busy.tenantId, t);
          } else
            t.reject(
              this.refusal(
                'worker_failed',
                `Processing this document failed: its worker process ${t.diedOnce}, and the one that tried again ${how}`,
              ),
            );
        });
      }
    } else this.finish(worker, (t) => t.reject(new WorkRefused('busy', 'The service is shutting down')));
    if (!this.closed) this.pump();
  }

  /** Ends the worker's current task one way or another, and lets the next one start. */
  private finish(worker: Worker, settle: (task: Waiting) => void): void {
    const busy = worker.busy;
    if (!busy) return;
    worker.busy = null;
    if (busy.timer) clearTimeout(busy.timer);
    (worker.process.channel as { unref?: () => void } | undefined)?.unref?.();
    const count = (this.running.get(busy.tenantId) ?? 1) - 1;
    if (count > 0) this.running.set(busy.tenantId, count);
    else {
      this.running.delete(busy.tenantId);
      this.queue.idle(busy.tenantId);
    }
    settle(busy.task);
    if (!this.closed) this.pump();
  }

  /** Kills a worker (its task was ended, or it grew large); a fresh one is started when needed. */
  private retire(worker: Worker): void {
    const index = this.workers.indexOf(worker);
    if (index >= 0) this.workers.splice(index, 1);
    worker.process.kill('SIGKILL');
  }
}

/** The last line of a dying process's stderr that names an error, to say how it ended (`: Error …`). */
function lastError(stderr: string): string {
  const line = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /error|signal|abort/i.test(l))
    .at(-1);
  return line ? ` (${line.slice(0, 200)})` : '';
}
