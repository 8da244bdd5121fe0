// A switch's panes are drawn and laid out a few per task before the frame that shows them, and no frame shows a pane
// skipped: whatever a frame finds still waiting is shown in it, drawn by xterm's own frame as before
// (renderer/panes/show-slices.ts). Tasks, frames and the clock are run by hand.
import { describe, expect, it } from 'vitest';
import { ShowSlices, SLICE_MS, WAITING_CLASS, type SliceClock } from '../../renderer/panes/show-slices.js';

/** A pane's element: its classes, and what happened to it in order (drawn; laid out, costing 3 ms). */
function fakePane(name: string, log: string[], costMs: { now: number }) {
  const classes = new Set<string>();
  const element = {
    classList: {
      add: (c: string) => void classes.add(c),
      remove: (c: string) => void classes.delete(c),
    },
    get offsetHeight() {
      // A layout read: the pane is laid out now, in the state its classes say.
      log.push(`${name} laid out${classes.has(WAITING_CLASS) ? ' (skipped)' : ''}`);
      costMs.now += 3;
      return 100;
    },
  } as unknown as HTMLElement;
  return { name, element, skipped: () => classes.has(WAITING_CLASS) };
}

function setup() {
  const clock = { now: 0 };
  const log: string[] = [];
  const tasks: (() => void)[] = [];
  const frames: (() => void)[] = [];
  const sliceClock: SliceClock = {
    now: () => clock.now,
    task: (run) => void tasks.push(run),
    frame: (run) => void frames.push(run),
  };
  const slices = new ShowSlices<ReturnType<typeof fakePane>>((pane) => {
    log.push(`${pane.name} drawn`);
    clock.now += 1;
  }, sliceClock);
  const panes = Array.from({ length: 10 }, (_, k) => fakePane(`p${k}`, log, clock));
  const runTask = () => tasks.shift()?.();
  const runFrame = () => {
    const due = frames.splice(0);
    for (const f of due) f();
  };
  return { slices, panes, log, tasks, frames, runTask, runFrame };
}

describe('a switch shown in slices', () => {
  it('draws and lays out the panes moved in, in order, a few per task, before the frame', () => {
    const { slices, panes, log, tasks, runTask } = setup();
    for (const p of panes) slices.moved(p);
    // The switch's own task: every pane skipped, nothing drawn or laid out yet.
    expect(panes.every((p) => p.skipped())).toBe(true);
    expect(log).toEqual([]);

    runTask();
    // The first slice takes what fits SLICE_MS at its first reckoning (3 ms a pane): its panes drawn, then one layout
    // with none of them skipped any more.
    const first = Math.floor(SLICE_MS / 3);
    expect(log).toEqual([...panes.slice(0, first).map((p) => `${p.name} drawn`), `p0 laid out`]);
    expect(panes.filter((p) => !p.skipped()).map((p) => p.name)).toEqual(panes.slice(0, first).map((p) => p.name));
    expect(tasks).toHaveLength(1);

    // Those cost 1 ms each and 3 ms of layout: the next slices take more a task.
    let slicesRun = 1;
    while (tasks.length > 0) {
      runTask();
      slicesRun++;
    }
    expect(slicesRun).toBeLessThan(panes.length / first + 1);
    // Every pane drawn once, in the order they came, each before a layout that found it no longer skipped.
    expect(log.filter((l) => l.endsWith('drawn'))).toEqual(panes.map((p) => `${p.name} drawn`));
    expect(log.some((l) => l.endsWith('(skipped)'))).toBe(false);
    expect(log.at(-1)).toMatch(/laid out$/);
    expect(panes.some((p) => p.skipped())).toBe(false);
  });

  it('shows in the next frame whatever is still waiting, and the later slices find nothing left', () => {
    const { slices, panes, log, tasks, runTask, runFrame } = setup();
    for (const p of panes) slices.moved(p);
    runTask();
    const sliced = log.length;
    // A frame comes before the other slices: it must not show a pane skipped.
    runFrame();
    expect(panes.some((p) => p.skipped())).toBe(false);
    while (tasks.length > 0) runTask();
    expect(log).toHaveLength(sliced);
    expect(panes.some((p) => slices.waits(p))).toBe(false);
  });

  it('lets a pane parked or focused before its slice go at once, undrawn by the slice', () => {
    const { slices, panes, log, tasks, runTask } = setup();
    const [a, b] = panes;
    slices.moved(a!);
    slices.moved(b!);
    slices.now(a!);
    expect(a!.skipped()).toBe(false);
    expect(b!.skipped()).toBe(true);
    while (tasks.length > 0) runTask();
    expect(log).toEqual(['p1 drawn', 'p1 laid out']);
    expect(b!.skipped()).toBe(false);
  });

  it('asks for one slice task and one frame per switch, however many panes it moves', () => {
    const { slices, panes, tasks, frames } = setup();
    for (const p of panes) slices.moved(p);
    slices.moved(panes[0]!);
    expect(tasks).toHaveLength(1);
    expect(frames).toHaveLength(1);
  });
});
