// One write of a cache per burst of changes: `soon()` asks for a save `delayMs` after the first change since the last
// one, and `flush()` (at shutdown) writes at once what is still due, so the next core finds what this one learned.
// A failed save is reported, never thrown: it is a cache, and the next save writes it whole again.

export class DelayedSave {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly save: () => Promise<void>,
    private readonly delayMs: number,
    /** What is saved, for the error: "the runs' health". */
    private readonly what: string,
  ) {}

  /** A save is due: it happens `delayMs` after the first call since the last save. */
  soon(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.save().catch((err: unknown) =>
        process.stderr.write(`baton: could not save ${this.what}: ${(err as Error).message}\n`),
      );
    }, this.delayMs);
    // A cache write alone must not keep the core alive.
    this.timer.unref();
  }

  /** Saves now if a save is due (at shutdown; tests). */
  async flush(): Promise<void> {
    if (!this.timer) return;
    clearTimeout(this.timer);
    this.timer = null;
    await this.save();
  }
}
