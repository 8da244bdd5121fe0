// What a slow key of the history's typing waited behind (BENCH_TRACE_TYPING=1 in the history scene, the scale scene
// and idle.ts): Chromium's timeline of the page while the keys are typed, then, for every key whose rows took longer
// than the goal, each main-thread task between the key's `keydown` timestamp and its rows in the DOM, with its wall and
// CPU time and what ran in it (script by function, timers, frames, garbage collection, layout). A key is found in the
// timeline by the `input` events in order (one per key the hook timed: renderer/bench-scale-hooks.ts) and the
// `keydown` dispatched before it; its timestamp is that dispatch less the key's measured wait.
import type { TypingKey } from '../../renderer/bench-typing-hooks.js';
import { cpu, isTask, selfTimes, startTrace, stopTrace, type TraceEvent } from './page-trace.js';
import type { BenchPage } from './renderer-page.js';

const GOAL_MS = 16;

export const tracingTyping = () => process.env.BENCH_TRACE_TYPING === '1';

function label(e: TraceEvent): string {
  const d = e.args?.data;
  if (e.name === 'FunctionCall') {
    const file = (d?.url ?? '').split('/').pop() ?? '';
    return `script ${d?.functionName || '?'}${file ? ` (${file}:${d?.lineNumber ?? '?'})` : ''}`;
  }
  if (e.name === 'EventDispatch') return `event ${d?.type ?? '?'}`;
  return e.name;
}

/** The page's main thread: the one with the most script. */
function mainThread(events: readonly TraceEvent[]): TraceEvent[] {
  const scriptBy = new Map<string, number>();
  for (const e of events)
    if (e.name === 'FunctionCall' || e.name === 'EvaluateScript')
      scriptBy.set(`${e.pid}:${e.tid}`, (scriptBy.get(`${e.pid}:${e.tid}`) ?? 0) + (e.dur ?? 0));
  const main = [...scriptBy].sort((a, b) => b[1] - a[1])[0]?.[0];
  return events
    .filter((e) => `${e.pid}:${e.tid}` === main && e.ph === 'X' && e.dur !== undefined)
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
}

const inside = (t: TraceEvent, e: TraceEvent) => e !== t && e.ts >= t.ts && e.ts < t.ts + t.dur!;

function printLifecycle(e: TraceEvent): void {
  if (e.name !== 'Layout' && e.name !== 'UpdateLayoutTree') return;
  const b = e.args?.beginData;
  const size =
    e.name === 'Layout'
      ? `${b?.dirtyObjects ?? '?'} of ${b?.totalObjects ?? '?'} objects dirty`
      : `${e.args?.elementCount ?? '?'} elements`;
  console.log(`      ${e.name} ${(cpu(e) / 1000).toFixed(1)} ms cpu: ${size}`);
}

/** Prints, for every key over the goal, the tasks it waited behind and its own. */
export function printSlowKeys(events: readonly TraceEvent[], keys: readonly TypingKey[]): void {
  const mine = mainThread(events);
  const inputs = mine.filter((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'input');
  const keydowns = mine.filter((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'keydown');
  const tasks = mine.filter(isTask);
  const parts = selfTimes(mine, label, false);
  if (inputs.length !== keys.length)
    console.log(`  typing trace: ${inputs.length} input events for ${keys.length} keys; keys matched in order anyway`);
  keys.forEach((k, i) => {
    if (!(k.dom > GOAL_MS)) return;
    const input = inputs[i];
    if (!input) return;
    const keydown = keydowns.filter((e) => e.ts <= input.ts).at(-1);
    if (!keydown) return;
    const from = keydown.ts - k.wait * 1000;
    const to = from + k.dom * 1000;
    console.log(`  key ${i} (dom ${k.dom.toFixed(1)} ms, waited ${k.wait.toFixed(1)} ms before its keydown ran):`);
    for (const t of tasks) {
      if (t.ts + t.dur! < from - 2000 || t.ts > to) continue;
      const what = [...(parts.get(t) ?? [])]
        .filter(([, us]) => us > 300)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 5)
        .map(([name, us]) => `${name} ${(us / 1000).toFixed(1)}`)
        .join(', ');
      const own = t.ts <= keydown.ts && keydown.ts < t.ts + t.dur! ? ' [keydown]' : '';
      const inp = t.ts <= input.ts && input.ts < t.ts + t.dur! ? ' [input]' : '';
      console.log(
        `    at ${((t.ts - from) / 1000).toFixed(1).padStart(6)} ms: wall ${(t.dur! / 1000).toFixed(1)} cpu ${(cpu(t) / 1000).toFixed(1)}${own}${inp}  ${what}`,
      );
      // In the key's own task: how much of the page each style recalculation and layout covered.
      if (own || inp) for (const e of mine) if (inside(t, e)) printLifecycle(e);
    }
  });
}

/** Hooks for typeIntoHistory: trace while typing; `report` then prints the slow keys' tasks. */
export function typingTrace(p: BenchPage) {
  let events: TraceEvent[] = [];
  return {
    during: () => startTrace(p),
    after: async () => void (events = await stopTrace(p)),
    report: (keys: readonly TypingKey[]) => printSlowKeys(events, keys),
  };
}
