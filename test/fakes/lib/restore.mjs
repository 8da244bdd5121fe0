// FAKE_GEMINI_RESTORE="<busyMs>,<dropMs>,<notice 0|1>,<resume|always>": when it resumes a session (or at every start),
// the fake draws its prompt box, then restores the session the way the real Gemini CLI 0.61 was measured to
// (docs/input-ready.md): 50 ms after the box it is busy for `busyMs`
// (its loop blocked: keys typed then are read after), then it clears the screen, draws the conversation (and
// "Resuming session..." when `notice` is 1) with no box, and drops every key it reads for `dropMs`, then draws the
// box again. Keys read before the restore stay in the box, as in the real CLI. Node builtins only.
import { out, printLine } from './tui.mjs';

/** The setting for a start that resumes a session or not, or null when the fake starts as usual. */
export function restoreSetting(resuming) {
  const m = /^(\d+),(\d+),([01]),(resume|always)$/.exec(process.env.FAKE_GEMINI_RESTORE ?? '');
  if (!m || (m[4] === 'resume' && !resuming)) return null;
  return { busyMs: Number(m[1]), dropMs: Number(m[2]), notice: m[3] === '1' };
}

/** Runs the restore on `tui` (its box drawn); `repaint()` prints what sits above the box (header and turns). */
export function restoreAfterPrompt(tui, { busyMs, dropMs, notice }, repaint) {
  setTimeout(() => {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, busyMs);
    tui.dropInput = true;
    out('\x1b[2J\x1b[3J\x1b[H');
    repaint();
    if (notice) printLine('⠋ Resuming session...');
    setTimeout(() => {
      tui.dropInput = false;
      out('\x1b[2J\x1b[3J\x1b[H');
      repaint();
      tui.draw();
    }, dropMs);
  }, 50);
}
