// WebGL contexts for the panes in view. Chromium keeps at most 16 live WebGL contexts per page and silently takes
// the oldest one back from a 17th: a terminal that loses its context without noticing draws nothing. So Baton holds at
// most `max` (8), one per pane shown most recently; the least recently shown gives its context back when another
// pane needs one, and renders with xterm's DOM renderer from then on (its buffer stays; nothing is redrawn from the
// core). A pane whose context is lost falls back the same way, at once (docs/performance.md).
// Pure bookkeeping over leases, so the rules are tested without a GPU (test/unit/webgl-pool.test.ts).

/** A pane's WebGL renderer while it has one; `dispose` gives the context back and the DOM renderer takes over. */
export interface WebglLease {
  dispose(): void;
}

export interface WebglPoolOptions<L extends WebglLease> {
  /** Live contexts at most (Chromium's own limit is 16 a page; other pages and canvases need some). */
  max: number;
  /** Loads WebGL into the pane; null when the GPU refuses (the pane stays on the DOM renderer). */
  acquire(id: string, lost: () => void): L | null;
  /** The pane's renderer changed (for its header and the bench); after a fallback the pane must be repainted. */
  changed(id: string, renderer: 'webgl' | 'dom'): void;
  /** A pane that lost its context this many times keeps the DOM renderer. */
  maxLosses?: number;
  /** The clock for `REFUSED_RETRY_MS` (performance.now unless told). */
  now?: () => number;
}

/**
 * After the GPU refused a context, no pane asks again for this long. A page without WebGL (no GPU, a blocklisted
 * driver, WebGL switched off) refuses every time, and each try built and threw away a renderer in the switch's task
 * (0.1–1 ms a pane shown, ten panes a switch); a refusal that passes (the GPU process restarting) is tried again later.
 */
export const REFUSED_RETRY_MS = 60_000;

export class WebglPool<L extends WebglLease = WebglLease> {
  /** Held leases, least recently shown first (a Map keeps insertion order). */
  private readonly held = new Map<string, L>();
  private readonly losses = new Map<string, number>();
  /** When the GPU last refused a context (-Infinity: never). */
  private refusedAt = -Infinity;
  private readonly now: () => number;

  constructor(private readonly options: WebglPoolOptions<L>) {
    this.now = options.now ?? (() => performance.now());
  }

  get size(): number {
    return this.held.size;
  }

  holds(id: string): boolean {
    return this.held.has(id);
  }

  /** The pane came into view: it holds a context from now on, taken from the least recently shown if none is free. */
  show(id: string): void {
    const lease = this.held.get(id);
    if (lease) {
      this.held.delete(id);
      this.held.set(id, lease);
      return;
    }
    if ((this.losses.get(id) ?? 0) >= (this.options.maxLosses ?? 2)) return;
    if (this.now() - this.refusedAt < REFUSED_RETRY_MS) return;
    while (this.held.size >= this.options.max) {
      const oldest = this.held.keys().next().value;
      if (oldest === undefined) break;
      this.giveBack(oldest);
    }
    let acquired: L | null = null;
    try {
      acquired = this.options.acquire(id, () => this.lost(id));
    } catch {
      acquired = null;
    }
    if (!acquired) {
      this.refusedAt = this.now();
      return;
    }
    this.held.set(id, acquired);
    this.options.changed(id, 'webgl');
  }

  /** The pane is gone for good. */
  forget(id: string): void {
    this.giveBack(id);
    this.losses.delete(id);
  }

  /** The pane's context was lost: it renders with the DOM renderer at once (never a blank pane while waiting). */
  private lost(id: string): void {
    if (!this.held.has(id)) return;
    this.losses.set(id, (this.losses.get(id) ?? 0) + 1);
    this.giveBack(id);
  }

  private giveBack(id: string): void {
    const lease = this.held.get(id);
    if (!lease) return;
    this.held.delete(id);
    try {
      lease.dispose();
    } finally {
      this.options.changed(id, 'dom');
    }
  }
}
