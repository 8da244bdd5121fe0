// A pane's history above its screen (docs/performance.md, "The screen first, the history when wanted"). A catch-up
// from the core's mirror carries the screen and a few screens of history, not the mirror's 5,000 lines: that is what
// a first visit has to fetch and parse. The whole history comes when the user scrolls to the top of the pane's buffer
// (or searches it), into the same xterm, keeping the user's place. A pane parked out of view for a minute gives its
// history back (xterm frees the lines when its scrollback is lowered) and gets it again the same way.

/** What of xterm a pane's history needs (the page's xterm, or a headless one in tests). */
export interface HistoryTerm {
  readonly rows: number;
  readonly buffer: { readonly active: { readonly length: number; readonly baseY: number; readonly viewportY: number } };
  readonly options: { scrollback?: number };
  onScroll(listener: (position: number) => void): unknown;
  write(data: string, callback?: () => void): void;
  scrollToLine(line: number): void;
}

export interface HistoryPane {
  readonly agentId: string;
  readonly term: HistoryTerm;
  readonly visible: boolean;
}

/** The lines of history a pane keeps (and the core's mirror: FLOW.mirrorScrollback). */
export const FULL_SCROLLBACK = 5000;
/** Screens of history a catch-up carries above the screen. */
export const CATCH_UP_SCREENS = 3;
/** A pane parked this long gives its history back. */
export const TRIM_AFTER_MS = 60_000;

/** What a user scrolls a pane with, and how long after it a scroll is still theirs. */
const USER_SCROLL_EVENTS = ['wheel', 'keydown', 'pointerdown', 'touchmove'] as const;
const USER_SCROLL_MS = 1000;

/** `partial`: the core has older lines than the pane; `loading`: they are on their way. */
export type HistoryState = 'complete' | 'partial' | 'loading';

interface Entry {
  state: HistoryState;
  trimTimer: ReturnType<typeof setTimeout> | null;
  loading: Promise<void> | null;
}

export interface HistoryHooks {
  /** Replaces the pane's view with the core's screen and whole history (a reattach without a limit). */
  refill(pane: HistoryPane): Promise<void>;
  /** Shows or hides the pane's "loading earlier output…" line. */
  notice(pane: HistoryPane, loading: boolean): void;
}

export class PaneHistory {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly hooks: HistoryHooks,
    private readonly trimAfterMs = TRIM_AFTER_MS,
  ) {}

  /** Lines of history a catch-up asks the core for: a few of the pane's screens. */
  catchUpLines(pane: HistoryPane): number {
    return CATCH_UP_SCREENS * pane.term.rows;
  }

  state(agentId: string): HistoryState {
    return this.entry(agentId).state;
  }

  /**
   * Loads the whole history once the user scrolls to the top of what the pane has. Only a scroll the user made (a
   * wheel, a key or a pointer on the pane just before) counts: xterm also moves the view itself (a resize, a reset, a
   * parked pane's viewport synced while out of layout), and a load then would leave the view up in the history.
   */
  watch(pane: HistoryPane, input: EventTarget): void {
    let userAt = -Infinity;
    const user = () => (userAt = performance.now());
    for (const type of USER_SCROLL_EVENTS) input.addEventListener(type, user, { capture: true, passive: true });
    pane.term.onScroll(() => {
      const buffer = pane.term.buffer.active;
      if (buffer.viewportY !== 0 || buffer.baseY === 0 || !pane.visible) return;
      if (performance.now() - userAt < USER_SCROLL_MS) void this.whole(pane);
    });
  }

  /**
   * The pane's view was replaced by a screen from the core, written to xterm just now: with at most `limit` lines of
   * history, or all the core has (`limit` undefined). A bounded one counts as part of the history even when the core
   * had no more: the pane's rows change with its fit and wrapped lines hide in the serialized text, so the pane cannot
   * tell, and asking once more for a short history is cheap.
   */
  replaced(pane: HistoryPane, limit: number | undefined): void {
    const entry = this.entry(pane.agentId);
    if (limit === undefined) entry.state = 'complete';
    else if (entry.state !== 'loading') entry.state = 'partial';
  }

  /**
   * The whole history in the pane: loaded now if the pane has only part of it (the user scrolled to its top, or
   * searches it); resolves once it is written, the view kept as far from the bottom as it was.
   */
  whole(pane: HistoryPane): Promise<void> {
    const entry = this.entry(pane.agentId);
    if (entry.loading) return entry.loading;
    if (entry.state !== 'partial' || this.full(pane)) return Promise.resolve();
    entry.state = 'loading';
    this.hooks.notice(pane, true);
    const { term } = pane;
    const fromBottom = term.buffer.active.baseY - term.buffer.active.viewportY;
    if ((term.options.scrollback ?? 0) < FULL_SCROLLBACK) term.options.scrollback = FULL_SCROLLBACK;
    entry.loading = this.hooks
      .refill(pane)
      .then(() => new Promise<void>((resolve) => term.write('', resolve)))
      .then(
        () => {
          entry.state = 'complete';
          term.scrollToLine(Math.max(0, term.buffer.active.baseY - fromBottom));
        },
        // Not loaded (the connection went, say): the next scroll to the top asks again.
        () => {
          entry.state = 'partial';
        },
      )
      .finally(() => {
        entry.loading = null;
        this.hooks.notice(pane, false);
      });
    return entry.loading;
  }

  /** Left the view: after a while out of it the pane keeps only its catch-up's share of history. */
  parked(pane: HistoryPane): void {
    const entry = this.entry(pane.agentId);
    if (entry.trimTimer) clearTimeout(entry.trimTimer);
    entry.trimTimer = setTimeout(() => {
      entry.trimTimer = null;
      this.trim(pane);
    }, this.trimAfterMs);
  }

  /** In view again: it keeps a full history from now on; what was trimmed comes back when scrolled to. */
  shown(pane: HistoryPane): void {
    const entry = this.entry(pane.agentId);
    if (entry.trimTimer) clearTimeout(entry.trimTimer);
    entry.trimTimer = null;
    if ((pane.term.options.scrollback ?? 0) < FULL_SCROLLBACK) pane.term.options.scrollback = FULL_SCROLLBACK;
  }

  forget(agentId: string): void {
    const entry = this.entries.get(agentId);
    if (entry?.trimTimer) clearTimeout(entry.trimTimer);
    this.entries.delete(agentId);
  }

  private trim(pane: HistoryPane): void {
    const entry = this.entry(pane.agentId);
    const keep = this.catchUpLines(pane);
    if (pane.visible || entry.loading || pane.term.buffer.active.length - pane.term.rows <= keep) return;
    pane.term.options.scrollback = keep;
    entry.state = 'partial';
  }

  /** A buffer holding as many lines as a pane keeps has nothing more to gain from the core. */
  private full(pane: HistoryPane): boolean {
    return pane.term.buffer.active.length >= FULL_SCROLLBACK + pane.term.rows;
  }

  private entry(agentId: string): Entry {
    let entry = this.entries.get(agentId);
    if (!entry) {
      entry = { state: 'complete', trimTimer: null, loading: null };
      this.entries.set(agentId, entry);
    }
    return entry;
  }
}
