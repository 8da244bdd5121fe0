// Measurement hooks for test/bench/renderer.ts, in the bench build only (bench-main.ts; docs/architecture.md §11):
// `window.__batonBench` measures inside the page (xterm's own write rate as the baseline, a pane's bytes and text,
// output and keystroke-echo timings) so no figure includes a round trip to the test process. The product bundle
// never contains this module (test/integration/renderer-bundle.test.ts checks).
import { Terminal } from '@xterm/xterm';
import { SearchAddon } from '@xterm/addon-search';
import { WebLinksAddon } from '@xterm/addon-web-links';
import { WebglAddon } from '@xterm/addon-webgl';
import { getPane, paneRenderer } from './panes/terminal-registry.js';
import { paneText } from './panes/pane-screens.js';
import { drawsOf, setOutputTuning, type OutputTuning } from './panes/pane-output.js';

export interface PaneInfo {
  renderer: 'webgl' | 'dom';
  cols: number;
  rows: number;
  /** Rows in the active buffer (scrollback + screen). */
  bufferLines: number;
  scrollback: number;
  /** Attached to the core's stream and taking input. */
  ready: boolean;
  visible: boolean;
  /** Times the pane has drawn since its output began (render-throttle.ts); null if not counted. */
  draws: number | null;
}

export interface EchoSample {
  /** keydown (the event's own timestamp) → first animation frame after the echo is in the pane's buffer, ms. */
  painted: number;
  /** keydown → the echo parsed into the pane's buffer, ms. */
  parsed: number;
  /** The keydown event's timestamp → its handler running (main-thread queueing), ms. */
  queued: number;
}

export interface BatonBench {
  /**
   * The baseline: a fresh xterm outside Baton, of the same size, options and renderer as `like` (an agent's pane;
   * 120×40 without one), shown on top of the page, written `bytes` of 100-character lines + CRLF in 64 KiB chunks
   * as fast as it accepts them. Resolves MB/s (10^6 bytes) at the first animation frame after the last write callback.
   */
  xtermWriteRate(bytes: number, like?: string): Promise<number>;
  /** Bytes written into the agent's pane so far (its stream offset); 0 without a pane. */
  paneBytes(agentId: string): number;
  paneText(agentId: string): string;
  pane(agentId: string): PaneInfo | null;
  /**
   * Types `trigger` into the pane (as the user would, through xterm's onData) and resolves once `bytes` more bytes
   * are in the pane, parsed, and an animation frame has passed: the time from the trigger, and the bytes that came.
   */
  timePaneOutput(
    agentId: string,
    trigger: string,
    bytes: number,
    timeoutMs?: number,
  ): Promise<{ ms: number; bytes: number }>;
  /**
   * The echo baseline: a fresh xterm of the same size, options and renderer as `like`'s pane, laid over that pane and
   * focused, that echoes its own input (onData → write, a line break every 40 characters, as the echo agent does):
   * xterm and the frame with no Baton in between.
   */
  openLocalEcho(like: string): void;
  closeLocalEcho(): void;
  /**
   * Arms one echo sample in the agent's pane (null: the local echo): the next keydown of `letter` starts the clock;
   * read the sample with `echoResult`.
   */
  armEcho(agentId: string | null, letter: string, timeoutMs?: number): void;
  echoResult(): Promise<EchoSample>;
  /** Switches parts of the output path (pane-output.ts) so the bench weighs each in one run; returns the result. */
  setOutputTuning(next: Partial<OutputTuning>): OutputTuning;
}

declare global {
  interface Window {
    __batonBench?: BatonBench;
  }
}

const LINE_CHARS = 100;
const CHUNK = 64 * 1024;
/** Bytes handed to the baseline xterm ahead of its parser (far below its 50 MB discard limit). */
const IN_FLIGHT = 8 << 20;

/** `bytes` of the bench's line workload: "NNNNNNNN " + 91 printable characters + CRLF, line after line. */
export function lineWorkload(bytes: number): Uint8Array[] {
  const all = new Uint8Array(bytes);
  const lineBytes = LINE_CHARS + 2;
  const line = new Uint8Array(lineBytes);
  for (let i = 0, at = 0; at < bytes; i++, at += lineBytes) {
    const n = String(i).padStart(8, '0');
    for (let k = 0; k < 8; k++) line[k] = n.charCodeAt(k);
    line[8] = 32;
    for (let k = 9; k < LINE_CHARS; k++) line[k] = 33 + ((i * 7 + k) % 94);
    line[LINE_CHARS] = 13;
    line[LINE_CHARS + 1] = 10;
    all.set(line.subarray(0, Math.min(lineBytes, bytes - at)), at);
  }
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes; at += CHUNK) chunks.push(all.subarray(at, Math.min(bytes, at + CHUNK)));
  return chunks;
}

const frame = () => new Promise<number>((resolve) => requestAnimationFrame(() => resolve(performance.now())));

function existing(agentId: string) {
  return paneRenderer(agentId) === null ? null : getPane(agentId);
}

type Pane = ReturnType<typeof getPane>;

/** A fresh xterm like `ref`'s (size, options, addons, renderer), in a host laid over `ref`'s pane, on top of the page. */
function standIn(ref: Pane | null): { term: Terminal; host: HTMLDivElement } {
  const rect = ref?.element.getBoundingClientRect();
  const host = document.createElement('div');
  host.style.cssText =
    `position:fixed;left:${rect?.left ?? 0}px;top:${rect?.top ?? 0}px;z-index:2147483647;` +
    `width:${rect?.width ?? 1000}px;height:${rect?.height ?? 640}px;`;
  document.body.appendChild(host);
  const o = ref?.term.options;
  const term = new Terminal({
    allowProposedApi: true,
    cols: ref?.term.cols ?? 120,
    rows: ref?.term.rows ?? 40,
    scrollback: o?.scrollback ?? 5000,
    ...(o?.fontFamily ? { fontFamily: o.fontFamily } : {}),
    fontSize: o?.fontSize ?? 13,
    ...(o?.theme ? { theme: o.theme } : {}),
    cursorBlink: o?.cursorBlink ?? true,
  });
  term.loadAddon(new SearchAddon());
  term.loadAddon(new WebLinksAddon());
  term.open(host);
  if (ref?.renderer === 'webgl') {
    try {
      term.loadAddon(new WebglAddon());
    } catch {
      // The pane got WebGL and this one did not: the figure is still xterm's, on the DOM renderer.
    }
  }
  return { term, host };
}

async function xtermWriteRate(bytes: number, like?: string): Promise<number> {
  const { term, host } = standIn(like ? existing(like) : null);
  try {
    const chunks = lineWorkload(bytes);
    await frame();
    const t0 = performance.now();
    await new Promise<void>((resolve) => {
      let next = 0;
      let inFlight = 0;
      const pump = () => {
        while (next < chunks.length && inFlight < IN_FLIGHT) {
          const chunk = chunks[next++]!;
          const last = next === chunks.length;
          inFlight += chunk.length;
          term.write(chunk, () => {
            inFlight -= chunk.length;
            if (last) resolve();
            else pump();
          });
        }
      };
      pump();
    });
    const t1 = await frame();
    return bytes / 1e6 / ((t1 - t0) / 1000);
  } finally {
    term.dispose();
    host.remove();
  }
}

function timePaneOutput(
  agentId: string,
  trigger: string,
  bytes: number,
  timeoutMs = 120_000,
): Promise<{ ms: number; bytes: number }> {
  const pane = existing(agentId);
  if (!pane) return Promise.reject(new Error(`no pane for ${agentId}`));
  const start = pane.offset;
  const target = start + bytes;
  return new Promise((resolve, reject) => {
    let done = false;
    const timer = setTimeout(() => {
      done = true;
      sub.dispose();
      reject(new Error(`the pane got ${pane.offset - start} of ${bytes} bytes within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    const check = () => {
      if (done || pane.offset < target) return;
      done = true;
      sub.dispose();
      clearTimeout(timer);
      // Every byte has been handed to xterm; its callback runs once all of them are parsed, then one frame draws them.
      pane.term.write('', () => void frame().then((t1) => resolve({ ms: t1 - t0, bytes: pane.offset - start })));
    };
    const sub = pane.term.onWriteParsed(check);
    const t0 = performance.now();
    pane.term.input(trigger, false);
  });
}

/** Whether the character just before the cursor (or ending the line above, after a line break) is `letter`. */
function echoed(term: Terminal, letter: string): boolean {
  const buffer = term.buffer.active;
  const y = buffer.baseY + buffer.cursorY;
  const x = buffer.cursorX;
  if (x > 0)
    return (
      buffer
        .getLine(y)
        ?.getCell(x - 1)
        ?.getChars() === letter
    );
  return (
    buffer
      .getLine(y - 1)
      ?.translateToString(true)
      .endsWith(letter) ?? false
  );
}

let echo: { result: Promise<EchoSample> } | null = null;
let local: { term: Terminal; host: HTMLDivElement } | null = null;

function openLocalEcho(like: string): void {
  closeLocalEcho();
  const ref = existing(like);
  if (!ref) throw new Error(`no pane for ${like}`);
  const stand = standIn(ref);
  let n = 0;
  stand.term.onData((data) => {
    let out = '';
    for (const c of data) {
      out += c;
      if (++n % 40 === 0) out += '\r\n';
    }
    stand.term.write(out);
  });
  stand.term.focus();
  local = stand;
}

function closeLocalEcho(): void {
  local?.term.dispose();
  local?.host.remove();
  local = null;
}

function armEcho(agentId: string | null, letter: string, timeoutMs = 10_000): void {
  const term = agentId === null ? local?.term : existing(agentId)?.term;
  if (!term) throw new Error(agentId === null ? 'openLocalEcho was not called' : `no pane for ${agentId}`);
  const result = new Promise<EchoSample>((resolve, reject) => {
    let t0: number | null = null;
    let queued = 0;
    let parsed: number | null = null;
    const onKey = (e: KeyboardEvent) => {
      if (t0 !== null || e.key !== letter) return;
      const now = performance.now();
      // The event's own timestamp is when the browser took the key: it counts the time the key waited for a busy page.
      t0 = e.timeStamp > 0 && e.timeStamp <= now && now - e.timeStamp < 5000 ? e.timeStamp : now;
      queued = now - t0;
    };
    const finish = () => {
      window.removeEventListener('keydown', onKey, true);
      sub.dispose();
      clearTimeout(timer);
    };
    const timer = setTimeout(() => {
      finish();
      reject(
        new Error(`no echo of '${letter}' within ${timeoutMs / 1000} s${t0 === null ? ' (no keydown seen)' : ''}`),
      );
    }, timeoutMs);
    const sub = term.onWriteParsed(() => {
      if (t0 === null || parsed !== null || !echoed(term, letter)) return;
      parsed = performance.now();
      finish();
      const start = t0;
      const parsedAt = parsed;
      void frame().then((t1) => resolve({ painted: t1 - start, parsed: parsedAt - start, queued }));
    });
    window.addEventListener('keydown', onKey, true);
  });
  result.catch(() => undefined);
  echo = { result };
}

window.__batonBench = {
  xtermWriteRate,
  paneBytes: (agentId) => existing(agentId)?.offset ?? 0,
  paneText,
  pane: (agentId) => {
    const pane = existing(agentId);
    if (!pane) return null;
    return {
      renderer: pane.renderer,
      cols: pane.term.cols,
      rows: pane.term.rows,
      bufferLines: pane.term.buffer.active.length,
      scrollback: pane.term.options.scrollback ?? 0,
      ready: pane.stream !== null && pane.accepting,
      visible: pane.visible,
      draws: drawsOf(pane),
    };
  },
  timePaneOutput,
  openLocalEcho,
  closeLocalEcho,
  armEcho,
  echoResult: () => echo?.result ?? Promise.reject(new Error('armEcho was not called')),
  setOutputTuning,
};
