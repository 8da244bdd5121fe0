// One timer for the idle status of every pane in view (TerminalPane's "running"/"idle"), not one per pane: a run of
// ten panes woke the page ten times a second with nothing printing (docs/performance.md, "Longest task and idle page").
// All listeners run in the same task, so React renders any changes together.

/** How often the panes look again at how long their agent has been quiet. */
export const IDLE_CHECK_MS = 1000;

export interface Ticker {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const browserTicker: Ticker = {
  set: (run, ms) => setInterval(run, ms),
  clear: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
};

/** A shared repeating timer that runs only while it has listeners. */
export class SharedTicker {
  private readonly listeners = new Set<() => void>();
  private handle: unknown = null;

  constructor(
    private readonly ticker: Ticker = browserTicker,
    private readonly everyMs = IDLE_CHECK_MS,
  ) {}

  /** Calls `listener` at every tick until the returned function is called. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    this.handle ??= this.ticker.set(() => {
      for (const l of [...this.listeners]) l();
    }, this.everyMs);
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0 && this.handle !== null) {
        this.ticker.clear(this.handle);
        this.handle = null;
      }
    };
  }
}

/** The page's one ticker for the panes' idle status. */
export const idleTicker = new SharedTicker();
