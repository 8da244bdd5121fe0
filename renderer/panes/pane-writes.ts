// What a pane's stream hands it, written into its xterm: a reset's screen (in pieces, so the page is never held)
// and bytes at their offsets (never twice, never with a gap).
import { discardOutput, writeOutput } from './pane-output.js';
import { dropHeld, holdParked, takeHeld } from './parked-output.js';
import type { PaneHistory } from './pane-history.js';
import type { PaneTerminal } from './pane-terminal.js';
import { scrollSafeScreen } from './reset-screen.js';

/**
 * The view becomes the core's screen. The full reset (RIS) travels in the same write as the screen, so xterm clears
 * and redraws in one parse: the old screen stays up until then, never a blank frame in between.
 */
export function replaceScreen(
  pane: PaneTerminal,
  screen: string,
  offset: number,
  scrollback: number | undefined,
  history: Pick<PaneHistory, 'replaced'>,
): void {
  // In pieces: xterm yields to the page between writes, not within one, and a screen with 5,000 lines of history
  // parsed in one task would hold the page (every other pane, every keystroke) for hundreds of milliseconds.
  discardOutput(pane);
  dropHeld(pane);
  let text = `\x1bc${scrollSafeScreen(screen)}`;
  while (text.length > SCREEN_PIECE) {
    let cut = SCREEN_PIECE;
    const code = text.charCodeAt(cut - 1);
    if (code >= 0xd800 && code <= 0xdbff) cut--; // never between the halves of a surrogate pair
    pane.term.write(text.slice(0, cut));
    text = text.slice(cut);
  }
  pane.term.write(text);
  pane.offset = offset;
  history.replaced(pane, scrollback);
}

/** UTF-16 units of a screen written at once (xterm parses about this much in a few milliseconds). */
const SCREEN_PIECE = 16 * 1024;

/**
 * Writes bytes at `offset`, dropping any part the view already has (pane-output.ts says when it acks); after a gap,
 * `reattach` asks again from what the pane has.
 */
export function writeAt(
  pane: PaneTerminal,
  data: Uint8Array,
  offset: number,
  reattach: (terminalId: string) => void,
): void {
  let bytes = data;
  let start = offset;
  const end = offset + data.length;
  if (end <= pane.offset) return;
  if (start < pane.offset) {
    bytes = data.subarray(pane.offset - start);
    start = pane.offset;
  }
  if (start > pane.offset && pane.terminalId) {
    // A gap can only follow a lost frame: ask again from what we have.
    pane.stream = null;
    reattach(pane.terminalId);
    return;
  }
  pane.offset = end;
  pane.lastDataAt = performance.now();
  // Parked: kept for its show (parked-output.ts), acknowledged so the core keeps it current; the ack goes with others
  // (hidden panes get a little output at most every 500 ms: a short wait changes nothing there).
  if (holdParked(pane, bytes)) return void pane.stream?.ackLater(end);
  const earlier = takeHeld(pane);
  if (earlier) writeOutput(pane, earlier, start);
  writeOutput(pane, bytes, end);
}
