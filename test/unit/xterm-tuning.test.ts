// The two trims of xterm's DOM renderer costs (renderer/panes/xterm-tuning.ts): panes with the same font share one
// set of measured character widths, and the scrollbar's fade-out timer keeps xterm's contract (its runner runs once,
// `timeout` after the last call) with one browser timer instead of one per scrolled line.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isTuned, lazyTimer, tuneXterm } from '../../renderer/panes/xterm-tuning.js';

/** An xterm-shaped terminal (xterm 6's fields) whose width cache counts its measurements. */
function fakeTerm(font = 'mono', fontSize = 13) {
  let measured = 0;
  const cache = {
    _flat: new Float32Array(256).fill(-9999),
    _holey: new Map<string, number>() as Map<string, number> | undefined,
    _font: font,
    _fontSize: fontSize,
    _weight: 'normal',
    _weightBold: 'bold',
    clear() {
      this._flat.fill(-9999);
      this._holey = new Map();
    },
    get(c: string): number {
      const cp = c.charCodeAt(0);
      if (c.length === 1 && cp < 256) {
        if (this._flat[cp] !== -9999) return this._flat[cp]!;
        measured++;
        this._flat[cp] = 7.5;
        return 7.5;
      }
      const hit = this._holey!.get(c);
      if (hit !== undefined) return hit;
      measured++;
      this._holey!.set(c, 15);
      return 15;
    },
  };
  const timer = { cancel: () => undefined, cancelAndSet: (_run: () => void, _ms: number) => undefined };
  const term = {
    _core: {
      _renderService: { _renderer: { value: { _widthCache: cache } } },
      _viewport: {
        _isSyncing: false,
        _scrollableElement: { _hideTimeout: timer, _revealOnScroll: true, _onDidScroll: () => undefined },
      },
    },
  };
  return { term, cache, measured: () => measured };
}

/** The fields of xterm's WidthCache that the tuning reads, empty (no width measured). */
class WidthCacheFields {
  _flat = new Float32Array(256).fill(-9999);
  _holey: Map<string, number> | undefined = new Map();
  _font = '';
  _fontSize = 0;
  _weight: unknown = 'normal';
  _weightBold: unknown = 'bold';
  clear(): void {
    this._flat.fill(-9999);
    this._holey = new Map();
  }
}

afterEach(() => vi.useRealTimers());

describe('xterm tuning', () => {
  it('measures a character once for every pane with the same font, and again for another font', () => {
    vi.stubGlobal('devicePixelRatio', 1);
    const a = fakeTerm();
    const b = fakeTerm();
    const other = fakeTerm('mono', 16);
    for (const t of [a, b, other]) tuneXterm(t.term);
    expect(isTuned(a.term)).toBe(true);
    a.cache.get('W');
    a.cache.get('●');
    b.cache.get('W');
    b.cache.get('●');
    expect(a.measured() + b.measured()).toBe(2);
    other.cache.get('W');
    expect(other.measured()).toBe(1);
    // xterm clears a pane's cache on a char size change: the others keep the widths they share.
    b.cache.clear();
    a.cache.get('W');
    b.cache.get('W');
    expect(a.measured() + b.measured()).toBe(2);
    vi.unstubAllGlobals();
  });

  it("shares a new pane's widths from its renderer's construction on, before xterm measures its letter spacing", () => {
    vi.stubGlobal('devicePixelRatio', 1);
    let measured = 0;
    // xterm's WidthCache as its DOM renderer uses it: built, given the font, then asked for 'W' (its spacing).
    class WidthCache extends WidthCacheFields {
      setFont(font: string, size: number): void {
        if (font === this._font && size === this._fontSize) return;
        this._font = font;
        this._fontSize = size;
        this.clear();
      }
      get(c: string): number {
        const cp = c.charCodeAt(0);
        if (this._flat[cp] !== -9999) return this._flat[cp]!;
        measured++;
        this._flat[cp] = 7.5;
        return 7.5;
      }
    }
    const open = () => {
      const cache = new WidthCache();
      cache.setFont('shared-mono', 13);
      cache.get('W');
      const term = { _core: { _renderService: { _renderer: { value: { _widthCache: cache } } } } };
      tuneXterm(term);
      return cache;
    };
    open();
    expect(measured).toBe(1);
    for (let i = 0; i < 5; i++) open();
    expect(measured).toBe(1);
    vi.unstubAllGlobals();
  });

  it("measures widths aside, out of the pane's own elements, so no pane out of layout reckons from a 0", () => {
    vi.stubGlobal('devicePixelRatio', 1);
    // The page's own measuring element: a run of the character, 7.5 px each in this font (a pane in view reads the same).
    const element = () => ({
      style: {} as Record<string, string>,
      textContent: '',
      isConnected: true,
      setAttribute: () => undefined,
      appendChild: () => undefined,
      get offsetWidth() {
        return this.textContent.length * 7.5;
      },
    });
    vi.stubGlobal('document', { createElement: element, body: { appendChild: () => undefined } });
    // xterm's WidthCache as a parked pane's renderer has it: its own measuring element reads 0 (display: none).
    class WidthCache extends WidthCacheFields {
      override _font = 'aside-mono';
      override _fontSize = 13;
      _container = { inPane: true, remove: () => (this._container.inPane = false) };
      get(c: string): number {
        const cp = c.charCodeAt(0);
        if (this._flat[cp] !== -9999) return this._flat[cp]!;
        const width = this._measure(c, 0);
        if (width > 0) this._flat[cp] = width;
        return width;
      }
      _measure(_c: string, _variant: number): number {
        return 0;
      }
    }
    // The first pane's renderer reckoned its spacing (cell 7.5 − 'W') before the tuning could reach its cache.
    const cache = new WidthCache();
    const renderer = {
      _widthCache: cache,
      spacing: 7.5 - cache.get('W'),
      _setDefaultSpacing() {
        this.spacing = 7.5 - cache.get('W');
      },
    };
    expect(renderer.spacing).toBe(7.5);
    tuneXterm({ _core: { _renderService: { _renderer: { value: renderer } } } });
    expect(renderer.spacing).toBe(0);
    expect(cache.get('m')).toBe(7.5);
    // Its own measuring elements leave the pane (fewer elements moved with it at every switch).
    expect(cache._container.inPane).toBe(false);
    // Every later cache of the class measures aside too.
    expect(new WidthCache().get('x')).toBe(7.5);
    vi.unstubAllGlobals();
  });

  it('runs the hide timer once, its timeout after the last call, with one browser timer armed at a time', () => {
    vi.useFakeTimers();
    const timer = { cancel: () => undefined, cancelAndSet: (_run: () => void, _ms: number) => undefined };
    lazyTimer(timer, () => Date.now());
    const run = vi.fn();
    for (let i = 0; i < 50; i++) {
      timer.cancelAndSet(run, 500);
      vi.advanceTimersByTime(10);
      expect(vi.getTimerCount()).toBe(1);
    }
    vi.advanceTimersByTime(489);
    expect(run).not.toHaveBeenCalled();
    vi.advanceTimersByTime(2);
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(5000);
    expect(run).toHaveBeenCalledTimes(1);
    timer.cancelAndSet(run, 500);
    timer.cancel();
    vi.advanceTimersByTime(1000);
    expect(run).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('finds the fields it trims in the installed xterm (an upgrade that renames one must be noticed)', () => {
    const src = (path: string) =>
      readFileSync(fileURLToPath(new URL(`../../node_modules/@xterm/xterm/src/${path}`, import.meta.url)), 'utf8');
    const width = src('browser/renderer/dom/WidthCache.ts');
    for (const f of [
      '_flat',
      '_holey',
      '_font',
      '_fontSize',
      '_weight',
      '_weightBold',
      'public clear()',
      'public setFont(',
      'protected _measure(c: string, variant: FontVariant): number',
    ])
      expect(width).toContain(f);
    expect(src('browser/renderer/dom/DomRenderer.ts')).toContain('private _setDefaultSpacing(): void');
    // A parked pane's char size never comes from layout: xterm measures it on a canvas where it can.
    expect(src('browser/services/CharSizeService.ts')).toContain('new TextMetricsMeasureStrategy(');
    expect(src('browser/renderer/dom/DomRenderer.ts')).toContain('this._widthCache = new WidthCache(');
    expect(src('browser/services/RenderService.ts')).toContain('private _renderer: MutableDisposable<IRenderer>');
    expect(src('browser/CoreBrowserTerminal.ts')).toContain('this._viewport = this._register(');
    expect(src('browser/Viewport.ts')).toContain('this._scrollableElement = this._register(');
    expect(src('vs/base/browser/ui/scrollbar/scrollableElement.ts')).toContain('this._hideTimeout.cancelAndSet(');
    const lib = readFileSync(
      fileURLToPath(new URL('../../node_modules/@xterm/xterm/lib/xterm.mjs', import.meta.url)),
      'utf8',
    );
    expect(src('browser/renderer/dom/DomRenderer.ts')).toContain('this._dimensionsStyleElement.textContent = styles;');
    for (const f of [
      '_core',
      '_renderService',
      '_widthCache',
      '_viewport',
      '_scrollableElement',
      '_hideTimeout',
      '_dimensionsStyleElement',
      '_themeStyleElement',
      '_measure(',
      '_setDefaultSpacing()',
    ])
      expect(lib).toContain(f);
  });
});
