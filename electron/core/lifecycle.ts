// Disposables: whatever holds a listener, a timer or a process hands it back through one `dispose()`, so closing
// its owner provably releases everything it took (a leaked interval keeps rescanning /proc; a leaked listener keeps a
// whole terminal's ring alive). The convention is VS Code's: owners collect what they hold in a DisposableStore.

export interface Disposable {
  dispose(): void;
}

/** A disposable that runs `fn` once, however often it is disposed. */
export function toDisposable(fn: () => void): Disposable {
  let done = false;
  return {
    dispose() {
      if (done) return;
      done = true;
      fn();
    },
  };
}

/** A one-shot timer as a disposable: disposing it before it fires cancels it. */
export function disposableTimeout(ms: number, fn: () => void): Disposable {
  const timer = setTimeout(fn, ms);
  return toDisposable(() => clearTimeout(timer));
}

/** A repeating timer as a disposable; `unref`: it does not keep the process alive on its own. */
export function disposableInterval(ms: number, fn: () => void, options: { unref?: boolean } = {}): Disposable {
  const timer = setInterval(fn, ms);
  if (options.unref) timer.unref();
  return toDisposable(() => clearInterval(timer));
}

/**
 * Holds disposables and disposes them together, newest first (the reverse of how they were taken, so nothing is
 * released while something taken after it may still use it). Once disposed, whatever is added is disposed at once:
 * a timer started by a late callback cannot outlive its owner.
 */
export class DisposableStore implements Disposable {
  private readonly items = new Set<Disposable>();
  private disposed = false;

  get isDisposed(): boolean {
    return this.disposed;
  }

  /** How many disposables are held now (tests read it to see that owners give everything back). */
  get size(): number {
    return this.items.size;
  }

  add<T extends Disposable>(item: T): T {
    if (this.disposed) item.dispose();
    else this.items.add(item);
    return item;
  }

  /** Forgets `item` without disposing it: for something that ended on its own (a timer that fired). */
  delete(item: Disposable): void {
    this.items.delete(item);
  }

  /** Disposes `item` now and forgets it. */
  release(item: Disposable): void {
    if (this.items.delete(item)) item.dispose();
  }

  /** Disposes everything held, newest first; one that throws does not keep the others from being disposed. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const items = [...this.items].reverse();
    this.items.clear();
    const errors: unknown[] = [];
    for (const item of items) {
      try {
        item.dispose();
      } catch (err) {
        errors.push(err);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, 'several disposables failed');
  }
}
