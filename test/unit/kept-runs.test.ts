import { describe, expect, it } from 'vitest';
import { KeptRuns } from '../../renderer/components/kept-runs.js';

describe('the runs kept mounted', () => {
  it('keeps the runs shown, in the order first kept, and lets the least recently shown go', () => {
    const kept = new KeptRuns(3);
    for (const id of ['a', 'b', 'c']) kept.shown(id);
    kept.shown('a');
    kept.shown('d');
    // b was shown least recently: it goes; the order of the others does not change.
    expect(kept.ids()).toEqual(['a', 'c', 'd']);
  });

  it('keeps runs ahead only while there is room, and they never push out a run the user has shown', () => {
    const kept = new KeptRuns(3);
    kept.shown('a');
    expect(kept.ahead('x')).toBe(true);
    expect(kept.ahead('y')).toBe(true);
    expect(kept.full()).toBe(true);
    expect(kept.ahead('z')).toBe(false);
    // A new run shown pushes out a run kept ahead, not the one shown.
    kept.shown('b');
    expect(kept.ids()).toEqual(['a', 'y', 'b']);
  });

  it('drops the runs gone from the page', () => {
    const kept = new KeptRuns(3);
    kept.shown('a');
    kept.shown('b');
    kept.keepOnly((id) => id !== 'a');
    expect(kept.ids()).toEqual(['b']);
  });
});
