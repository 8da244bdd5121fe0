// The WebGL pool's rules, with leases standing in for WebGL contexts: never more than 8 live, the least recently
// shown pane gives its context back, and a lost context hands the pane to the DOM renderer at once.
import { describe, expect, it } from 'vitest';
import { REFUSED_RETRY_MS, WebglPool } from '../../renderer/panes/webgl-pool.js';

function scene(refuse: (id: string) => boolean = () => false) {
  let live = 0;
  let asked = 0;
  const clock = { now: 0 };
  let most = 0;
  const renderer = new Map<string, 'webgl' | 'dom'>();
  const lose = new Map<string, () => void>();
  const pool = new WebglPool({
    max: 8,
    acquire: (id, lost) => {
      asked++;
      if (refuse(id)) return null;
      live++;
      most = Math.max(most, live);
      lose.set(id, lost);
      return { dispose: () => void live-- };
    },
    changed: (id, r) => renderer.set(id, r),
    now: () => clock.now,
  });
  return { pool, renderer, lose, clock, live: () => live, most: () => most, asked: () => asked };
}

describe('the WebGL pool', () => {
  it('holds at most 8 contexts however many panes are shown; the least recently shown gives its context back', () => {
    const s = scene();
    for (let i = 0; i < 100; i++) s.pool.show(`a${i}`);
    expect(s.most()).toBe(8);
    expect(s.live()).toBe(8);
    expect([...Array(100).keys()].filter((i) => s.pool.holds(`a${i}`))).toEqual([92, 93, 94, 95, 96, 97, 98, 99]);
    expect(s.renderer.get('a0')).toBe('dom');
    // Showing a held pane again makes it the most recent: the next newcomer takes a92's context, not a93's.
    s.pool.show('a92');
    s.pool.show('b');
    expect(s.pool.holds('a92')).toBe(true);
    expect(s.pool.holds('a93')).toBe(false);
    expect(s.renderer.get('a93')).toBe('dom');
    expect(s.renderer.get('b')).toBe('webgl');
    expect(s.live()).toBe(8);
  });

  it('a lost context puts the pane on the DOM renderer at once and frees its place; a pane that keeps losing stays on DOM', () => {
    const s = scene();
    s.pool.show('p');
    expect(s.renderer.get('p')).toBe('webgl');
    s.lose.get('p')!();
    expect(s.renderer.get('p')).toBe('dom');
    expect(s.live()).toBe(0);
    s.pool.show('p');
    expect(s.renderer.get('p')).toBe('webgl');
    s.lose.get('p')!();
    s.pool.show('p');
    expect(s.renderer.get('p')).toBe('dom');
    expect(s.pool.holds('p')).toBe(false);
  });

  it('a pane the GPU refuses stays on the DOM renderer and takes no place', () => {
    const s = scene((id) => id === 'x');
    s.pool.show('x');
    expect(s.pool.holds('x')).toBe(false);
    expect(s.live()).toBe(0);
  });

  it('asks a GPU that refused no more for a while, for any pane, then tries again', () => {
    let gpu = false;
    const s = scene(() => !gpu);
    s.pool.show('a');
    for (let i = 0; i < 20; i++) s.pool.show(`b${i}`);
    // A page without WebGL: one try, not one per pane shown.
    expect(s.asked()).toBe(1);
    expect(s.renderer.size).toBe(0);
    // The GPU is back (its process restarted): a pane shown after the wait gets a context.
    gpu = true;
    s.clock.now += REFUSED_RETRY_MS;
    s.pool.show('c');
    expect(s.pool.holds('c')).toBe(true);
    expect(s.renderer.get('c')).toBe('webgl');
  });
});
