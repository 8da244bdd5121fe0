// The scale scene's idle windows (renderer-scale.ts): the core's and the page's CPU while 100 agents sit idle, with
// the messages and the core's threads printed, and the wait for each run's periodic snapshot that ends the settling.
import type { RpcClient } from '../../shared/client.js';
import type { ServerProcess } from '../helpers/server.js';
import { countMessages, countsText, threadCpuSeconds, threadShares } from './idle-window.js';
import { sleep } from './renderer-kit.js';
import { browserCpuSeconds, cpuSeconds, mainThread, type BenchBrowser, type BenchPage } from './renderer-page.js';
import type { ScaleGlobal } from './renderer-scale.js';
import { fmt } from './stats.js';

/** Core and page CPU (shares of a core) while `during` runs, with the messages and the core's threads printed. */
export async function idleWindow(
  b: BenchBrowser,
  p: BenchPage,
  server: ServerProcess,
  agentIds: string[],
  during: () => Promise<void>,
) {
  await p.cdp.send('Network.enable');
  const messages = countMessages(p);
  const threads0 = threadCpuSeconds(server.child.pid!);
  const core0 = cpuSeconds(server.child.pid!);
  const browser0 = await browserCpuSeconds(b);
  const page0 = await mainThread(p);
  const output0 = server.output().length;
  // Panes that gave their history back (60 s after they were parked) during the window: the garbage that frees is
  // collected in it.
  const trimmed = () =>
    p.page.evaluate(
      // NaN: an older bench build, without the hook.
      (ids) => (globalThis as unknown as ScaleGlobal).__batonScale.trimmedPanes?.(ids) ?? Number.NaN,
      agentIds,
    );
  const trimmed0 = await trimmed();
  await during();
  const trimmed1 = await trimmed();
  const page1 = await mainThread(p);
  const gcs = server
    .output()
    .slice(output0)
    .split('\n')
    .filter((l) => /Mark-Compact|Scavenge|Mark-Sweep/.test(l));
  if (gcs.length > 0) console.log(`  core GCs:\n${gcs.map((l) => `    ${l.trim()}`).join('\n')}`);
  // The main thread's busy time is wall time, which a loaded machine stretches; CPU is read from /proc.
  const seconds = (page1.at - page0.at) / 1000;
  const core = (cpuSeconds(server.child.pid!) - core0) / seconds;
  const threads = threadShares(threads0, threadCpuSeconds(server.child.pid!), seconds);
  const page = ((await browserCpuSeconds(b)) - browser0) / seconds;
  console.log(
    `  messages in ${fmt(seconds, 0)} s: ${countsText(messages())}; core threads: ${threads}; panes trimmed meanwhile: ${trimmed1 - trimmed0} (${trimmed1} in all)`,
  );
  return { core, page, busy: (page1.task - page0.task) / seconds, seconds };
}

/** Until each run's last snapshot is later than `after` (ms since epoch); a run none comes for fails the bench. */
export async function snapshotsAfter(client: RpcClient, runIds: string[], after: number): Promise<void> {
  const deadline = after + 75_000; // the periodic snapshot comes once a minute
  for (;;) {
    const list = await client.call('run.list', { runs: runIds });
    const late = list.filter((r) => !r.lastSnapshotAt || Date.parse(r.lastSnapshotAt) <= after);
    if (late.length === 0) return;
    if (Date.now() > deadline) throw new Error(`no periodic snapshot after the last output of ${late.length} runs`);
    await sleep(1000);
  }
}
