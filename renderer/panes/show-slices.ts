// A switch moves a run's panes (ten in the scale scene) into the grid in one task, and the frame after it drew every
// moved-in pane's rows (xterm's animation frame), then styled, laid out and painted all of them at once: 30–45 ms of
// CPU on a two-core machine with 100 agents printing, the page's longest task while switching (docs/performance.md,
// "Longest task: a switch's panes drawn and laid out in slices"). Here a pane moved in is skipped by style and layout
// (`content-visibility: hidden` on its xterm's element, which keeps the cell's size) until a task of its own draws its
// rows and lays it out, a few panes a task, right after the switch's task and ahead of the frame. The frame that shows
// them then has little but paint left; it starts later by the slices' time and ends about when it ended before. If a
// frame comes first all the same, its first step (an animation frame callback, before its style and layout) lets
// whatever is still skipped be drawn in that frame as before: no frame shows a pane without its rows.

/** What a slice needs of a pane: the element its xterm renders into. */
export interface SlicedPane {
  readonly element: HTMLElement;
}

export interface SliceClock {
  now(): number;
  /** Runs `run` in a task of its own, soon (before the next frame, unless one is due first). */
  task(run: () => void): void;
  /** Runs `run` at the start of the next frame, before its style and layout. */
  frame(run: () => void): void;
}

/** A slice takes as many panes as fit this long, reckoned from the last slice's cost a pane (2–4 ms here). */
export const SLICE_MS = 20;
/** The cost a pane is reckoned at before any slice has run. */
const FIRST_PANE_MS = 3;
/** The class that skips a pane's xterm until its slice (styles.css). */
export const WAITING_CLASS = 'bt-xterm-later';

/** The Prioritized Task Scheduling API, where the browser has it (Chromium does). */
interface PostTask {
  postTask?(run: () => void, options: { priority: 'user-blocking' }): Promise<void>;
}

/**
 * Runs `run` in a task of its own ahead of the page's tasks of normal priority (the output of a hundred agents arrives
 * as tasks too) and of the frame: Chromium runs 'user-blocking' tasks before rendering, which a task of normal priority
 * after a long one does not get. A timer where the browser has no such API.
 */
export function urgentTask(run: () => void): void {
  const scheduler = (globalThis as { scheduler?: PostTask }).scheduler;
  if (scheduler?.postTask) void scheduler.postTask(run, { priority: 'user-blocking' });
  else setTimeout(run, 0);
}

const browserClock: SliceClock = {
  now: () => performance.now(),
  task: urgentTask,
  frame: (run) => void requestAnimationFrame(() => run()),
};

export class ShowSlices<P extends SlicedPane> {
  /** Panes moved in and not yet drawn and laid out, in the order they came. */
  private readonly waiting = new Set<P>();
  private sliceQueued = false;
  private frameQueued = false;
  /** What a pane cost in the last slice (drawn and laid out), for the next slice's count. */
  private paneMs = FIRST_PANE_MS;

  /** `draw`: draws the pane's rows that wait, now (pane-output.ts `drawNow`). */
  constructor(
    private readonly draw: (pane: P) => void,
    private readonly clock: SliceClock = browserClock,
  ) {}

  /** The pane was just moved into view: skipped until its slice, or the next frame, whichever comes first. */
  moved(pane: P): void {
    if (this.waiting.has(pane)) return;
    pane.element.classList.add(WAITING_CLASS);
    this.waiting.add(pane);
    if (!this.sliceQueued) {
      this.sliceQueued = true;
      this.clock.task(this.slice);
    }
    if (!this.frameQueued) {
      this.frameQueued = true;
      this.clock.frame(this.atFrame);
    }
  }

  /** Not skipped any more, now (the pane is parked again, or focused: a skipped element cannot take the focus). */
  now(pane: P): void {
    if (this.waiting.delete(pane)) pane.element.classList.remove(WAITING_CLASS);
  }

  /** Whether the pane waits for its slice (for tests and the bench). */
  waits(pane: P): boolean {
    return this.waiting.has(pane);
  }

  private readonly slice = (): void => {
    this.sliceQueued = false;
    const start = this.clock.now();
    const count = Math.max(1, Math.floor(SLICE_MS / this.paneMs));
    const taken = [...this.waiting].slice(0, count);
    for (const pane of taken) {
      this.waiting.delete(pane);
      this.draw(pane);
      pane.element.classList.remove(WAITING_CLASS);
    }
    // Their style and layout now, once for the slice, with the rows just drawn: the frame finds them laid out.
    void taken[0]?.element.offsetHeight;
    if (taken.length > 0) this.paneMs = Math.max(0.5, (this.clock.now() - start) / taken.length);
    if (this.waiting.size > 0) {
      this.sliceQueued = true;
      this.clock.task(this.slice);
    }
  };

  private readonly atFrame = (): void => {
    this.frameQueued = false;
    // A frame came before every slice ran: the rest are shown in it, drawn by xterm's own animation frame as before.
    for (const pane of this.waiting) pane.element.classList.remove(WAITING_CLASS);
    this.waiting.clear();
  };
}
