// Quitting stops every agent: the first quit is held back while the core snapshots and stops them,
// then the app quits for real. A core that does not finish in time is killed; the next start sweeps what it left.
import type { App } from 'electron';
import { reportFailure } from '../core/public.js';
import type { CloseResult } from './core-process.js';

export interface QuitSteps {
  /** Before the agents are stopped: save the window's placement, hide the windows. */
  before(): void | Promise<void>;
  /** Ask the core to close, wait for it, kill it after the timeout. */
  stopCore(): Promise<CloseResult>;
}

export interface QuitSequence {
  /** True once the core has been stopped and the app is on its way out. */
  readonly done: boolean;
}

export function installQuitSequence(app: Pick<App, 'on' | 'quit'>, steps: QuitSteps): QuitSequence {
  let started = false;
  let done = false;
  app.on('before-quit', (event) => {
    if (done) return;
    event.preventDefault();
    if (started) return;
    started = true;
    // Both steps report their own failure; the outer catch is for a throw in app.quit itself, which would otherwise
    // leave the app neither quitting nor saying why.
    (async () => {
      try {
        await steps.before();
      } catch (err) {
        process.stderr.write(`baton: before quitting: ${err instanceof Error ? err.message : String(err)}\n`);
      }
      await steps.stopCore().catch((err: unknown) => {
        process.stderr.write(`baton: stopping the core: ${err instanceof Error ? err.message : String(err)}\n`);
      });
      done = true;
      app.quit();
    })().catch((err: unknown) => reportFailure('the quit sequence', err));
  });
  return {
    get done() {
      return done;
    },
  };
}
