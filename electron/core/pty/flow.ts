// Flow-control and coalescing figures (docs/architecture.md §2), in one place so the trade-offs are visible.

/** A size in KiB from the environment (the bench's paired A/B of one build, docs/performance.md), else `fallback`. */
function kibFromEnv(name: string, fallback: number): number {
  const kib = Number(process.env[name]);
  return Number.isInteger(kib) && kib >= 16 && kib <= 16 * 1024 ? kib * 1024 : fallback;
}

/**
 * BATON_OUTPUT_WINDOW_KIB: a visible pane's window; 1 MiB as shipped. The ring, the core's window and the watermarks
 * grow with it so their invariants hold: the ring keeps ≥ all that can be unacknowledged (byte-exact resume).
 */
const WINDOW_BYTES = kibFromEnv('BATON_OUTPUT_WINDOW_KIB', 1024 * 1024);
/**
 * BATON_OUTPUT_FRAME_KIB: the largest frame (and the coalescing threshold); 128 KiB as shipped: half the frames of
 * 64 KiB took 3–5 ms/MiB less of Chromium's IO threads (network service, browser, renderer) and the renderer's main
 * thread, with the echo no slower (docs/performance.md, "Pane throughput: the CPU budget"). At most a quarter of the
 * window, so a remote stream's ack margin (remote-terminal.ts) stays positive.
 */
const FRAME_BYTES = Math.min(kibFromEnv('BATON_OUTPUT_FRAME_KIB', 128 * 1024), WINDOW_BYTES / 4);
const WATERMARK_SLACK = 256 * 1024;

export const FLOW = {
  /**
   * Output held per terminal for reattach: at least highWatermark + coreBudget − visibleBudget (see coreBudget), and
   * grown with a frame larger than 64 KiB so a remote stream's ack margin (remote-terminal.ts) stays as it was.
   */
  ringBytes: Math.max(2 << 20, 2 * WINDOW_BYTES) + 2 * Math.max(0, FRAME_BYTES - 64 * 1024),
  /** Coalesce output for this long, or until this many bytes wait, before sending. */
  coalesceMs: 5,
  coalesceBytes: FRAME_BYTES,
  /** Output after this long without any, or the first after input (its echo), is sent at once; a flood is coalesced. */
  quietMs: 2,
  /** Largest message sent to a client. */
  maxChunkBytes: FRAME_BYTES,
  /**
   * Unacknowledged bytes a client may have in flight. A visible pane's window is about 30 ms of xterm's own parse
   * rate: with 256 KiB the page sat idle a third of a flood, waiting for the next bytes while its ack crossed a busy
   * machine (docs/performance.md).
   */
  visibleBudget: WINDOW_BYTES,
  /**
   * A hidden pane is kept nearly current at a low rate: at most `hiddenBudget` in flight, sent at most once every
   * `hiddenEveryMs` (output after a quiet spell goes at once), and nothing once it is more than `catchUpBytes` behind
   * (a flood: the page parses what is in view, and the pane is given the mirror's screen when shown, parsing the
   * screen being faster than parsing that much output). Given nothing while hidden, every pane shown asked the core
   * for the output since it was parked, and on a loaded 2-core machine that round trip often missed the switch's first
   * frame and waited for the next, after the layout of the whole run's panes (docs/performance.md, switch7).
   * BATON_OUTPUT_HIDDEN=0: nothing while hidden, as before (the bench's A/B).
   */
  hiddenBudget: process.env.BATON_OUTPUT_HIDDEN === '0' ? 0 : 16 * 1024,
  hiddenEveryMs: 500,
  /**
   * The window of a stream read by another core (a remote agent's local side, docs/hosts.md), which acks on receipt:
   * over ssh the round trip, not a page's drawing, bounds it. Its excess over `visibleBudget` is added to the PTY's
   * watermarks for it, so at most highWatermark + this − visibleBudget (1.5 MiB) is unacknowledged: less than
   * `ringBytes`, so a dropped connection still resumes byte-exact from the ring.
   */
  coreBudget: WINDOW_BYTES + WATERMARK_SLACK,
  catchUpBytes: 256 * 1024,
  /**
   * While the user types into one pane, every other pane of that client is paced to this budget for `pacedMs` after
   * the last key: a flooding agent then has less output queued in the page ahead of the echo (docs/performance.md).
   */
  pacedBudget: 32 * 1024,
  pacedMs: 1000,
  /**
   * Pause the PTY above this many bytes waiting (for a visible client or the mirror); resume below low. High is the
   * window and a little; low keeps most of a window queued for the page while the PTY's writer wakes up again.
   */
  highWatermark: WINDOW_BYTES + WATERMARK_SLACK,
  lowWatermark: (WINDOW_BYTES * 3) / 4,
  mirrorScrollback: 5000,
  /** Output the mirror thread may have queued before the PTY is paused for it (resumes below a quarter). */
  mirrorBacklogBytes: 48 << 20,
  /**
   * Output a mirror holds back unparsed while its terminal floods (docs/performance.md, "Flow control"): a burst up to
   * this size is read at the PTY's own pace, and parsed once it stops. Less than `mirrorBacklogBytes`, so the PTY never
   * waits for a parse that has not started. All mirrors together hold back at most `mirrorLagTotalBytes`.
   */
  mirrorLagBytes: 32 << 20,
  mirrorLagTotalBytes: 64 << 20,
} as const;
