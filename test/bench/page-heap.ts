// Where the page allocates: V8's sampling heap profiler (DevTools HeapProfiler) over a stretch of the bench, the
// allocations still live or collected alike (`includeObjectsCollectedBy*GC`), summed by the function that allocated,
// the top few printed with their callers. BENCH_HEAP=1 turns it on for the scale scene's switching, where major
// garbage collections were among the longest tasks (docs/performance.md, flow13).
import type { BenchPage } from './renderer-page.js';

interface SamplingNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: SamplingNode[];
}
interface SamplingProfile {
  head: SamplingNode;
  samples: { size: number; nodeId: number }[];
}

export async function startHeapSampling(p: BenchPage): Promise<void> {
  await p.cdp.send('HeapProfiler.enable');
  await p.cdp.send('HeapProfiler.startSampling', {
    samplingInterval: 16 * 1024,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
}

/** Stops the sampling and prints the `top` allocating functions (with two callers) by bytes sampled. */
export async function printHeapSampling(p: BenchPage, title: string, top = 15): Promise<void> {
  const { profile } = (await p.cdp.send('HeapProfiler.stopSampling')) as unknown as { profile: SamplingProfile };
  const name = (n: SamplingNode | undefined) =>
    n
      ? `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber + 1}`
      : '';
  const bySite = new Map<string, number>();
  let total = 0;
  const walk = (n: SamplingNode, stack: SamplingNode[]) => {
    const path = [...stack, n];
    if (n.selfSize > 0) {
      const key = [n, path.at(-2), path.at(-3)].map(name).filter(Boolean).join('  ← ');
      bySite.set(key, (bySite.get(key) ?? 0) + n.selfSize);
      total += n.selfSize;
    }
    for (const c of n.children) walk(c, path);
  };
  walk(profile.head, []);
  console.log(`  allocations while ${title}: ${(total / 2 ** 20).toFixed(1)} MiB sampled`);
  for (const [key, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(
      `    ${((bytes / total) * 100).toFixed(1).padStart(5)}%  ${(bytes / 2 ** 20).toFixed(1).padStart(6)} MiB  ${key}`,
    );
}
