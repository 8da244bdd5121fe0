// xterm's own RenderDebouncer, loaded from the installed xterm's source, for tests that drive a pane's draws with
// animation frames run by hand (typed here: its imports resolve only inside xterm's tree, which the test's tsconfig
// leaves out).

export const FRAME_MS = 1000 / 60;

/** The shape of xterm's RenderDebouncer that the tests drive. */
export interface Debouncer {
  refresh(start: number | undefined, end: number | undefined, rowCount: number): void;
  dispose(): void;
}

export type DebouncerClass = new (
  render: (start: number, end: number) => void,
  coreBrowserService: {
    window: { requestAnimationFrame(run: () => void): number; cancelAnimationFrame(id: number): void };
  },
) => Debouncer;

const debouncerSource = '../../node_modules/@xterm/xterm/src/browser/RenderDebouncer.ts';
export const { RenderDebouncer } = (await import(debouncerSource)) as { RenderDebouncer: DebouncerClass };
