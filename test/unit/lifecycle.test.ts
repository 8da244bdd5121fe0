// The Disposable convention (electron/core/lifecycle.ts): owners give back what they hold, newest first, once.
import { describe, expect, it } from 'vitest';
import { DisposableStore, disposableInterval, disposableTimeout, toDisposable } from '../../electron/core/lifecycle.js';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

describe('DisposableStore', () => {
  it('disposes what it holds newest first, each once, however often it is disposed', () => {
    const order: string[] = [];
    const store = new DisposableStore();
    store.add(toDisposable(() => order.push('first')));
    const second = store.add(toDisposable(() => order.push('second')));
    store.add(toDisposable(() => order.push('third')));
    expect(store.size).toBe(3);
    store.dispose();
    store.dispose();
    second.dispose();
    expect(order).toEqual(['third', 'second', 'first']);
    expect(store.size).toBe(0);
    expect(store.isDisposed).toBe(true);
  });

  it('disposes at once what is added after it was disposed, so a late timer cannot outlive its owner', () => {
    const store = new DisposableStore();
    store.dispose();
    let disposed = false;
    store.add(toDisposable(() => (disposed = true)));
    expect(disposed).toBe(true);
    expect(store.size).toBe(0);
  });

  it('disposes everything even when one throws, then throws', () => {
    const order: string[] = [];
    const store = new DisposableStore();
    store.add(toDisposable(() => order.push('a')));
    store.add(
      toDisposable(() => {
        throw new Error('b failed');
      }),
    );
    store.add(toDisposable(() => order.push('c')));
    expect(() => store.dispose()).toThrow('b failed');
    expect(order).toEqual(['c', 'a']);
  });

  it('release disposes one item now; delete forgets one without disposing it', () => {
    const store = new DisposableStore();
    let released = 0;
    let deleted = 0;
    const a = store.add(toDisposable(() => released++));
    const b = store.add(toDisposable(() => deleted++));
    store.release(a);
    store.delete(b);
    expect([released, deleted, store.size]).toEqual([1, 0, 0]);
    store.dispose();
    expect([released, deleted]).toEqual([1, 0]);
  });
});

describe('timers as disposables', () => {
  it('a disposed timeout or interval never fires again', async () => {
    let fired = 0;
    const timeout = disposableTimeout(20, () => fired++);
    const interval = disposableInterval(10, () => fired++, { unref: true });
    timeout.dispose();
    interval.dispose();
    await sleep(60);
    expect(fired).toBe(0);
  });
});
