// The throughput scene's measures besides the pane's rate (renderer-throughput.ts): the core alone into a plain client
// (no page), and the page's frames and style recalculations in a round.
import type { RpcClient } from '../../shared/client.js';
import { sleep } from './renderer-kit.js';
import type { BenchPage } from './renderer-page.js';
import { LINE_BYTES } from './renderer-scripts.js';
import { mbps } from './stats.js';

/** The trace category of Chromium's frame events (BENCH_FRAMES=1 traces each round). */
export const FRAME_TRACE = 'disabled-by-default-devtools.timeline.frame';

/** Frames the page's main thread took part in, from a trace (`BeginMainThreadFrame` events). */
export function mainThreadFrames(trace: Buffer): number {
  const events = (JSON.parse(trace.toString('utf8')) as { traceEvents?: { name?: string }[] }).traceEvents ?? [];
  return events.filter((e) => e.name === 'BeginMainThreadFrame').length;
}

/** The page's style recalculations so far (Performance.getMetrics RecalcStyleCount). */
export async function styleRecalcs(p: BenchPage): Promise<number> {
  await p.cdp.send('Performance.enable');
  const { metrics } = await p.cdp.send('Performance.getMetrics');
  return metrics.find((m) => m.name === 'RecalcStyleCount')?.value ?? Number.NaN;
}

/** The same trigger and bytes through the core into a plain client (no page): what the core alone delivers. */
export async function coreOnly(client: RpcClient, agentId: string, lines: number): Promise<number> {
  const bytes = lines * LINE_BYTES;
  let got = 0;
  let finish: (t: number) => void = () => undefined;
  const done = new Promise<number>((r) => (finish = r));
  let counting = false;
  const stream = await client.attach(
    agentId,
    { autoAck: true, visible: true },
    {
      onData: (data) => {
        if (!counting) return;
        got += data.length;
        if (got >= bytes) finish(performance.now());
      },
      onReset: () => undefined,
    },
  );
  try {
    await sleep(200);
    counting = true;
    const t0 = performance.now();
    await client.call('agent.write', { agentId, data: `${lines}\r` });
    let timer: NodeJS.Timeout | undefined;
    const t1 = await Promise.race([
      done,
      new Promise<never>(
        (_, reject) => (timer = setTimeout(() => reject(new Error('the core-only run got stuck')), 120_000)),
      ),
    ]).finally(() => clearTimeout(timer));
    if (got !== bytes) throw new Error(`the core delivered ${got} bytes, expected ${bytes}`);
    return mbps(bytes, t1 - t0);
  } finally {
    stream.detach();
    await sleep(200);
  }
}
