// One style sheet for every pane's xterm instead of two per pane (docs/performance.md, "Longest task: one style sheet
// for every pane"). xterm's DOM renderer writes two style elements per terminal, inside the terminal's own screen: its
// theme (about 800 rules: a color class per ANSI color, foreground, dim and background) and its row dimensions, each
// rule scoped to the terminal's own class (`.xterm-dom-renderer-owner-N`). With a hundred panes the page held two
// hundred sheets and 80,000 rules. Every element's style was matched against a hundred copies of each rule, and every
// pane moved between the parking lot and the grid took its two sheets out of the page and put them back, which changes
// the page's active sheets: a run switch's style recalculation cost 15–18 µs an element, most of its longest task.
// Every pane has the same theme and font, so the sheets differ only in the terminal's number: here each is written once,
// with the number taken out, in the page's head, and shared by every terminal that writes the same text.

/** What xterm 6 names after the terminal (DomRenderer.ts): its class and its cursor's blink animations. */
const OWNER = /\.xterm-dom-renderer-owner-\d+(?![\w-])/g;
const BLINK = /\bblink_(underline|bar|block)_\d+\b/g;

/** The sheet's text with the terminal's number taken out: the same for every terminal with the same theme. */
export function sharedText(text: string): string {
  // `.xterm` is on the same element as the owner class (the terminal's root), so the rules keep their specificity.
  return text.replace(OWNER, '.xterm').replace(BLINK, 'bt_shared_blink_$1');
}

/** Where the shared sheets live: the page's head, in production; a fake in tests. */
export interface SheetHost {
  add(text: string): object;
  remove(sheet: object): void;
}

const headHost: SheetHost = {
  add(text) {
    const style = document.createElement('style');
    style.dataset.btShared = 'xterm';
    style.textContent = text;
    document.head.appendChild(style);
    return style;
  },
  remove(sheet) {
    if (sheet instanceof HTMLStyleElement) sheet.remove();
  },
};

/**
 * The shared sheets, one per distinct text, each counted by the terminals' style elements that hold it and removed
 * when none does. A theme change rewrites every pane's theme: the old theme's sheet goes once no pane holds it, so it
 * never outlives the change (two sheets with the same selectors: the later one would win whatever the panes hold).
 */
export class SharedSheets {
  private readonly sheets = new Map<string, { sheet: object; holders: number }>();

  constructor(private readonly host: SheetHost = headHost) {}

  hold(text: string): void {
    const held = this.sheets.get(text);
    if (held) held.holders++;
    else this.sheets.set(text, { sheet: this.host.add(text), holders: 1 });
  }

  release(text: string): void {
    const held = this.sheets.get(text);
    if (!held) return;
    if (--held.holders > 0) return;
    this.sheets.delete(text);
    this.host.remove(held.sheet);
  }

  /** How many distinct sheets the page holds (for tests). */
  get size(): number {
    return this.sheets.size;
  }
}

const shared = new WeakMap<object, true>();

/**
 * Takes one of a DOM renderer's style elements out of the page and has the shared sheet of its text (number taken out)
 * style its terminal instead. The element keeps its text for xterm (later writes, a theme change, move the terminal
 * to the sheet of the new text) and its removal at dispose releases the sheet. Idempotent.
 */
export function shareStyle(element: object, sheets: SharedSheets): void {
  if (shared.has(element)) return;
  const textAccessor = accessor(element, 'textContent');
  const remove: unknown = (element as { remove?: unknown }).remove;
  if (!textAccessor?.get || !textAccessor.set || typeof remove !== 'function') return;
  shared.set(element, true);
  let own = String(textAccessor.get.call(element) ?? '');
  let held: string | null = null;
  const follow = (text: string) => {
    const next = sharedText(text);
    if (next === held) return;
    sheets.hold(next);
    if (held !== null) sheets.release(held);
    held = next;
  };
  follow(own);
  // Out of the page, and empty: the terminal's own rules are the shared sheet's.
  Reflect.apply(remove, element, []);
  textAccessor.set.call(element, '');
  Object.defineProperty(element, 'textContent', {
    configurable: true,
    get: () => own,
    set: (text: unknown) => {
      own = String(text ?? '');
      follow(own);
    },
  });
  Object.defineProperty(element, 'remove', {
    configurable: true,
    value: () => {
      if (held !== null) sheets.release(held);
      held = null;
      Reflect.apply(remove, element, []);
    },
  });
}

function accessor(element: object, name: string): PropertyDescriptor | undefined {
  let proto: unknown = Object.getPrototypeOf(element);
  while (typeof proto === 'object' && proto !== null) {
    const found = Object.getOwnPropertyDescriptor(proto, name);
    if (found) return found;
    proto = Object.getPrototypeOf(proto);
  }
  return undefined;
}
