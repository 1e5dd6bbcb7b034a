/**
 * What the refusal counter and the request log share: what a window gathered is taken as one batch, written to the
 * sink by an unref'd timer one flush at a time, and kept for retry (oldest first, at most `maxPending`) while the
 * sink fails. Subclasses say how a window becomes a batch and what a batch pushed out of the queue loses.
 */
export abstract class BatchFlusher<TBatch> {
  private readonly pending: TBatch[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;

  constructor(
    private readonly flusher: {
      write: (batch: TBatch) => Promise<void>;
      flushIntervalMs?: number;
      maxPending: number;
      onError?: (err: unknown) => void;
    },
  ) {}

  /** The window gathered so far as one batch (and a new empty window), or undefined when it is empty. */
  protected abstract takeBatch(): TBatch | undefined;

  /** A batch dropped from the retry queue because the sink kept failing. */
  protected onOverflow(_batch: TBatch): void {}

  start(): void {
    this.timer = setInterval(() => {
      this.flush().catch(this.flusher.onError ?? (() => {}));
    }, this.flusher.flushIntervalMs ?? 5000);
    this.timer.unref();
  }

  /** Writes the window (and any batch whose write failed before, with its own id); one flush at a time. */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    this.flushing = this.doFlush();
    try {
      await this.flushing;
    } finally {
      this.flushing = undefined;
    }
  }

  private async doFlush(): Promise<void> {
    const batch = this.takeBatch();
    if (batch !== undefined) {
      this.pending.push(batch);
      while (this.pending.length > this.flusher.maxPending)
        this.onOverflow(this.pending.shift() as TBatch);
    }
    while (this.pending.length > 0) {
      await this.flusher.write(this.pending[0] as TBatch);
      this.pending.shift();
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
  }
}
