// Where the page's main thread spends a stretch of the bench, as Chromium's own timeline sees it (CDP Tracing): the
// time of each kind of work (style, layout, paint, script by its invoker, a style sheet parsed), the longest first,
// and the longest tasks with what ran in them. The CPU profile (page-profile.ts) names the script functions; this
// names what it calls "(program)": the rendering work between them. BENCH_TRACE=1 turns it on for the scale scenes.
import { writeFileSync } from 'node:fs';
import type { BenchPage } from './renderer-page.js';

export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  tid: number;
  pid: number;
  args?: {
    data?: { url?: string; functionName?: string; type?: string; lineNumber?: number; columnNumber?: number };
    beginData?: { dirtyObjects?: number; totalObjects?: number; partialLayout?: boolean };
    elementCount?: number;
  };
}

let events: TraceEvent[] = [];

/** Where a script's function is (its bundle position: the bench build's source maps name it), with BENCH_TRACE_AT=1. */
const where = (e: TraceEvent): string =>
  process.env.BENCH_TRACE_AT === '1' && e.args?.data?.lineNumber !== undefined
    ? `@${e.args.data.lineNumber}:${e.args.data.columnNumber ?? 0}`
    : '';

export async function startTrace(
  p: BenchPage,
  // BENCH_TRACE_STACKS=1 adds the JS stack that forced each layout (Layout events' beginData.stackTrace).
  categories = 'devtools.timeline,disabled-by-default-devtools.timeline' +
    (process.env.BENCH_TRACE_STACKS === '1' ? ',disabled-by-default-devtools.timeline.stack' : '') +
    // BENCH_TRACE_INVALIDATIONS=1: which node's change made each style recalculation and layout (and the JS stack).
    (process.env.BENCH_TRACE_INVALIDATIONS === '1'
      ? ',disabled-by-default-devtools.timeline.invalidationTracking'
      : ''),
): Promise<void> {
  events = [];
  p.cdp.on('Tracing.dataCollected', (e: { value: object[] }) => events.push(...(e.value as TraceEvent[])));
  await p.cdp.send('Tracing.start', {
    categories,
    transferMode: 'ReportEvents',
  });
}

/** Stops the trace: its events (and, with BENCH_TRACE_FILE=<file>, the raw events written there). */
export async function stopTrace(p: BenchPage): Promise<TraceEvent[]> {
  const done = new Promise<void>((resolve) => p.cdp.once('Tracing.tracingComplete', () => resolve()));
  await p.cdp.send('Tracing.end');
  await done;
  // Chromium's trace format; `tdur` is each event's CPU time on its thread, which a loaded machine does not stretch
  // as it does the wall time `dur`.
  const file = process.env.BENCH_TRACE_FILE;
  if (file) writeFileSync(file, JSON.stringify(events));
  return events;
}

/** Stops the trace and prints the main thread's time by kind of work, and its ten longest tasks. */
export async function printTrace(p: BenchPage, title: string): Promise<void> {
  printTraceEvents(await stopTrace(p), title);
}

/** The main thread's time by kind of work and its longest tasks, from a trace's events (a file's, for one). */
export function printTraceEvents(events: readonly TraceEvent[], title: string): void {
  // The page's main thread: the one that runs the renderer's tasks with the most script in them.
  const scriptBy = new Map<string, number>();
  for (const e of events)
    if (e.name === 'FunctionCall' || e.name === 'EvaluateScript')
      scriptBy.set(`${e.pid}:${e.tid}`, (scriptBy.get(`${e.pid}:${e.tid}`) ?? 0) + (e.dur ?? 0));
  const main = [...scriptBy].sort((a, b) => b[1] - a[1])[0]?.[0];
  const mine = events.filter((e) => `${e.pid}:${e.tid}` === main && e.ph === 'X' && e.dur !== undefined);
  const tasks = mine.filter((e) => e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask');
  const kinds = new Map<string, number>();
  const counts = new Map<string, number>();
  const inside = (t: TraceEvent, e: TraceEvent) => e.ts >= t.ts && e.ts < t.ts + t.dur!;
  for (const e of mine) {
    if (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask') continue;
    const key =
      e.name === 'FunctionCall' || e.name === 'EventDispatch' || e.name === 'TimerFire'
        ? `${e.name} ${e.args?.data?.type ?? e.args?.data?.functionName ?? ''}${where(e)}`.trim()
        : e.name;
    kinds.set(key, (kinds.get(key) ?? 0) + e.dur!);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const taskTotal = tasks.reduce((a, t) => a + t.dur!, 0);
  console.log(`  trace of ${title}: main-thread tasks ${(taskTotal / 1000).toFixed(0)} ms (nested kinds overlap)`);
  for (const [k, us] of [...kinds].sort((a, b) => b[1] - a[1]).slice(0, 18))
    console.log(`    ${(us / 1000).toFixed(1).padStart(7)} ms  ${k} ×${counts.get(k) ?? 0}`);
  // The longest layouts and style recalcs, with how much of the page each touched.
  for (const e of mine
    .filter((x) => x.name === 'Layout' || x.name === 'UpdateLayoutTree')
    .sort((a, b) => b.dur! - a.dur!)
    .slice(0, 6)) {
    const b = e.args?.beginData;
    const size =
      e.name === 'Layout'
        ? `${b?.dirtyObjects ?? '?'} of ${b?.totalObjects ?? '?'} objects dirty${b?.partialLayout ? ', partial' : ''}`
        : `${e.args?.elementCount ?? '?'} elements`;
    console.log(`    ${e.name} ${(e.dur! / 1000).toFixed(0)} ms: ${size}`);
  }
  for (const t of [...tasks].sort((a, b) => b.dur! - a.dur!).slice(0, 10)) {
    const parts = new Map<string, number>();
    for (const e of mine)
      if (e !== t && inside(t, e) && e.name !== 'RunTask' && e.dur! > 2000)
        parts.set(e.name, (parts.get(e.name) ?? 0) + e.dur!);
    const what = [...parts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([k, us]) => `${k} ${(us / 1000).toFixed(0)}`)
      .join(', ');
    console.log(`    task ${(t.dur! / 1000).toFixed(0)} ms: ${what}`);
  }
  printByCpu(mine, tasks);
}

export const isTask = (e: TraceEvent) => e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask';
export const cpu = (e: TraceEvent) => e.tdur ?? e.dur ?? 0;

/**
 * Each task's parts by CPU self time (an event's CPU less its children's: a forced layout inside a script counts as
 * layout), each part named by `name`; `withTasks`: the task's own event is a part too (what ran in it outside any
 * child event). `sorted`: one thread's complete events by start, the longer first at one start.
 */
export function selfTimes(
  sorted: readonly TraceEvent[],
  name: (e: TraceEvent) => string,
  withTasks: boolean,
): Map<TraceEvent, Map<string, number>> {
  const self = new Map<TraceEvent, Map<string, number>>();
  const stack: { e: TraceEvent; task: TraceEvent }[] = [];
  for (const e of sorted) {
    while (stack.length > 0 && stack.at(-1)!.e.ts + stack.at(-1)!.e.dur! <= e.ts) stack.pop();
    const parent = stack.at(-1);
    const task = isTask(e) && !parent ? e : parent?.task;
    if (!task) continue;
    const parts = self.get(task) ?? new Map<string, number>();
    self.set(task, parts);
    if (withTasks || !isTask(e)) parts.set(name(e), (parts.get(name(e)) ?? 0) + cpu(e));
    if (parent && (withTasks || !isTask(parent.e)))
      parts.set(name(parent.e), (parts.get(name(parent.e)) ?? 0) - cpu(e));
    stack.push({ e, task });
  }
  return self;
}
const kindOf = (e: TraceEvent) =>
  e.name === 'FunctionCall' ? `script ${e.args?.data?.functionName || '?'}${where(e)}` : e.name;

/**
 * The longest tasks by the main thread's CPU time (`tdur`), each split into the self time of what ran in it (an
 * event's CPU less its children's: a forced layout inside a script counts as layout). Wall times on a loaded machine
 * are mostly the thread waiting for a core; this is the work a task holds the page for on an idle one.
 */
function printByCpu(mine: TraceEvent[], tasks: TraceEvent[]): void {
  const sorted = [...mine].sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const self = selfTimes(sorted, kindOf, true);
  const longest = [...tasks].sort((a, b) => cpu(b) - cpu(a)).slice(0, 8);
  const total = tasks.reduce((a, t) => a + cpu(t), 0);
  console.log(`  the same by CPU time: main-thread tasks ${(total / 1000).toFixed(0)} ms; the longest, by self time:`);
  for (const t of longest) {
    const what = [...(self.get(t) ?? [])]
      .filter(([k, us]) => us > 1000 && !isTask({ name: k } as TraceEvent))
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([k, us]) => `${k} ${(us / 1000).toFixed(0)}`)
      .join(', ');
    console.log(`    task cpu ${(cpu(t) / 1000).toFixed(0)} ms (wall ${(t.dur! / 1000).toFixed(0)}): ${what}`);
  }
  // How many tasks come near the goal's 50 ms on CPU alone, and the longest of those mostly script (a click's task,
  // React's rendering) apart from the frames' style and layout.
  const over = (ms: number) => tasks.filter((t) => cpu(t) > ms * 1000).length;
  const scriptOf = (t: TraceEvent) =>
    [...(self.get(t) ?? [])].reduce((a, [k, us]) => (k.startsWith('script') ? a + us : a), 0);
  const scripted = tasks
    .filter((t) => scriptOf(t) > cpu(t) / 2)
    .sort((a, b) => cpu(b) - cpu(a))
    .slice(0, 3)
    .map((t) => `${(cpu(t) / 1000).toFixed(0)} (script ${(scriptOf(t) / 1000).toFixed(0)})`);
  console.log(
    `    tasks over 30 / 40 / 50 ms of CPU: ${over(30)} / ${over(40)} / ${over(50)}; the longest mostly script: ${scripted.join(', ')} ms`,
  );
}
