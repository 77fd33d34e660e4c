/**
 * Waiting work of many tenants, taken in turns: each tenant has its own FIFO queue, and the next
 * item is the one of the waiting tenant served longest ago (a tenant never served first). So a
 * tenant with a backlog of heavy work delays another tenant by one item, not by its backlog.
 */
export class FairQueue<T> {
  private readonly queues = new Map<string, T[]>();
  /** When each waiting (or running) tenant was last served: a counter, not a time. */
  private readonly lastServed = new Map<string, number>();
  private served = 0;

  waiting(tenantId: string): number {
    return this.queues.get(tenantId)?.length ?? 0;
  }

  get tenantsWaiting(): number {
    return this.queues.size;
  }

  push(tenantId: string, item: T): void {
    const queue = this.queues.get(tenantId);
    if (queue) queue.push(item);
    else this.queues.set(tenantId, [item]);
  }

  /** The next item, from the tenant served longest ago among those whose first waiting item `eligible` accepts. */
  take(eligible: (tenantId: string, item: T) => boolean = () => true): { tenantId: string; item: T } | null {
    let next: string | null = null;
    for (const [tenantId, queue] of this.queues) {
      if (!eligible(tenantId, queue[0]!)) continue;
      if (next === null || (this.lastServed.get(tenantId) ?? -1) < (this.lastServed.get(next) ?? -1)) next = tenantId;
    }
    if (next === null) return null;
    const queue = this.queues.get(next)!;
    const item = queue.shift()!;
    if (queue.length === 0) this.queues.delete(next);
    this.lastServed.set(next, this.served++);
    return { tenantId: next, item };
  }

  /** The tenant has nothing running any more: with nothing waiting either, its turn is forgotten. */
  idle(tenantId: string): void {
    if (!this.queues.has(tenantId)) this.lastServed.delete(tenantId);
  }

  /** Empties the queue, handing back what was waiting. */
  drain(): T[] {
    const items = [...this.queues.values()].flat();
    this.queues.clear();
    this.lastServed.clear();
    return items;
  }
}
