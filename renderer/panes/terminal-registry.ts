// One xterm per agent for the life of the page: created once, moved between its pane and a parking lot, fed
// straight from the stream (terminal bytes never pass through React or zustand), reattached after reconnects.
import type { BatonClient } from '../../shared/client.js';
import { InputLedger } from '../../shared/input-ledger.js';
import { fitAhead, fitParked, fitShown, trackFit } from './pane-fit.js';
import { resumeRenderer } from './renderer-resume.js';
import { loadWebgl, MAX_WEBGL_PANES } from './pane-webgl.js';
import { WebglPool } from './webgl-pool.js';
import { cursorBlink } from './cursor-blink.js';
import { tuneXterm } from './xterm-tuning.js';
import { quietSelectionRedraws } from './selection-redraw.js';
import { drawNow, pacer, typedInto } from './pane-output.js';
import { ShowSlices } from './show-slices.js';
import { timed } from './pane-timing.js';
import { PaneHistory } from './pane-history.js';
import { showHistoryNotice } from './pane-history-notice.js';
import { PaneOpener } from './pane-opener.js';
import { replaceScreen, writeAt } from './pane-writes.js';
import { parseHeld } from './parked-output.js';
import {
  copyPasteKeys,
  lot,
  newXterm,
  onColorSchemeChange,
  terminalTheme,
  type PaneTerminal,
} from './pane-terminal.js';

export type { PaneTerminal } from './pane-terminal.js';
export { terminalTheme } from './pane-terminal.js';

const panes = new Map<string, PaneTerminal>();
/** A switch's panes drawn and laid out a few per task before its frame (show-slices.ts). */
const slices = new ShowSlices<PaneTerminal>(drawNow);
let client: BatonClient | null = null;

onColorSchemeChange(() => {
  for (const p of panes.values()) p.term.options.theme = terminalTheme();
});

/** The agent's pane, opened now if it is not open yet (and taken out of the opener's queue). */
export function getPane(agentId: string): PaneTerminal {
  const existing = panes.get(agentId);
  if (existing) return existing;
  const pane = openPane(agentId);
  opener.opened(agentId);
  // What was asked of it while it waited: its terminal, its place in view, the focus.
  const follow = wanted.follow.get(agentId);
  const host = wanted.host.get(agentId);
  const shape = wanted.shape.get(agentId);
  wanted.follow.delete(agentId);
  wanted.host.delete(agentId);
  wanted.shape.delete(agentId);
  if (follow) followTerminal(agentId, follow.terminalId, follow.running);
  // After following (the agent is told the new size) and before its attach is sent (a microtask later): the core's
  // screen then comes at the size the pane will be shown at.
  if (shape !== undefined && !host) fitAhead(agentId, shape);
  if (host?.isConnected) mountPane(agentId, host);
  if (wanted.focus === agentId) {
    wanted.focus = null;
    pane.term.focus();
  }
  for (const resolve of openWaiters.get(agentId) ?? []) resolve();
  openWaiters.delete(agentId);
  return pane;
}

/**
 * A run's new panes open one per task, panes in view first (pane-opener.ts); what the view asks of a pane still in the
 * queue waits here and is done once it is open.
 */
const opener = new PaneOpener((agentId) => void getPane(agentId));
const wanted = {
  follow: new Map<string, { terminalId: string | null; running: boolean }>(),
  host: new Map<string, HTMLElement>(),
  shape: new Map<string, string>(),
  focus: null as string | null,
};

/** A pane loaded ahead is sized to the cell a run of this shape (pane-shape.ts) gives it, once it is open. */
export function sizeAhead(agentId: string, shape: string): void {
  if (panes.has(agentId)) fitAhead(agentId, shape);
  else wanted.shape.set(agentId, shape);
}

function openPane(agentId: string): PaneTerminal {
  const openedAt = performance.now();
  const element = document.createElement('div');
  element.className = 'bt-xterm-host';
  const { term, search, fit } = newXterm();
  lot().appendChild(element);
  term.open(element);
  tuneXterm(term);
  quietSelectionRedraws(term);
  const blink = cursorBlink(term);
  term.textarea?.addEventListener('focus', () => blink.focused());
  term.textarea?.addEventListener('blur', () => blink.blurred());
  const pane: PaneTerminal = {
    agentId,
    term,
    search,
    element,
    terminalId: null,
    offset: 0,
    stream: null,
    visible: false,
    input: paneLedger(agentId),
    accepting: false,
    renderer: 'dom',
    lastDataAt: performance.now(),
    blink,
  };
  term.attachCustomKeyEventHandler((e) => copyPasteKeys(pane, e));
  term.onData((data) => sendInput(pane, data));
  term.onResize(({ cols, rows }) => {
    if (pane.accepting) void client?.call('agent.resize', { agentId, cols, rows }).catch(() => undefined);
  });
  trackFit(agentId, { fit, term, element });
  history.watch(pane, element);
  panes.set(agentId, pane);
  timed('open', agentId, openedAt);
  return pane;
}

/** The screen first, the history when scrolled to; a long-parked pane's history given back (pane-history.ts). */
const history = new PaneHistory({
  refill: (pane) => {
    const p = panes.get(pane.agentId);
    return p?.terminalId ? attach(p, p.terminalId, false, true) : Promise.reject(new Error('not attached'));
  },
  notice: (pane, loading) => {
    const p = panes.get(pane.agentId);
    if (p) showHistoryNotice(p.element, loading);
  },
});

/** The pane's whole history, loaded from the core first if the pane has only part of it (search, copy all). */
export function wholeHistory(agentId: string): Promise<void> {
  const pane = panes.get(agentId);
  return pane ? history.whole(pane) : Promise.resolve();
}

const webgl = new WebglPool({
  max: MAX_WEBGL_PANES,
  acquire: (agentId, lost) => {
    const pane = panes.get(agentId);
    if (!pane) return null;
    const startedAt = performance.now();
    const lease = loadWebgl(pane.term, pane.element, lost);
    timed('webgl', agentId, startedAt);
    return lease;
  },
  changed: (agentId, renderer) => {
    const pane = panes.get(agentId);
    if (pane) pane.renderer = renderer;
  },
});

/** The shortest way to the PTY: a fire-and-forget numbered input frame per onData, kept until the core wrote it. */
function sendInput(pane: PaneTerminal, data: string): void {
  if (!pane.accepting) return;
  pane.blink.typed();
  typedInto(pane);
  pane.input.type(data);
}

/** A terminal's input ledger; what it could not deliver is said in the pane, behind its output. */
function paneLedger(agentId: string): InputLedger {
  return new InputLedger((message) => {
    const pane = panes.get(agentId);
    if (pane) pacer.write(agentId, pane.term, new TextEncoder().encode(`\r\n\x1b[1;33m⚠ baton: ${message}\x1b[0m\r\n`));
  });
}

/** Shows the pane inside `host` and fits it; the agent's terminal is resized to match. */
export function mountPane(agentId: string, host: HTMLElement): void {
  const pane = panes.get(agentId);
  if (!pane) {
    wanted.host.set(agentId, host);
    opener.request(agentId, true);
    return;
  }
  if (pane.element.parentElement !== host) {
    host.appendChild(pane.element);
    if (host.isConnected && !pane.visible) {
      resumeRenderer(pane.term);
      slices.moved(pane);
    }
  }
  fitShown(agentId, host);
  webgl.show(agentId);
  if (!pane.visible) {
    pane.visible = true;
    // What came while parked is parsed now, before the switch's frame (behind anything the pacer holds for it).
    parseHeld(pane, pacer.heldBytes(agentId) > 0 ? (bytes) => pacer.write(agentId, pane.term, bytes) : null);
    history.shown(pane);
    // The core kept this pane current at a low rate while it was hidden, and sent none of a flood: it catches up
    // from its offset (or from the mirror's screen when far behind) on the same stream, and the old screen stays
    // until the new one is written.
    // An attach under way (a pane loaded ahead, pane-warmup.ts) tells the core once it is done (doAttach).
    if (pane.stream) pane.stream.setVisible(true);
    else if (pane.terminalId && !attachPending(agentId)) void attach(pane, pane.terminalId);
  }
}

/** Hidden, not destroyed: the xterm keeps its buffer; the core sends it output at a low rate until it is shown again. */
export function parkPane(agentId: string): void {
  wanted.host.delete(agentId);
  const pane = panes.get(agentId);
  if (!pane) return;
  slices.now(pane);
  lot().appendChild(pane.element);
  fitParked(agentId);
  if (pane.visible) {
    pane.visible = false;
    pane.stream?.setVisible(false);
    history.parked(pane);
  }
}

/**
 * Keeps the pane on the agent's current terminal. A new terminal (a resume or restart) continues below a
 * divider; the same one resumes from the bytes the pane already has.
 */
export function followTerminal(agentId: string, terminalId: string | null, running: boolean): void {
  const pane = panes.get(agentId);
  if (!pane) {
    wanted.follow.set(agentId, { terminalId, running });
    opener.request(agentId, false);
    return;
  }
  pane.accepting = running && terminalId !== null;
  pane.term.options.disableStdin = !pane.accepting;
  if (terminalId === null) return;
  if (pane.terminalId !== terminalId) {
    // Behind any output of the old terminal still held for this pane (write-pacer.ts).
    const next = pane.terminalId !== null;
    // The old terminal's output held while parked first (parked-output.ts), then the divider.
    if (next) parseHeld(pane, (bytes) => pacer.write(agentId, pane.term, bytes));
    if (next) pacer.write(agentId, pane.term, NEW_TERMINAL);
    // A new terminal continues below the old one's output, from its first byte; a pane with nothing yet starts from
    // the core's screen and a few screens of history, the rest loaded when scrolled to (pane-history.ts).
    pane.terminalId = terminalId;
    pane.offset = 0;
    pane.stream?.detach();
    pane.stream = null;
    // Keys are numbered per terminal: what was typed into the old one is not typed into this one.
    if (next) pane.input = paneLedger(agentId);
    void attach(pane, terminalId, next);
  } else if (!pane.stream && !attachPending(agentId)) {
    void attach(pane, terminalId);
  }
}

const NEW_TERMINAL = new TextEncoder().encode('\r\n\x1b[2m──────── new terminal ────────\x1b[0m\r\n');

/** Resolves once the pane's attach (if any) is done and everything written to its xterm so far is parsed. */
export async function settled(agentId: string): Promise<void> {
  await opened(agentId);
  await attaching.get(agentId);
  const pane = panes.get(agentId);
  if (pane) await new Promise<void>((resolve) => pane.term.write('', resolve));
}

/** Whether the registry has a pane for the agent (or one on its way: pane-opener.ts). */
export const hasPane = (agentId: string): boolean => panes.has(agentId) || opener.pending(agentId);

/** Resolves once the agent's pane is open (at once if it is, or if nothing asked for it). */
function opened(agentId: string): Promise<void> {
  if (panes.has(agentId) || !opener.pending(agentId)) return Promise.resolve();
  return new Promise((resolve) => {
    const waiting = openWaiters.get(agentId) ?? [];
    waiting.push(resolve);
    openWaiters.set(agentId, waiting);
  });
}
const openWaiters = new Map<string, (() => void)[]>();

/** The agent's pane if the page has one (never creates it). */
export const existingPane = (agentId: string): PaneTerminal | undefined => panes.get(agentId);

/** The client the store handed over, for the panes' own requests (pane-screens.ts). */
export const paneClient = (): BatonClient | null => client;

/**
 * The store's client, handed over by the store (`provideClientTo`, main.tsx) at every connect: the panes use it for
 * their bytes only (attach, input, resize, recorded screens), which never pass through the store (docs/architecture.md
 * §6). After a reconnect every pane asks for exactly what it is missing.
 */
export function setClient(next: BatonClient | null): void {
  client = next;
  for (const pane of panes.values()) {
    pane.stream = null;
    if (next && pane.terminalId) void attach(pane, pane.terminalId);
  }
}

export function focusPane(agentId: string): void {
  const pane = panes.get(agentId);
  if (pane) {
    slices.now(pane);
    pane.term.focus();
  } else if (opener.pending(agentId)) wanted.focus = agentId;
}

/** Milliseconds since the agent last printed anything. */
export function quietFor(agentId: string): number {
  const pane = panes.get(agentId);
  return pane ? performance.now() - pane.lastDataAt : 0;
}

export function paneRenderer(agentId: string): 'webgl' | 'dom' | null {
  return panes.get(agentId)?.renderer ?? null;
}

const attaching = new Map<string, Promise<void>>();
/** Attaches asked for and not yet done, per agent. */
const pendingAttaches = new Map<string, number>();
const attachPending = (agentId: string) => (pendingAttaches.get(agentId) ?? 0) > 0;

/** `whole`: start over from the core's screen and its whole history (pane-history.ts); rejects if that failed. */
function attach(pane: PaneTerminal, terminalId: string, fromStart = false, whole = false): Promise<void> {
  const previous = attaching.get(pane.agentId) ?? Promise.resolve();
  pendingAttaches.set(pane.agentId, (pendingAttaches.get(pane.agentId) ?? 0) + 1);
  const done = previous.then(() => doAttach(pane, terminalId, fromStart, whole));
  const next = done
    .catch(() => undefined)
    .finally(() => pendingAttaches.set(pane.agentId, (pendingAttaches.get(pane.agentId) ?? 1) - 1));
  attaching.set(pane.agentId, next);
  return whole ? done : next;
}

async function doAttach(pane: PaneTerminal, terminalId: string, fromStart: boolean, whole: boolean): Promise<void> {
  const c = client;
  if (!c || pane.terminalId !== terminalId) {
    if (whole) throw new Error('the pane is no longer on this terminal');
    return;
  }
  // A fresh page has nothing yet: the core answers with its mirror's screen (a reset) and live output after it.
  // Its resets carry a few screens of history, the rest comes when the user scrolls to it (pane-history.ts).
  const fromOffset = whole ? undefined : fromStart ? 0 : pane.offset > 0 || pane.stream ? pane.offset : undefined;
  const scrollback = whole ? undefined : history.catchUpLines(pane);
  const askedAt = performance.now();
  const visible = pane.visible;
  const stream = await c.attach(
    pane.agentId,
    { terminalId, ...(fromOffset !== undefined ? { fromOffset } : {}), visible, scrollback, input: pane.input },
    {
      onData: (data, offset) => writeAt(pane, data, offset, (id) => void attach(pane, id)),
      onReset: (screen, offset) => replaceScreen(pane, screen, offset, scrollback, history),
    },
  );
  if (pane.terminalId !== terminalId || client !== c) {
    stream.detach();
    if (whole) throw new Error('the pane moved on while its history loaded');
    return;
  }
  // The catch-up (a screen, or the bytes since the pane's offset) has been handed to xterm: fetched, then parsed.
  const fetchedAt = performance.now();
  timed('fetch', pane.agentId, askedAt);
  pane.term.write('', () => timed('parse', pane.agentId, fetchedAt));
  pane.stream = stream;
  // Shown or hidden while the attach was under way: the core hears it now.
  if (pane.visible !== visible) stream.setVisible(pane.visible);
  const { cols, rows } = pane.term;
  if (pane.visible && pane.accepting)
    void c.call('agent.resize', { agentId: pane.agentId, cols, rows }).catch(() => undefined);
}
