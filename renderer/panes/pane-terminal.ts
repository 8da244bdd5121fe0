// What one agent's pane is (its xterm and where its stream stands) and how its xterm is made: options, addons,
// theme and the off-screen parking lot it waits in while hidden. Kept apart from terminal-registry.ts, which keeps
// the panes and feeds them, so the registry reads as the life of a pane and this as its parts.
import { Terminal, type ITheme } from '@xterm/xterm';
import { FitAddon } from '@xterm/addon-fit';
import { SearchAddon } from '@xterm/addon-search';
import { WebLinksAddon } from '@xterm/addon-web-links';
import '@xterm/xterm/css/xterm.css';
import type { TerminalStream } from '../../shared/client.js';
import type { InputLedger } from '../../shared/input-ledger.js';
import type { CursorBlink } from './cursor-blink.js';
import { FULL_SCROLLBACK } from './pane-history.js';

export interface PaneTerminal {
  readonly agentId: string;
  readonly term: Terminal;
  readonly search: SearchAddon;
  /** The element xterm renders into; moved, never recreated. */
  readonly element: HTMLDivElement;
  /** Which of the agent's terminals this view shows, and how far (bytes written into `term`). */
  terminalId: string | null;
  offset: number;
  stream: TerminalStream | null;
  visible: boolean;
  /**
   * Keys typed into this terminal, numbered and kept until the core wrote them (shared/input-ledger.ts): those typed
   * while the connection is down, dying unnoticed or reattaching are sent, in order and once, when it is attached.
   */
  input: InputLedger;
  /** True while the agent's terminal runs; an ended terminal never pretends to take input. */
  accepting: boolean;
  /** WebGL while it holds one of the pool's contexts (a pane in view, shown recently), the DOM renderer otherwise. */
  renderer: 'webgl' | 'dom';
  /** When output last arrived (performance.now()), for the header's idle status. */
  lastDataAt: number;
  /** Blinks while focused and the user pauses; still while typing (cursor-blink.ts). */
  blink: CursorBlink;
}

const DARK: ITheme = {
  background: '#14161a',
  foreground: '#d8dee9',
  cursor: '#d8dee9',
  selectionBackground: '#3b4252',
};
const LIGHT: ITheme = {
  background: '#fbfbfc',
  foreground: '#1f2328',
  cursor: '#1f2328',
  selectionBackground: '#c8d1dc',
};
const darkQuery = typeof window !== 'undefined' ? window.matchMedia('(prefers-color-scheme: dark)') : null;
export const terminalTheme = (): ITheme => (darkQuery?.matches ? DARK : LIGHT);

/** Calls `listener` whenever the system switches between light and dark. */
export function onColorSchemeChange(listener: () => void): void {
  darkQuery?.addEventListener('change', listener);
}

let parkingLot: HTMLDivElement | null = null;

export function lot(): HTMLDivElement {
  if (!parkingLot) {
    parkingLot = document.createElement('div');
    parkingLot.setAttribute('aria-hidden', 'true');
    // Out of the page's style and layout altogether: a pane parked here costs no style or layout when it comes (a
    // switch's ten panes), and no layout of the page can reach the parked xterms (their rows, their measuring
    // elements). Skipped with `content-visibility: hidden` instead, the lot was still laid out with the switch's panes
    // and in layouts of its own (docs/performance.md, "Longest task: the parking lot out of layout"). A parked xterm
    // keeps its buffer and size; nothing in it is measured here: its char size comes from a canvas (xterm's
    // TextMetrics), its widths are measured aside (hidden-measure.ts), its renderer is paused (nothing intersects),
    // and it is sized ahead from its grid's last fitted size (pane-fit.ts), never from a layout.
    parkingLot.style.display = 'none';
    document.body.appendChild(parkingLot);
  }
  return parkingLot;
}

/** A new xterm with its addons loaded (not yet opened). */
export function newXterm(): { term: Terminal; search: SearchAddon; fit: FitAddon } {
  const term = new Terminal({
    allowProposedApi: true,
    scrollback: FULL_SCROLLBACK,
    fontFamily: 'ui-monospace, "SF Mono", Menlo, Consolas, "DejaVu Sans Mono", monospace',
    fontSize: 13,
    theme: terminalTheme(),
    // Only the pane being typed into blinks, and not while keys come (cursor-blink.ts): a blinking cursor redraws its row
    // twice a second, and a grid of a dozen blinking panes kept the page busy with nothing printing.
    cursorBlink: false,
  });
  const search = new SearchAddon();
  const fit = new FitAddon();
  term.loadAddon(fit);
  term.loadAddon(search);
  term.loadAddon(new WebLinksAddon((_event, uri) => window.open(uri, '_blank', 'noopener,noreferrer')));
  return { term, search, fit };
}

/** Ctrl+Shift+C copies the selection and Ctrl+Shift+V pastes, as in desktop terminals; everything else goes to the agent. */
export function copyPasteKeys(pane: PaneTerminal, e: KeyboardEvent): boolean {
  if (e.type !== 'keydown' || !e.ctrlKey || !e.shiftKey) return true;
  if (e.code === 'KeyC' && pane.term.hasSelection()) {
    void navigator.clipboard.writeText(pane.term.getSelection());
    return false;
  }
  if (e.code === 'KeyV') {
    void navigator.clipboard.readText().then(
      (text) => pane.term.paste(text),
      () => undefined,
    );
    return false;
  }
  return true;
}
