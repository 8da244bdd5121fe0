// A run's new xterms open one per task, panes in view before panes loaded ahead (renderer/panes/pane-opener.ts).
import { describe, expect, it } from 'vitest';
import { PaneOpener } from '../../renderer/panes/pane-opener.js';

/** The opener with its tasks run by hand: each `task()` is one task of the page. */
function harness() {
  const opened: string[] = [];
  const tasks: (() => void)[] = [];
  const opener = new PaneOpener(
    (agentId) => opened.push(agentId),
    (next) => tasks.push(next),
  );
  const task = () => tasks.shift()?.();
  return { opener, opened, tasks, task };
}

describe('PaneOpener', () => {
  it('opens one pane per task, panes in view first, each in the order asked', () => {
    const { opener, opened, tasks, task } = harness();
    opener.request('ahead-1', false);
    opener.request('ahead-2', false);
    opener.request('shown-1', true);
    opener.request('shown-2', true);
    expect(opened).toEqual([]);
    expect(tasks).toHaveLength(1);
    task();
    expect(opened).toEqual(['shown-1']);
    task();
    expect(opened).toEqual(['shown-1', 'shown-2']);
    task();
    task();
    expect(opened).toEqual(['shown-1', 'shown-2', 'ahead-1', 'ahead-2']);
    task();
    expect(tasks).toHaveLength(0);
  });

  it('moves a pane loaded ahead to the front once it is wanted in view, and opens each pane once', () => {
    const { opener, opened, task } = harness();
    opener.request('a', false);
    opener.request('b', false);
    opener.request('b', true);
    opener.request('b', false);
    opener.request('a', false);
    for (let i = 0; i < 4; i++) task();
    expect(opened).toEqual(['b', 'a']);
  });

  it('drops a pane opened by other means, and says which panes wait', () => {
    const { opener, opened, task } = harness();
    opener.request('a', true);
    opener.request('b', true);
    expect(opener.pending('a')).toBe(true);
    opener.opened('a');
    expect(opener.pending('a')).toBe(false);
    for (let i = 0; i < 3; i++) task();
    expect(opened).toEqual(['b']);
    expect(opener.pending('b')).toBe(false);
  });
});
