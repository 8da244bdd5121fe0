// When a just-started agent takes typed input (docs/input-ready.md). A CLI puts its terminal in raw mode only once it
// has started; bytes that arrive before meet the terminal's line discipline, which echoes them and turns the Enter
// into a line feed, so the prompt is never submitted. `agent.send` therefore waits until the agent is ready, bounded:
// the vendor's prompt on its screen (its attention patterns: data in its own folder), or else the first quiet screen
// after some output; for a resumed agent whose vendor shows a notice while it restores the session, only once that
// notice has come and gone. Keys a user types into a pane never wait here.
import { readScreen } from '../attention/screen.js';
import type { ScreenPatterns } from '../attention/signals.js';

export const INPUT_READY = Object.freeze({
  /** How often the terminal is looked at while a send waits. */
  pollMs: 40,
  /** Output must have been quiet this long, after some output, for the screen to count as settled. */
  settleMs: 300,
  /** A send waits at most this long after the agent's start, then types anyway (a CLI that never goes quiet). */
  boundMs: 5000,
  /**
   * The vendor's prompt counts once it has been on the screen this long (read again at each change of output): a
   * resumed Gemini CLI draws its prompt box while it still restores the session, and a send typed at that first draw
   * was lost (the compat journey's recall, in both clean-clone CI runs of one day) once the mirror's screen followed
   * the output without lag.
   */
  promptQuietMs: 150,
  /** After typing, a send waits at most this long for the CLI to echo the text before its pause and Enter. */
  echoBoundMs: 2000,
  /**
   * The bound for a resumed agent whose vendor says it restores the session after drawing its prompt: a resumed
   * Gemini CLI finished its restore 3.6–8.2 s after its spawn at load 9–11 (docs/input-ready.md). Its notice can
   * show for as little as 30 ms, between two reads of the screen; a text typed at this bound that is dropped all the
   * same is typed again (agent-send.ts).
   */
  restoreBoundMs: 8000,
});

/** The parts of an agent's terminal the wait reads. */
export interface InputTerminal {
  readonly lastOutputAt: number;
  readonly endOffset: number;
  readonly exited: unknown;
  capture(textLines?: number, scrollback?: number): Promise<{ text: string }>;
}

/** When an agent's terminal started, and how much of its output Baton printed itself then (a warning): not the CLI's. */
export interface InputStart {
  /** ms since epoch */
  readonly at: number;
  readonly offset: number;
  /** The CLI was started on a session it resumes (a resume, a fork's copy, an import). */
  readonly resumed?: boolean;
}

/** Terminals already seen ready: later sends to them never wait. */
const ready = new WeakSet<InputTerminal>();

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * What the screen shows: a prompt or a dialog that takes keys now (by the vendor's patterns), or its notice that it
 * restores a session; a screen that cannot be read, neither.
 */
async function readPrompt(
  terminal: InputTerminal,
  patterns: ScreenPatterns,
  restoring: readonly RegExp[],
): Promise<'prompt' | 'restoring' | null> {
  try {
    const text = (await terminal.capture(patterns.lines, 0)).text;
    if (restoring.some((p) => p.test(text))) return 'restoring';
    const seen = readScreen(text, patterns);
    return seen?.state === 'waiting' || seen?.state === 'asking' ? 'prompt' : null;
  } catch {
    return null;
  }
}

/**
 * Resolves once `terminal` takes typed input, or once `boundMs` has passed since its start, or it ended. Never rejects.
 * `restoring`: the vendor's notice that it restores a resumed session (InputScreens); for a resumed start, the prompt
 * and the quiet screen count only once it has shown and gone (bounded by `restoreBoundMs` instead).
 */
export async function untilInputReady(
  terminal: InputTerminal,
  start: InputStart,
  prompt: ScreenPatterns | undefined,
  timings: { pollMs: number; settleMs: number; boundMs: number; promptQuietMs?: number } = INPUT_READY,
  restoring: readonly RegExp[] = [],
): Promise<void> {
  const promptQuietMs = timings.promptQuietMs ?? INPUT_READY.promptQuietMs;
  // A resumed Gemini CLI draws its prompt box, stays quiet for up to 700 ms (load 9), then restores the session and
  // drops what it reads meanwhile, quiet again under its notice: neither its first prompt nor a quiet screen says it
  // takes keys until the notice has shown and gone.
  let restore: 'awaited' | 'shown' | 'done' =
    start.resumed === true && prompt !== undefined && restoring.length > 0 ? 'awaited' : 'done';
  const boundMs = restore === 'done' ? timings.boundMs : Math.max(timings.boundMs, INPUT_READY.restoreBoundMs);
  let screenReadAt = -1;
  /** Since when every read of the screen has shown the prompt (null: the last read did not). */
  let promptSince: number | null = null;
  while (!ready.has(terminal)) {
    const now = Date.now();
    if (terminal.exited || now - start.at >= boundMs) return;
    const printed = terminal.endOffset > start.offset;
    // The vendor's own prompt needs no quiet screen, only to stay drawn a moment: its screen is read once per change
    // of output, and it counts once every read for `promptQuietMs` has shown it.
    if (printed && prompt && terminal.lastOutputAt !== screenReadAt) {
      screenReadAt = terminal.lastOutputAt;
      const seen = await readPrompt(terminal, prompt, restoring);
      if (seen === 'restoring') restore = 'shown';
      else if (restore === 'shown') restore = 'done';
      promptSince = seen === 'prompt' ? (promptSince ?? Date.now()) : null;
    }
    if (restore === 'done') {
      if (printed && Date.now() - terminal.lastOutputAt >= timings.settleMs) break;
      if (promptSince !== null && Date.now() - promptSince >= promptQuietMs) break;
    }
    await sleep(timings.pollMs);
  }
  ready.add(terminal);
}

/** Whitespace and box-drawing characters: a TUI wraps a long prompt over its box's lines. */
const LAYOUT = /[\s\u2500-\u257f]/gu;
/** The end of a typed text as it shows on a screen, whatever the wrapping: its last 16 visible characters. */
const echoMark = (text: string) => text.replace(LAYOUT, '').slice(-16);

/**
 * Resolves true once `terminal` shows the end of `text` it was just sent (typed after `offset`): the CLI has read the
 * text and drawn it in its box. Or false after `boundMs`, or when it ended; a text with nothing visible waits for any
 * output (true).
 * The vendor's pause before Enter counts from here, not from the write: a CLI that reads the text late (busy, or
 * under load) would otherwise take the Enter in the same burst, as part of a paste, or before its box holds the
 * text (a TUI whose state is not drawn yet submits an empty box, which it ignores). Never rejects.
 */
export async function untilEchoed(
  terminal: Pick<InputTerminal, 'endOffset' | 'exited' | 'capture'>,
  offset: number,
  text: string,
  timings: { pollMs: number; echoBoundMs: number } = INPUT_READY,
): Promise<boolean> {
  const deadline = Date.now() + timings.echoBoundMs;
  const mark = echoMark(text);
  let readAt = offset;
  while (!terminal.exited && Date.now() < deadline) {
    const end = terminal.endOffset;
    if (end > readAt) {
      if (mark === '') return true;
      readAt = end;
      try {
        if (shows(await terminal.capture(), text)) return true;
      } catch {
        return true; // no screen to read: the output itself is all there is to go by
      }
    }
    await sleep(timings.pollMs);
  }
  return false;
}

/** Whether a captured screen shows the end of `text` (as `untilEchoed` looks for it); a text with none visible, yes. */
export const shows = (screen: { text: string }, text: string): boolean =>
  screen.text.replace(LAYOUT, '').includes(echoMark(text));
