// One chain of work per key, run in call order: the run store's writes to one run happen one after another, so its
// files follow the index in order, and the run repository's changes of one run are applied in the order asked, while
// different runs go side by side.

export class SerialQueues {
  private readonly tails = new Map<string, Promise<unknown>>();

  /** Runs `fn` after everything queued before it for `key` has settled (failed or not); resolves as `fn` does. */
  run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.tails.get(key) ?? Promise.resolve();
    const next = prev.then(fn, fn);
    const tail = next.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    // `tail` never rejects; the handler is there so no rejection could ever go unhandled.
    tail.then(
      () => {
        if (this.tails.get(key) === tail) this.tails.delete(key);
      },
      () => undefined,
    );
    return next;
  }

  /** Resolves once everything queued so far, for every key, has settled (at quit). */
  async idle(): Promise<void> {
    await Promise.all(this.tails.values());
  }
}
