// A pane's history (renderer/panes/pane-history.ts): a pane that got the screen and a few screens of history loads
// the rest when scrolled to its top, into the same xterm, keeping the user's place; a long-parked pane gives its
// history back and gets it again the same way. A headless xterm stands in for the page's (same buffer), and the
// core's side is a real mirror.
import xtermHeadless from '@xterm/headless';
import { afterEach, describe, expect, it } from 'vitest';
import { Mirror } from '../../electron/core/pty/mirror.js';
import { FULL_SCROLLBACK, PaneHistory, type HistoryPane } from '../../renderer/panes/pane-history.js';

const { Terminal } = xtermHeadless;
const ROWS = 24;

const disposables: { dispose(): void }[] = [];
afterEach(() => {
  for (const d of disposables.splice(0)) d.dispose();
});

const numbered = (from: number, to: number) => {
  let text = '';
  for (let i = from; i <= to; i++) text += `line ${i}\r\n`;
  return Buffer.from(text);
};

const parsed = (term: { write(data: string, cb: () => void): void }) =>
  new Promise<void>((resolve) => term.write('', resolve));

const lineAt = (pane: HistoryPane & { term: InstanceType<typeof Terminal> }, y: number) =>
  pane.term.buffer.active.getLine(y)?.translateToString(true) ?? '';

/** A pane on an agent that printed `lines` lines, caught up as the page does: a bounded reset. */
async function setup(lines: number, options: { refillFails?: boolean; trimAfterMs?: number } = {}) {
  const mirror = new Mirror(80, ROWS, FULL_SCROLLBACK);
  const term = new Terminal({ cols: 80, rows: ROWS, scrollback: FULL_SCROLLBACK, allowProposedApi: true });
  disposables.push(mirror, term);
  mirror.write(numbered(1, lines));
  const pane = { agentId: 'agt_1', term, visible: true };
  const notices: boolean[] = [];
  let refills = 0;
  const history = new PaneHistory(
    {
      refill: async () => {
        refills++;
        if (options.refillFails) throw new Error('connection lost');
        const screen = await mirror.capture();
        term.write(`\x1bc${screen.serialized}`);
        history.replaced(pane, undefined);
      },
      notice: (_pane, loading) => notices.push(loading),
    },
    options.trimAfterMs,
  );
  // The user's wheel on the pane: only a scroll the user made loads the history.
  const input = new EventTarget();
  history.watch(pane, input);
  const wheel = () => input.dispatchEvent(new Event('wheel'));
  const limit = history.catchUpLines(pane);
  term.write(`\x1bc${(await mirror.capture(undefined, limit)).serialized}`);
  history.replaced(pane, limit);
  await parsed(term);
  return { mirror, term, pane, history, notices, refills: () => refills, limit, wheel };
}

describe('a pane caught up with its latest screens', () => {
  it('loads the whole history when scrolled to the top, keeps the place, and is then complete', async () => {
    const { term, pane, history, notices, refills, limit, wheel } = await setup(5000);
    expect(history.state('agt_1')).toBe('partial');
    expect(term.buffer.active.length).toBe(limit + ROWS);
    expect(lineAt(pane, 0)).not.toBe('line 1');
    const topLine = lineAt(pane, 0);
    // xterm moving the view itself (no wheel, key or pointer from the user) loads nothing.
    term.scrollToTop();
    term.scrollToBottom();
    expect(refills()).toBe(0);
    term.scrollLines(-5);
    expect(refills()).toBe(0);
    wheel();
    term.scrollToTop();
    expect(history.state('agt_1')).toBe('loading');
    await history.whole(pane);
    expect(refills()).toBe(1);
    expect(notices).toEqual([true, false]);
    expect(history.state('agt_1')).toBe('complete');
    expect(lineAt(pane, 0)).toBe('line 1');
    // The view stays as far from the bottom as it was: the line the user saw at the top is still at the top.
    expect(lineAt(pane, term.buffer.active.viewportY)).toBe(topLine);
    wheel();
    term.scrollToTop();
    await history.whole(pane);
    expect(refills()).toBe(1);
  });

  it('asks once for a short history, which stays as it was', async () => {
    const { term, pane, history, refills, wheel } = await setup(40);
    const before = lineAt(pane, 0);
    wheel();
    term.scrollToTop();
    await history.whole(pane);
    expect(refills()).toBe(1);
    expect(history.state('agt_1')).toBe('complete');
    expect(lineAt(pane, 0)).toBe(before);
    expect(before).toBe('line 1');
    term.scrollToBottom();
    wheel();
    term.scrollToTop();
    await history.whole(pane);
    expect(refills()).toBe(1);
  });

  it('asks again on the next scroll to the top when a load failed', async () => {
    const { term, pane, history, notices, refills, wheel } = await setup(5000, { refillFails: true });
    wheel();
    term.scrollToTop();
    await history.whole(pane);
    expect(history.state('agt_1')).toBe('partial');
    expect(notices).toEqual([true, false]);
    term.scrollToBottom();
    wheel();
    term.scrollToTop();
    await history.whole(pane);
    expect(refills()).toBe(2);
  });

  it('gives a long-parked pane history back, and brings it back when the pane is shown and scrolled', async () => {
    const { mirror, term, pane, history, limit, wheel } = await setup(5000, { trimAfterMs: 20 });
    await history.whole(pane);
    expect(lineAt(pane, 0)).toBe('line 1');
    pane.visible = false;
    history.parked(pane);
    await expect.poll(() => history.state('agt_1')).toBe('partial');
    expect(term.buffer.active.length).toBe(limit + ROWS);
    // The screen is untouched.
    expect(lineAt(pane, term.buffer.active.length - 2)).toBe('line 5000');
    pane.visible = true;
    history.shown(pane);
    expect(term.options.scrollback).toBe(FULL_SCROLLBACK);
    mirror.write(numbered(5001, 5003));
    term.write(numbered(5001, 5003).toString());
    wheel();
    term.scrollToTop();
    await history.whole(pane);
    expect(lineAt(pane, 0)).toBe('line 1');
    expect(lineAt(pane, term.buffer.active.length - 2)).toBe('line 5003');
  });

  it('keeps a pane shown again within the minute whole', async () => {
    const { term, pane, history } = await setup(5000, { trimAfterMs: 50 });
    await history.whole(pane);
    pane.visible = false;
    history.parked(pane);
    pane.visible = true;
    history.shown(pane);
    await new Promise((r) => setTimeout(r, 100));
    expect(history.state('agt_1')).toBe('complete');
    expect(lineAt(pane, 0)).toBe('line 1');
  });
});
