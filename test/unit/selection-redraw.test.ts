// xterm redraws the selection after every scroll, and its DOM renderer then renders every row again, paused or not
// (renderer/panes/selection-redraw.ts): with no selection before or after, nothing is redrawn; a paused terminal's
// change of selection is drawn once it is in view again; a visible one's at once.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { quietSelectionRedraws, quietsSelection } from '../../renderer/panes/selection-redraw.js';

/** A terminal with xterm 6's RenderService fields; its renderer counts full redraws. */
function fakeTerm() {
  const drawn: unknown[] = [];
  const service = {
    _isPaused: false,
    _needsFullRefresh: false,
    _needsSelectionRefresh: false,
    _selectionState: { start: undefined as unknown, end: undefined as unknown, columnSelectMode: false },
    handleSelectionChanged(start: unknown, end: unknown, columnSelectMode: boolean) {
      this._selectionState = { start, end, columnSelectMode };
      drawn.push(start);
    },
  };
  return { term: { _core: { _renderService: service } }, service, drawn };
}

describe('selection redraws', () => {
  it('skips a redraw with no selection before or after, in view or parked', () => {
    const { term, service, drawn } = fakeTerm();
    quietSelectionRedraws(term);
    expect(quietsSelection(term)).toBe(true);
    service.handleSelectionChanged(undefined, undefined, false);
    service._isPaused = true;
    service.handleSelectionChanged(undefined, undefined, false);
    expect(drawn).toEqual([]);
    expect(service._needsFullRefresh).toBe(false);
  });

  it('draws a visible terminal’s selection at once, and its clearing', () => {
    const { term, service, drawn } = fakeTerm();
    quietSelectionRedraws(term);
    service.handleSelectionChanged([0, 1], [4, 1], false);
    service.handleSelectionChanged(undefined, undefined, false);
    expect(drawn).toEqual([[0, 1], undefined]);
  });

  it('keeps a paused terminal’s change of selection for the full refresh when it is shown', () => {
    const { term, service, drawn } = fakeTerm();
    quietSelectionRedraws(term);
    service._isPaused = true;
    service.handleSelectionChanged([2, 0], [3, 0], false);
    expect(drawn).toEqual([]);
    expect(service._selectionState.start).toEqual([2, 0]);
    expect(service._needsSelectionRefresh).toBe(true);
    expect(service._needsFullRefresh).toBe(true);
  });

  it('finds the fields it uses in the installed xterm (an upgrade that renames one must be noticed)', () => {
    const src = (path: string) =>
      readFileSync(fileURLToPath(new URL(`../../node_modules/@xterm/xterm/src/${path}`, import.meta.url)), 'utf8');
    const render = src('browser/services/RenderService.ts');
    for (const f of [
      'private _isPaused: boolean',
      'private _needsFullRefresh: boolean',
      'private _needsSelectionRefresh: boolean',
      'private _selectionState: ISelectionState',
      'public handleSelectionChanged(start',
      'if (this._needsSelectionRefresh) {',
    ])
      expect(render).toContain(f);
    // The redraw after every scroll this trims, and the DOM renderer's full render for it.
    expect(src('browser/CoreBrowserTerminal.ts')).toContain('this._selectionService!.refresh();');
    expect(src('browser/renderer/dom/DomRenderer.ts')).toContain(
      'this._rowFactory.handleSelectionChanged(start, end, columnSelectMode);\n    this.renderRows(0, this._bufferService.rows - 1);',
    );
  });
});
