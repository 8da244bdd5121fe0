import { describe, expect, it } from 'vitest';
import { settleWithin } from '../../electron/core/settle-within.js';

const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

describe('settleWithin', () => {
  it('returns when the work is done and leaves no timer holding the process open', async () => {
    const before = timers();
    await settleWithin(Promise.resolve('done'), 60_000);
    expect(timers()).toBe(before);
  });

  it('returns at the bound while the work goes on', async () => {
    let finish = (): void => undefined;
    let finished = false;
    const work = new Promise<void>((resolve) => (finish = resolve)).then(() => (finished = true));
    await settleWithin(work, 20);
    expect(finished).toBe(false);
    finish();
    await work;
    expect(finished).toBe(true);
  });

  it('passes on a failure that comes within the bound', async () => {
    await expect(settleWithin(Promise.reject(new Error('no such run')), 60_000)).rejects.toThrow('no such run');
  });
});
