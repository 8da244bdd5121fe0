// The xterm side of the WebGL pool (webgl-pool.ts): loading the WebGL renderer into a pane and giving it back.
import type { Terminal } from '@xterm/xterm';
import { WebglAddon } from '@xterm/addon-webgl';
import type { WebglLease } from './webgl-pool.js';
import { tuneXterm } from './xterm-tuning.js';

/** Contexts Baton's panes hold at most: half of Chromium's 16 a page, so a stray canvas never costs a pane its own. */
export const MAX_WEBGL_PANES = 8;

/**
 * WebGL for `term` (rendered inside `element`), or null where the GPU refuses. A lost context is reported at once:
 * the addon itself waits 3 s for a restore before it says so, and the pane would draw nothing meanwhile.
 */
export function loadWebgl(term: Terminal, element: HTMLElement, lost: () => void): WebglLease | null {
  let addon: WebglAddon;
  try {
    addon = new WebglAddon();
    term.loadAddon(addon);
  } catch {
    return null;
  }
  // webglcontextlost does not bubble: heard in the capture phase on the pane's own element.
  const onLost = () => lost();
  element.addEventListener('webglcontextlost', onLost, true);
  const loss = addon.onContextLoss(onLost);
  return {
    dispose: () => {
      element.removeEventListener('webglcontextlost', onLost, true);
      loss.dispose();
      addon.dispose();
      // The DOM renderer that takes over is a new one, with its own width cache: shared like the others'.
      tuneXterm(term);
      // The DOM renderer takes over: draw the whole screen now, not at the next output.
      term.refresh(0, term.rows - 1);
    },
  };
}
