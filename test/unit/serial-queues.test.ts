// The per-run chains the run store and the run repository write through (store/serial-queues.ts): one run's work
// happens in the order asked even when an earlier job is slower, a failed job does not stop the ones behind it, other
// runs are not held up, and the quit's wait sees every job land.
import { describe, expect, it } from 'vitest';
import { SerialQueues } from '../../electron/core/store/serial-queues.js';

const later = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

describe('SerialQueues', () => {
  it("runs one key's jobs in call order, a failure not stopping the next, other keys alongside", async () => {
    const q = new SerialQueues();
    const done: string[] = [];
    const slow = q.run('a', async () => {
      await later(30);
      done.push('a1');
    });
    const failing = q.run('a', () => Promise.reject(new Error('disk full')));
    const after = q.run('a', async () => {
      done.push('a3');
      return 3;
    });
    const other = q.run('b', async () => {
      done.push('b1');
    });
    await expect(failing).rejects.toThrow('disk full');
    expect(await after).toBe(3);
    await Promise.all([slow, other]);
    expect(done).toEqual(['b1', 'a1', 'a3']);
  });

  it('idle resolves once every queued job has settled, failed ones included', async () => {
    const q = new SerialQueues();
    let landed = 0;
    void q.run('a', async () => {
      await later(20);
      landed++;
    });
    q.run('b', () => Promise.reject(new Error('no'))).catch(() => undefined);
    void q.run('a', async () => {
      landed++;
    });
    await q.idle();
    expect(landed).toBe(2);
  });
});
