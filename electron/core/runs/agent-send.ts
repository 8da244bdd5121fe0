// `agent.send` (docs/input-ready.md): waits until the agent takes keys, types the text, waits for its echo, then the
// vendor's pause and Enter. A text the CLI read and dropped (a resumed Gemini CLI restoring its session) is typed once
// more, only when the screen proves it gone: never drawn, and the vendor's empty-box placeholder drawn after it.
import type { VendorAdapter } from '../vendors/adapter.js';
import {
  INPUT_READY,
  shows,
  untilEchoed,
  untilInputReady,
  type InputStart,
  type InputTerminal,
} from './input-ready.js';

/** What a send needs of a live agent (read again after each wait: the agent may have been restarted meanwhile). */
export interface SendTarget {
  readonly terminal: InputTerminal & { write(data: string): void };
  readonly adapter: Pick<VendorAdapter, 'submitDelayMs' | 'input' | 'attention'>;
  readonly start: InputStart;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Types `text` and Enter into the agent `current()` names; resolves once the Enter is written. */
export async function sendText(current: () => SendTarget, text: string): Promise<void> {
  const starting = current();
  await untilInputReady(
    starting.terminal,
    starting.start,
    starting.adapter.attention?.screen,
    INPUT_READY,
    starting.adapter.input?.restoring,
  );
  const live = current();
  const typedAt = live.terminal.endOffset;
  live.terminal.write(text);
  if (!(await untilEchoed(live.terminal, typedAt, text)) && (await dropped(live, typedAt, text))) {
    const again = live.terminal.endOffset;
    live.terminal.write(text);
    await untilEchoed(live.terminal, again, text);
  }
  await sleep(Math.max(live.adapter.submitDelayMs, 50));
  live.terminal.write('\r');
}

/**
 * Whether the CLI read `text` (typed at `typedAt`, not echoed within the bound) and dropped it: it drew something
 * since (its loop ran, so the text is not merely waiting to be read), then went quiet with its box empty by the
 * vendor's placeholder and the text nowhere on the screen. A CLI still busy (nothing drawn since), or one with no
 * placeholder known, never counts as having dropped it: a second copy must not follow a text drawn late.
 */
async function dropped({ terminal, adapter }: SendTarget, typedAt: number, text: string): Promise<boolean> {
  const emptyBox = adapter.input?.emptyBox ?? [];
  const lines = adapter.attention?.screen?.lines ?? 30;
  if (emptyBox.length === 0 || terminal.exited || terminal.endOffset <= typedAt) return false;
  const deadline = Date.now() + INPUT_READY.echoBoundMs;
  while (Date.now() - terminal.lastOutputAt < INPUT_READY.settleMs) {
    if (terminal.exited || Date.now() >= deadline) return false;
    await sleep(INPUT_READY.pollMs);
  }
  try {
    const screen = await terminal.capture();
    if (shows(screen, text)) return false;
    const tail = screen.text.split('\n').slice(-lines).join('\n');
    return emptyBox.some((p) => p.test(tail));
  } catch {
    return false;
  }
}
