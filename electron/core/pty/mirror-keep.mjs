// Kept screens, on a mirror thread (mirror-worker.mjs): each terminal's screen with a few screens of history, taken
// now and then and kept on the core's main thread (mirror.ts), which answers a shown pane's reset with it at once; the
// ring sends the bytes after it. A reset that waited for the thread waited for whatever single piece of work the thread
// was inside when it came (a reflow of 5,000 lines, a garbage collection of a hundred histories: hundreds of ms under
// load) and for its terminal's last write (docs/performance.md, "Switch p99: kept screens"). Taken after a terminal's
// first output, then once `KEEP_EVERY_BYTES` more came and its output paused: an idle terminal costs nothing.
// BATON_MIRROR_KEPT_SCREENS=0: none are taken and every reset waits for the thread, as before (the bench's A/B).
// Plain JavaScript, as the thread is.

const keepScreens = process.env.BATON_MIRROR_KEPT_SCREENS !== '0';
const KEEP_EVERY_BYTES = 16 * 1024;
/** A terminal printing (its last write this recent) is kept once it pauses: a 5,000-line history once, not 7 times. */
const KEEP_QUIET_MS = 250;
/** At least three screens of this many rows above a kept screen (a grid pane has fewer rows than its terminal had). */
const KEEP_MIN_ROWS = 40;
/** Serializing done per turn of the loop, in ms; the ports are read between turns. */
const KEEP_SLICE_MS = 4;

/**
 * The thread's keeper. A mirror (the worker's record) carries `keptAt` (the offset of its last kept screen, -1: none)
 * and `writtenAt` (when its last write was applied), which the keeper reads and sets. `trace` is null when not tracing.
 */
export function screenKeeper({ now, pollResets, trace, post }) {
  /** Lines of history above a kept screen: the most a pane's reset asked for (three of its screens), or more. */
  let keptLines = 0;
  /** Mirrors whose kept screen is due, taken a few per turn of the loop. */
  const stale = new Set();
  let timer = null;

  /** Mirrors closed: a write xterm parses after its terminal was closed still calls back, and must not keep it. */
  const closed = new WeakSet();

  function keepSoon(mirror) {
    if (!keepScreens || closed.has(mirror)) return;
    stale.add(mirror);
    timer ??= setTimeout(keepSome, 50);
  }

  function keepSome() {
    timer = null;
    pollResets();
    const until = now() + KEEP_SLICE_MS;
    let waiting = 0;
    for (const mirror of stale) {
      if (now() > until) break;
      // Still taking output or held behind a resize: tried again once that is done. Output still coming (a history
      // printed, a flood): once it pauses, unless the core's replay bound (mirror.ts, KEPT_REPLAY_BYTES) is near.
      const printing =
        now() - mirror.writtenAt < KEEP_QUIET_MS && mirror.applied - mirror.keptAt < 3 * KEEP_EVERY_BYTES;
      if (mirror.parsing > 0 || mirror.pending.length > 0 || printing) {
        waiting++;
        continue;
      }
      stale.delete(mirror);
      keep(mirror);
    }
    if (stale.size > 0) timer = setTimeout(keepSome, stale.size > waiting ? 0 : 50);
  }

  /** Between two writes (no write callback runs here): the screen matches `applied`, as a reset's does. */
  function keep(mirror) {
    const start = trace ? now() : 0;
    const lines = Math.min(Math.max(keptLines, 3 * Math.max(mirror.term.rows, KEEP_MIN_ROWS)), mirror.scrollback);
    mirror.keptAt = mirror.applied;
    const screen = {
      cols: mirror.term.cols,
      rows: mirror.term.rows,
      offset: mirror.applied,
      serialized: mirror.serializer.serialize({ scrollback: lines }),
      text: '',
    };
    trace?.({ k: 'keep', id: mirror.id, start, ms: now() - start, chars: screen.serialized.length });
    post({ t: 'kept', id: mirror.id, lines, resizes: mirror.resizes, screen });
  }

  return {
    /** A write of the mirror's is on its screen. */
    written(mirror) {
      mirror.writtenAt = now();
      if (mirror.keptAt < 0 || mirror.applied - mirror.keptAt >= KEEP_EVERY_BYTES) keepSoon(mirror);
    },
    /**
     * The mirror was resized: its kept screen is of the old size (the core drops it), and the next is taken once 16 KiB
     * came at the new size, not now. A switch resizes the panes it shows, whose next reset is far off (they get bytes,
     * not resets), and a keep per resize took the thread a second of a switching at load 11.
     */
    resized(mirror) {
      if (mirror.keptAt >= 0) mirror.keptAt = mirror.applied;
    },
    /** A capture is being answered: a pane's reset says how much history the kept screens should carry. */
    asked(m) {
      if (m.soon && m.scrollback !== undefined) keptLines = Math.max(keptLines, m.scrollback);
    },
    closed(mirror) {
      closed.add(mirror);
      stale.delete(mirror);
    },
  };
}
