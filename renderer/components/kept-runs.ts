// Which runs' views stay mounted (RunViews.tsx), kept free of React so a unit test can drive it. The views are rendered
// in the order they were first kept, never reordered: moving a kept view's DOM at each switch would cost what keeping
// it saves.

export class KeptRuns {
  /** Run id → when it was last shown (a counter); insertion order is the render order. */
  private readonly shownAt = new Map<string, number>();
  private clock = 0;

  constructor(private readonly max: number) {}

  /** The run ids to render, in a stable order. */
  ids(): string[] {
    return [...this.shownAt.keys()];
  }

  /** Whether no run can be kept ahead any more. */
  full(): boolean {
    return this.shownAt.size >= this.max;
  }

  has(runId: string): boolean {
    return this.shownAt.has(runId);
  }

  /** The run is shown now: kept, and the least recently shown leaves if there are too many. */
  shown(runId: string): void {
    this.shownAt.set(runId, ++this.clock);
    this.trim(runId);
  }

  /**
   * A run likely to be shown soon (its panes are loaded ahead), kept as if shown before every run shown so far: it
   * never pushes out a run the user has shown. False when there is no room for it.
   */
  ahead(runId: string): boolean {
    if (this.shownAt.has(runId)) return true;
    if (this.shownAt.size >= this.max) return false;
    this.shownAt.set(runId, 0);
    return true;
  }

  /** Runs gone from the page (deleted) are dropped. */
  keepOnly(exists: (runId: string) => boolean): void {
    for (const id of [...this.shownAt.keys()]) if (!exists(id)) this.shownAt.delete(id);
  }

  private trim(keep: string): void {
    while (this.shownAt.size > this.max) {
      let oldest: string | null = null;
      let at = Infinity;
      for (const [id, t] of this.shownAt) if (id !== keep && t < at) [oldest, at] = [id, t];
      if (oldest === null) return;
      this.shownAt.delete(oldest);
    }
  }
}
