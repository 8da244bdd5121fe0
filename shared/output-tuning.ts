// The switches of a pane's output path (renderer/panes/pane-output.ts) that the renderer bench sets between rounds,
// through its page hooks, to weigh each part in one run. Here, not in the renderer, because both sides use it: the
// page applies it, and the bench (test/bench, whose TypeScript program has no DOM and loads none of the renderer's
// modules) sends it.
/** What the renderer bench switches between rounds to weigh each part in one run (through its page hooks). */
export interface OutputTuning {
  /** Pace other panes' output while the user types (write-pacer.ts). */
  pacer: boolean;
  /** Draw a flooding pane at most 20 times a second (render-throttle.ts). */
  renderThrottle: boolean;
  /** The least ms between a flooding pane's draws (render-throttle.ts). */
  floodFrameMs: number;
  /** A flooding pane's scrollbar and textarea follow its draws, not every parse (flood-quiet.ts). */
  quietFlood: boolean;
  /** A flooding pane with nothing selected asks for no frame to redraw its selection (flood-quiet.ts). */
  quietSelection: boolean;
  /** Bytes since a key above which the pane typed into is throttled as a flood (0: never; render-throttle.ts). */
  typedFloodBytes: number;
  /** Held output and held draws wait on timers, not animation frames (write-pacer.ts, render-throttle.ts). */
  timers: boolean;
  /** Bytes handed to xterm at once (write-pacer.ts). */
  pieceBytes: number;
  /** While the user types into another pane: main-thread ms per frame for a held pane's output (write-pacer.ts). */
  typingSliceMs: number;
  /** … how often held output is fed (ms). */
  typingFeedEveryMs: number;
  /** … the bytes of one held piece handed to xterm at once. */
  typingPieceBytes: number;
  /** … the least ms between a flooding pane's draws (render-throttle.ts). */
  typingFloodFrameMs: number;
  /** A flooding pane's per-line checks read the clock only when a key may still count (render-throttle.ts). */
  lazyFloodClock: boolean;
}
