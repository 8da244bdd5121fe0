// Every pane's xterm shares one copy of its style sheets (renderer/panes/shared-styles.ts): a hundred panes with the
// same theme add one theme sheet and one dimensions sheet to the page, not two hundred; a theme change moves every
// pane to the new theme's sheet and the old one leaves the page; a renderer disposed (WebGL took over) lets go.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SharedSheets, shareStyle, sharedText, type SheetHost } from '../../renderer/panes/shared-styles.js';

/** Stands for a `<style>` in a terminal's screen: textContent an accessor on its prototype, `remove` a method. */
class StyleNode {
  text = '';
  inPage = true;
  get textContent(): string {
    return this.text;
  }
  set textContent(v: string) {
    this.text = v;
  }
  remove(): void {
    this.inPage = false;
  }
}

/** The sheets the page holds, in order, each with its text. */
function page() {
  const held: { text: string }[] = [];
  const host: SheetHost = {
    add(text) {
      const sheet = { text };
      held.push(sheet);
      return sheet;
    },
    remove(sheet) {
      held.splice(held.indexOf(sheet as { text: string }), 1);
    },
  };
  return { held, sheets: new SharedSheets(host) };
}

/** xterm 6's theme sheet for terminal `n`, abridged: its class on every rule and its blink animations' names. */
const theme = (n: number, fg = '#d8dee9') =>
  `@keyframes blink_block_${n} { 0% { color: red } }` +
  `.xterm-dom-renderer-owner-${n} .xterm-rows { color: ${fg}; }` +
  `.xterm-dom-renderer-owner-${n} .xterm-rows.xterm-focus .xterm-cursor.xterm-cursor-blink { animation: blink_block_${n} 1s step-end infinite; }` +
  `.xterm-dom-renderer-owner-${n}.focus .xterm-selection div { position: absolute; }` +
  `.xterm-dom-renderer-owner-${n} .xterm-fg-1 { color: #cd3131; }`;
const dims = (n: number) =>
  `.xterm-dom-renderer-owner-${n} .xterm-rows span { display: inline-block; height: 100%; vertical-align: top;}`;

/** A terminal's two style elements as xterm writes them at construction, then shared. */
function terminal(n: number, sheets: SharedSheets, fg?: string) {
  const t = new StyleNode();
  t.textContent = theme(n, fg);
  const d = new StyleNode();
  d.textContent = dims(n);
  shareStyle(t, sheets);
  shareStyle(d, sheets);
  return { theme: t, dims: d };
}

describe('shared xterm style sheets', () => {
  it('gives a hundred terminals with the same theme two sheets in all, their own taken out of the page', () => {
    const { held, sheets } = page();
    const terms = Array.from({ length: 100 }, (_, i) => terminal(i + 1, sheets));
    expect(held).toHaveLength(2);
    expect(terms.every((t) => !t.theme.inPage && !t.dims.inPage)).toBe(true);
    // The shared text styles any terminal's root (`.xterm`), with the same specificity, and one set of animations.
    expect(held[0]!.text).toBe(
      '@keyframes bt_shared_blink_block { 0% { color: red } }' +
        '.xterm .xterm-rows { color: #d8dee9; }' +
        '.xterm .xterm-rows.xterm-focus .xterm-cursor.xterm-cursor-blink { animation: bt_shared_blink_block 1s step-end infinite; }' +
        '.xterm.focus .xterm-selection div { position: absolute; }' +
        '.xterm .xterm-fg-1 { color: #cd3131; }',
    );
    expect(held[1]!.text).toBe(sharedText(dims(7)));
    // xterm reads back what it wrote.
    expect(terms[4]!.theme.textContent).toBe(theme(5));
  });

  it('moves every terminal to the new theme on a theme change, and the old theme leaves the page', () => {
    const { held, sheets } = page();
    const terms = Array.from({ length: 3 }, (_, i) => terminal(i + 1, sheets));
    terms.forEach((t, i) => (t.theme.textContent = theme(i + 1, '#1f2328')));
    expect(held.map((s) => s.text)).toEqual([sharedText(dims(1)), sharedText(theme(1, '#1f2328'))]);
    // And back: the first theme's sheet comes back once, and it is the only theme sheet (none left to outrank it).
    terms.forEach((t, i) => (t.theme.textContent = theme(i + 1)));
    expect(held.map((s) => s.text)).toEqual([sharedText(dims(1)), sharedText(theme(1))]);
    expect(sheets.size).toBe(2);
  });

  it('changes nothing when xterm writes the text a terminal already holds (a resize rewrites its dimensions)', () => {
    const { held, sheets } = page();
    const t = terminal(1, sheets);
    const before = [...held];
    for (let i = 0; i < 5; i++) t.dims.textContent = dims(1);
    expect(held).toEqual(before);
    expect(held[0]).toBe(before[0]);
  });

  it("keeps a sheet while any terminal holds it: a disposed renderer's removal releases only its own hold", () => {
    const { held, sheets } = page();
    const a = terminal(1, sheets);
    const b = terminal(2, sheets);
    a.theme.remove();
    a.dims.remove();
    expect(held).toHaveLength(2);
    b.theme.remove();
    b.dims.remove();
    expect(held).toHaveLength(0);
    // A DOM renderer made again (a WebGL context lost) holds them again.
    terminal(3, sheets);
    expect(held).toHaveLength(2);
  });

  it('finds in the installed xterm the names it takes out (an upgrade that renames one must be noticed)', () => {
    const dom = readFileSync(
      fileURLToPath(
        new URL('../../node_modules/@xterm/xterm/src/browser/renderer/dom/DomRenderer.ts', import.meta.url),
      ),
      'utf8',
    );
    expect(dom).toContain("const TERMINAL_CLASS_PREFIX = 'xterm-dom-renderer-owner-';");
    expect(dom).toContain('this._element.classList.add(TERMINAL_CLASS_PREFIX + this._terminalClass);');
    for (const name of ['underline', 'bar', 'block'])
      expect(dom).toContain(
        `const blinkAnimation${name[0]!.toUpperCase()}${name.slice(1)}Id = \`blink_${name}_\${this._terminalClass}\`;`,
      );
    expect(dom).toContain('return `.${TERMINAL_CLASS_PREFIX}${this._terminalClass}`;');
    // The terminal's number goes into the sheets' text nowhere else: the selector and the three animations.
    expect(dom.match(/\$\{this\._terminalClass\}/g) ?? []).toHaveLength(4);
  });
});
