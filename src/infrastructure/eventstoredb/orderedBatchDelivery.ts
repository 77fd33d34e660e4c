/** A source that can be told to stop and restart emitting (a Node readable stream). */
export interface FlowControl {
  pause(): void;
  resume(): void;
}

export interface OrderedBatchDeliveryOptions<T> {
  /** Largest batch handed to `deliver`. */
  batchSize: number;
  /** Called with consecutive batches in arrival order, one call at a time. */
  deliver(batch: T[]): Promise<void>;
  /** Called once when `deliver` rejects; nothing is delivered afterwards. */
  onFailure(error: unknown): void;
  /** Paused while the buffer holds more than `highWaterMark` items, resumed once it drains. */
  flow?: FlowControl;
  highWaterMark?: number;
}

/**
 * Turns a push source (events arriving one by one) into awaited, ordered batches: whatever
 * arrives while a delivery is in flight is buffered and handed over as the next batch(es).
 * The buffer is bounded by pausing the source, so a slow consumer applies backpressure
 * instead of growing memory without limit.
 */
export class OrderedBatchDelivery<T> {
  private buffer: T[] = [];
  private inFlight: Promise<void> | null = null;
  private closed = false;
  private paused = false;
  private readonly highWaterMark: number;

  constructor(private readonly options: OrderedBatchDeliveryOptions<T>) {
    if (!Number.isSafeInteger(options.batchSize) || options.batchSize < 1)
      throw new RangeError('batchSize must be a positive integer');
    this.highWaterMark = options.highWaterMark ?? options.batchSize * 4;
  }

  push(item: T): void {
    if (this.closed) return;
    this.buffer.push(item);
    if (!this.paused && this.options.flow && this.buffer.length > this.highWaterMark) {
      this.paused = true;
      this.options.flow.pause();
    }
    if (!this.inFlight) this.inFlight = this.drain();
  }

  /** Stops delivering; resolves once a delivery in flight (if any) has finished. */
  async close(): Promise<void> {
    this.closed = true;
    this.buffer = [];
    await this.inFlight;
  }

  private async drain(): Promise<void> {
    try {
      while (this.buffer.length > 0 && !this.closed) {
        const batch = this.buffer.splice(0, this.options.batchSize);
        if (this.paused && this.buffer.length <= this.highWaterMark / 2) {
          this.paused = false;
          this.options.flow?.resume();
        }
        try {
          await this.options.deliver(batch);
        } catch (error) {
          this.closed = true;
          this.buffer = [];
          this.options.onFailure(error);
        }
      }
    } finally {
      this.inFlight = null;
    }
  }
}
