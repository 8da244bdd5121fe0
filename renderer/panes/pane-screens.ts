// What a pane shows besides live output: a stopped run's recorded screens, and the pane's text for tests and copying.
import { bufferText } from '../../shared/buffer-text.mjs';
import { existingPane, getPane, paneClient } from './terminal-registry.js';

/** A run from the history shows each agent's last recorded screen until it is resumed. */
export async function showStoredScreens(runId: string): Promise<void> {
  const c = paneClient();
  if (!c) return;
  const { screens } = await c.call('run.screens', { run: runId });
  for (const screen of screens) {
    const pane = getPane(screen.agentId);
    if (pane.terminalId !== null || pane.offset > 0 || pane.term.buffer.active.length > pane.term.rows) continue;
    pane.term.reset();
    pane.term.write(screen.serialized, () => {
      // The recorded cursor may sit above the screen's last lines (a TUI footer): mark below them, not over them.
      const buffer = pane.term.buffer.active;
      let last = pane.term.rows - 1;
      while (
        last > 0 &&
        buffer
          .getLine(buffer.viewportY + last)
          ?.translateToString(true)
          .trim() === ''
      )
        last--;
      pane.term.write(
        `\x1b[${last + 1};1H\r\n\x1b[2m──────── recorded screen: the agent is not running ────────\x1b[0m\r\n`,
      );
    });
  }
}

/** The text a user would see in the pane, for tests and for "copy screen". */
export function paneText(agentId: string): string {
  const pane = existingPane(agentId);
  return pane ? bufferText(pane.term.buffer.active) : '';
}
