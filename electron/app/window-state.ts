// The window's size, place and maximized state, kept across launches in userData/window-state.json (replaced
// atomically). A missing, torn or off-screen record gives the default placement, never an error.
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { BrowserWindow, Rectangle } from 'electron';
import { z } from 'zod';
import { reportFailure, writeFileAtomic } from '../core/public.js';

const int = z.number().int();
const stateSchema = z.strictObject({
  x: int.min(-100_000).max(100_000),
  y: int.min(-100_000).max(100_000),
  width: int.min(400).max(20_000),
  height: int.min(300).max(20_000),
  maximized: z.boolean(),
});
export type WindowState = z.infer<typeof stateSchema>;

export const DEFAULT_SIZE = { width: 1280, height: 820 } as const;

export const windowStateFile = (userData: string) => join(userData, 'window-state.json');

/** The saved placement if it is readable and at least partly on one of `displays` (work areas); else the default. */
export function loadWindowState(
  file: string,
  displays: readonly Rectangle[],
): { bounds: Partial<Rectangle> & { width: number; height: number }; maximized: boolean } {
  let saved: WindowState;
  try {
    saved = stateSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    return { bounds: { ...DEFAULT_SIZE }, maximized: false };
  }
  const visible = displays.some((d) => overlap(saved, d) >= 100 * 100);
  if (!visible) return { bounds: { width: saved.width, height: saved.height }, maximized: saved.maximized };
  return { bounds: { x: saved.x, y: saved.y, width: saved.width, height: saved.height }, maximized: saved.maximized };
}

export async function saveWindowState(file: string, state: WindowState): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await writeFileAtomic(file, `${JSON.stringify(state)}\n`, 0o600);
}

type TrackedWindow = Pick<BrowserWindow, 'on' | 'getNormalBounds' | 'isMaximized' | 'isDestroyed'>;

/** Saves the window's placement shortly after it moves or resizes, and at once when it closes. */
export function trackWindowState(win: TrackedWindow, file: string, debounceMs = 500): { flush(): Promise<void> } {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let last: WindowState | null = null;
  let writing: Promise<void> = Promise.resolve();
  const capture = () => {
    if (win.isDestroyed()) return;
    const b = win.getNormalBounds();
    last = {
      x: Math.round(b.x),
      y: Math.round(b.y),
      width: Math.round(b.width),
      height: Math.round(b.height),
      maximized: win.isMaximized(),
    };
  };
  const flush = async () => {
    if (timer) clearTimeout(timer);
    timer = null;
    const state = last;
    if (!state) return writing;
    last = null;
    writing = writing
      .then(() => saveWindowState(file, state))
      .catch((err: unknown) => {
        process.stderr.write(
          `baton: could not save the window's placement: ${err instanceof Error ? err.message : String(err)}\n`,
        );
      });
    return writing;
  };
  // flush reports a failed write itself; this catch keeps anything else from becoming an unhandled rejection.
  const save = () => {
    flush().catch((err: unknown) => reportFailure('saving the window placement', err));
  };
  const later = () => {
    capture();
    if (timer) clearTimeout(timer);
    timer = setTimeout(save, debounceMs);
  };
  win.on('resize', later);
  win.on('move', later);
  win.on('maximize', later);
  win.on('unmaximize', later);
  win.on('close', () => {
    capture();
    save();
  });
  return { flush };
}

function overlap(a: Rectangle, b: Rectangle): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}
