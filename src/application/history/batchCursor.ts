/**
 * Reads a sequence ordered by position in batches, one batch ahead of the reader: while one batch
 * is hashed, the next is already on its way from the database. `peek(i)` looks up to as far
 * ahead as asked (loading more), which is how a walk classifies what it finds out of place.
 */
export class BatchCursor<T> {
  private buffer: T[] = [];
  private offset = 0;
  private ended = false;
  private next: Promise<T[]> | null = null;
  constructor(
    private readonly read: (after: bigint | undefined, maxCount: number) => Promise<T[]>,
    private readonly positionOf: (item: T) => bigint,
    private readonly batchSize: number,
    /** Where to start: strictly after this position (undefined: from the first). */
    private after?: bigint,
  ) {}

  /** The item `i` places ahead (0: the current one); undefined past the end. */
  async peek(i = 0): Promise<T | undefined> {
    while (this.offset + i >= this.buffer.length && !this.ended) await this.load();
    return this.buffer[this.offset + i];
  }

  shift(): void {
    this.offset++;
    if (this.offset > 4 * this.batchSize && this.offset * 2 > this.buffer.length) {
      this.buffer = this.buffer.slice(this.offset);
      this.offset = 0;
    }
  }

  private async load(): Promise<void> {
    const batch = await (this.next ?? this.fetch());
    this.next = null;
    if (batch.length === 0) {
      this.ended = true;
      return;
    }
    this.after = this.positionOf(batch[batch.length - 1]!);
    for (const item of batch) this.buffer.push(item);
    if (batch.length < this.batchSize) this.ended = true;
    else {
      const next = this.fetch();
      // Awaited by the next load; a failure before then must not go unhandled meanwhile.
      next.catch(() => undefined);
      this.next = next;
    }
  }

  private fetch(): Promise<T[]> {
    return this.read(this.after, this.batchSize);
  }
}
