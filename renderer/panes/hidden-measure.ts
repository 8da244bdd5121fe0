// Character widths for panes out of layout. A parked pane sits in a parking lot that is `display: none` (pane-terminal.ts),
// so a width its DOM renderer measures there (a span's offsetWidth in the pane's own measuring element) reads 0. xterm
// keeps no 0 in its width cache, but it reckons from it all the same: the renderer's letter spacing (the cell's width
// against a 'W'), and the spacing of every span of the rows it draws; a row drawn in the lot with a 0 would be drawn
// wrongly spaced when shown. So widths are measured in one small element of the page's own, laid out off-screen and
// contained, with the cache's font: the same width a pane in view measures, wherever the pane is, and the panes' own
// measuring elements can leave the DOM (xterm-tuning.ts; docs/performance.md, "Longest task: the parking lot out of
// layout").

/** What the measure needs of xterm's WidthCache (xterm 6: its font fields; see xterm-tuning.ts). */
export interface MeasuredFont {
  _font: string;
  _fontSize: number;
  _weight: unknown;
  _weightBold: unknown;
}

/** xterm's WidthCache variants (FontVariant): bit 1 bold, bit 2 italic. */
const BOLD = 1;
const ITALIC = 2;
/** As xterm measures (WidthCacheSettings.REPEAT): a run of the character, for sub-pixel widths. */
const REPEAT = 32;

let measurer: { root: HTMLDivElement; span: HTMLSpanElement } | null = null;

function element(): { root: HTMLDivElement; span: HTMLSpanElement } {
  if (measurer?.root.isConnected) return measurer;
  const root = document.createElement('div');
  root.setAttribute('aria-hidden', 'true');
  // Laid out (a width is read from it) but never painted, and contained: a measure dirties this box only.
  root.style.cssText =
    'position:fixed;left:-20000px;top:0;width:4000px;height:100px;overflow:hidden;contain:strict;visibility:hidden;';
  const span = document.createElement('span');
  // xterm's own measuring element's styles (xterm.css .xterm-char-measure-element, WidthCache's container).
  span.style.cssText =
    'display:inline-block;position:absolute;top:0;left:0;line-height:normal;white-space:pre;font-kerning:none;';
  root.appendChild(span);
  document.body.appendChild(root);
  measurer = { root, span };
  return measurer;
}

/** The width of `c` in the cache's font and `variant`, measured outside any pane. */
export function measureAside(font: MeasuredFont, c: string, variant: number): number {
  if (typeof document === 'undefined') return 0;
  const { span } = element();
  span.style.fontFamily = font._font;
  span.style.fontSize = `${font._fontSize}px`;
  span.style.fontWeight = String(variant & BOLD ? font._weightBold : font._weight);
  span.style.fontStyle = variant & ITALIC ? 'italic' : 'normal';
  span.textContent = c.repeat(REPEAT);
  return span.offsetWidth / REPEAT;
}
