// While a pane floods, xterm's per-scroll redraws wait for the pane's throttled draw (renderer/panes/flood-quiet.ts):
// a selection refresh with nothing selected asks for no frame, and the scrollbar and the textarea sync once, just
// before the draw, so after the flood they are where xterm would have put them. Driven through xterm's own
// RenderDebouncer (its source, from the installed xterm) with frames run by hand; the fields flood-quiet.ts reaches
// are checked in the installed xterm's source and in its bundle.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { FRAME_MS, RenderDebouncer } from '../helpers/xterm-debouncer.js';
import { canQuiet, quietWhileFlooding } from '../../renderer/panes/flood-quiet.js';
import { FLOOD_BYTES, throttleRendering } from '../../renderer/panes/render-throttle.js';

/** An xterm-shaped terminal: a real RenderDebouncer, and a viewport, textarea and selection service that record. */
function pane() {
  let now = 0;
  let nextId = 1;
  const frames = new Map<number, () => void>();
  const timers = new Map<number, { at: number; run: () => void }>();
  const requestAnimationFrame = (run: () => void) => {
    frames.set(nextId, run);
    return nextId++;
  };
  const window = { requestAnimationFrame, cancelAnimationFrame: (id: number) => frames.delete(id) };
  const log: string[] = [];
  let ydisp = 0;
  let ybase = 0;
  const scrollbar = { ydisp: 0, synced: 0 };
  const selection = {
    selected: false,
    frames: 0,
    refresh() {
      this.frames++;
      requestAnimationFrame(() => log.push('selection'));
    },
    get hasSelection() {
      return this.selected;
    },
  };
  const debouncer = new RenderDebouncer(() => log.push('rows'), { window });
  const core = {
    _renderService: { _renderDebouncer: debouncer },
    _viewport: {
      _sync(y: number = ydisp) {
        scrollbar.ydisp = y;
        scrollbar.synced++;
      },
    },
    _syncTextArea: () => log.push('textarea'),
    _selectionService: selection,
  };
  const term = {
    _core: core,
    buffer: {
      active: {
        get viewportY() {
          return ydisp;
        },
        get baseY() {
          return ybase;
        },
      },
    },
  };
  const throttle = throttleRendering(term, {
    now: () => now,
    frame: requestAnimationFrame,
    later: (run, ms) => {
      const id = nextId++;
      timers.set(id, { at: now + ms, run });
      return () => void timers.delete(id);
    },
  })!;
  const quiet = quietWhileFlooding(term, throttle)!;
  const frame = () => {
    now += FRAME_MS;
    for (const [id, t] of [...timers]) if (t.at <= now) (timers.delete(id), t.run());
    const run = [...frames.values()];
    frames.clear();
    for (const f of run) f();
  };
  /** A parse of `bytes` that scrolled `lines` (xterm: scroll events, then rows to draw, then the cursor moved). */
  const output = (bytes: number, lines = 10) => {
    throttle.wrote(bytes);
    for (let i = 0; i < lines; i++) {
      ybase++;
      if (ydisp === ybase - 1) ydisp = ybase;
      core._viewport._sync(); // bufferService.onScroll
      selection.refresh(); // the terminal's onScroll
    }
    debouncer.refresh(0, 39, 40);
    core._syncTextArea(); // onCursorMove
  };
  const scrollUp = (lines: number) => {
    ydisp -= lines;
    core._viewport._sync();
    debouncer.refresh(0, 39, 40);
  };
  return { term, throttle, quiet, selection, scrollbar, log, frame, output, scrollUp, ybase: () => ybase };
}

describe('a flooding pane asks for no frame per scroll', () => {
  it('drops selection refreshes with nothing selected, and syncs the scrollbar at each draw and after the flood', () => {
    const p = pane();
    for (let i = 0; i < 60; i++) {
      p.output(FLOOD_BYTES * 4);
      p.frame();
    }
    const draws = p.throttle.draws;
    expect(draws).toBeLessThan(30); // the throttle holds the rows
    // Every scroll asked for a selection refresh; only the first ones (before the flood was known) asked for a frame.
    expect(p.log.filter((l) => l === 'selection').length).toBeLessThan(3);
    // The scrollbar and the textarea synced at most once a draw, not on each of the 600 scrolls.
    expect(p.scrollbar.synced).toBeLessThanOrEqual(draws + 10);
    expect(p.log.filter((l) => l === 'textarea').length).toBeLessThanOrEqual(draws + 1);
    // The flood ends: the last screen is drawn, and the scrollbar is where the buffer is.
    for (let i = 0; i < 10; i++) p.frame();
    expect(p.scrollbar.ydisp).toBe(p.ybase());
    expect(p.log.at(-1)).toBe('rows');
  });

  it('leaves a selection, and a view the user scrolled up, to xterm as before', () => {
    const p = pane();
    for (let i = 0; i < 5; i++) (p.output(FLOOD_BYTES * 4), p.frame());
    p.selection.selected = true;
    const before = p.selection.frames;
    p.output(FLOOD_BYTES * 4, 10);
    p.frame();
    expect(p.log.filter((l) => l === 'selection').length).toBeGreaterThan(0);
    expect(p.selection.frames - before).toBe(10);
    // Scrolled up during the flood: the scrollbar follows at once.
    const synced = p.scrollbar.synced;
    p.scrollUp(100);
    expect(p.scrollbar.synced).toBe(synced + 1);
    expect(p.scrollbar.ydisp).toBe(p.ybase() - 100);
  });

  it('syncs on every scroll when switched off', () => {
    const p = pane();
    p.quiet.enabled = false;
    p.quiet.selection = false;
    for (let i = 0; i < 10; i++) (p.output(FLOOD_BYTES * 4), p.frame());
    expect(p.scrollbar.synced).toBe(100);
    expect(p.selection.frames).toBe(100);
  });

  it('finds the fields it reaches in the installed xterm (an upgrade that renames them must be noticed)', () => {
    const src = (f: string) =>
      readFileSync(fileURLToPath(new URL(`../../node_modules/@xterm/xterm/src/${f}`, import.meta.url)), 'utf8');
    expect(src('browser/Viewport.ts')).toMatch(/private _sync\(ydisp: number = /);
    expect(src('browser/Viewport.ts')).toContain('onScroll(() => this._sync())');
    const terminal = src('browser/CoreBrowserTerminal.ts');
    expect(terminal).toContain('this._viewport = ');
    expect(terminal).toContain('this._syncTextArea();');
    expect(terminal).toContain('this._selectionService!.refresh();');
    const selection = src('browser/services/SelectionService.ts');
    expect(selection).toContain('public refresh(isLinuxMouseSelection?: boolean)');
    expect(selection).toContain('public get hasSelection()');
    // The bundle the page loads keeps these names (xterm mangles none of them).
    const bundle = readFileSync(
      fileURLToPath(new URL('../../node_modules/@xterm/xterm/lib/xterm.mjs', import.meta.url)),
      'utf8',
    );
    for (const name of ['_viewport', '_sync', '_syncTextArea', '_selectionService', 'hasSelection'])
      expect(bundle).toMatch(new RegExp(`\\b${name}\\b`));
    expect(canQuiet(pane().term)).toBe(true);
    expect(canQuiet({ _core: { _syncTextArea: () => undefined } })).toBe(false);
  });
});
