// When a just-started agent takes typed input (docs/input-ready.md). A CLI puts its terminal in raw mode only once it
// has started; bytes that arrive before meet the terminal's line discipline, which echoes them and turns the Enter
// into a line feed, so the prompt is never submitted. `agent.send` therefore waits until the agent is ready, bounded:
// the vendor's prompt on its screen (its attention patterns: data in its own folder), or else the first quiet screen
// after some output. Keys a user types into a pane never wait here.
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
}

/** Terminals already seen ready: later sends to them never wait. */
const ready = new WeakSet<InputTerminal>();

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Whether the vendor's patterns show a prompt or a dialog that takes keys now; a screen that cannot be read, no. */
async function promptShown(terminal: InputTerminal, patterns: ScreenPatterns): Promise<boolean> {
  try {
    const seen = readScreen((await terminal.capture(patterns.lines, 0)).text, patterns);
    return seen?.state === 'waiting' || seen?.state === 'asking';
  } catch {
    return false;
  }
}

/**
 * Resolves once `terminal` takes typed input, or once `boundMs` has passed since its start, or it ended. Never rejects.
 */
export async function untilInputReady(
  terminal: InputTerminal,
  start: InputStart,
  prompt: ScreenPatterns | undefined,
  timings: { pollMs: number; settleMs: number; boundMs: number; promptQuietMs?: number } = INPUT_READY,
): Promise<void> {
  const promptQuietMs = timings.promptQuietMs ?? INPUT_READY.promptQuietMs;
  let screenReadAt = -1;
  /** Since when every read of the screen has shown the prompt (null: the last read did not). */
  let promptSince: number | null = null;
  while (!ready.has(terminal)) {
    const now = Date.now();
    if (terminal.exited || now - start.at >= timings.boundMs) return;
    const printed = terminal.endOffset > start.offset;
    if (printed && now - terminal.lastOutputAt >= timings.settleMs) break;
    // The vendor's own prompt needs no quiet screen, only to stay drawn a moment: its screen is read once per change
    // of output, and it counts once every read for `promptQuietMs` has shown it.
    if (printed && prompt && terminal.lastOutputAt !== screenReadAt) {
      screenReadAt = terminal.lastOutputAt;
      promptSince = (await promptShown(terminal, prompt)) ? (promptSince ?? Date.now()) : null;
    }
    if (promptSince !== null && Date.now() - promptSince >= promptQuietMs) break;
    await sleep(timings.pollMs);
  }
  ready.add(terminal);
}

/** Whitespace and box-drawing characters: a TUI wraps a long prompt over its box's lines. */
const LAYOUT = /[\s\u2500-\u257f]/gu;
/** The end of a typed text as it shows on a screen, whatever the wrapping: its last 16 visible characters. */
const echoMark = (text: string) => text.replace(LAYOUT, '').slice(-16);

/**
 * Resolves once `terminal` shows the end of `text` it was just sent (typed after `offset`): the CLI has read the text
 * and drawn it in its box. Or after `boundMs`, or when it ended; a text with nothing visible waits for any output.
 * The vendor's pause before Enter counts from here, not from the write: a CLI that reads the text late (busy, or
 * under load) would otherwise take the Enter in the same burst, as part of a paste, or before its box holds the
 * text (a TUI whose state is not drawn yet submits an empty box, which it ignores). Never rejects.
 */
export async function untilEchoed(
  terminal: Pick<InputTerminal, 'endOffset' | 'exited' | 'capture'>,
  offset: number,
  text: string,
  timings: { pollMs: number; echoBoundMs: number } = INPUT_READY,
): Promise<void> {
  const deadline = Date.now() + timings.echoBoundMs;
  const mark = echoMark(text);
  let readAt = offset;
  while (!terminal.exited && Date.now() < deadline) {
    const end = terminal.endOffset;
    if (end > readAt) {
      if (mark === '') return;
      readAt = end;
      try {
        if ((await terminal.capture()).text.replace(LAYOUT, '').includes(mark)) return;
      } catch {
        return; // no screen to read: the output itself is all there is to go by
      }
    }
    await sleep(timings.pollMs);
  }
}
