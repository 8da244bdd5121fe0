// Quitting the app asks once what to do with running agents, and can remember the answer (docs/desktop.md §1):
// "Keep agents running" (the default) leaves the background core and every agent running, so the next launch
// reattaches; "Stop all agents" has the core snapshot every run, stop every agent and end itself. The first quit is
// held back while this happens, then the app quits for real. With no agent running there is nothing to ask: the idle
// core is stopped.
import type { App, BrowserWindow, Dialog, MessageBoxOptions } from 'electron';
import type { RpcClient } from '../../shared/client.js';
import { reportFailure } from '../core/public.js';

export type QuitChoice = 'keep' | 'stop';

export interface QuitSteps {
  /** How many agents run and the remembered choice; null when there is no core to ask (nothing is stopped then). */
  survey(): Promise<{ liveAgents: number; remembered: QuitChoice | null } | null>;
  ask(liveAgents: number): Promise<{ choice: QuitChoice; remember: boolean }>;
  remember(choice: QuitChoice): Promise<void>;
  /** Once decided: save the window's placement, hide the windows. */
  before(): void | Promise<void>;
  /** Snapshot every run, stop every agent and the core; resolves when done (or given up waiting). */
  stopCore(): Promise<void>;
  /** Last: the relay and main's connection go. A kept core runs on. */
  detach(): void;
}

export interface QuitSequence {
  /** True once the app is on its way out. */
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
    // Every step reports its own failure and the quit goes on: an app that cannot quit is worse than any of them.
    (async () => {
      const choice = await decide(steps).catch((err: unknown) => {
        reportFailure('asking what to do with the agents at quit', err);
        return 'keep' as const; // Never stop agents the user did not agree to stop.
      });
      try {
        await steps.before();
      } catch (err) {
        reportFailure('before quitting', err);
      }
      if (choice === 'stop') await steps.stopCore().catch((err: unknown) => reportFailure('stopping the core', err));
      steps.detach();
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

/** A core that does not answer this soon is treated as gone: quitting must not hang on it. */
const SURVEY_TIMEOUT_MS = 5000;

async function decide(steps: QuitSteps): Promise<QuitChoice | 'nothing'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), SURVEY_TIMEOUT_MS)));
  const survey = await Promise.race([steps.survey(), timeout]).finally(() => clearTimeout(timer));
  if (!survey) return 'nothing';
  if (survey.liveAgents === 0) return 'stop';
  if (survey.remembered) return survey.remembered;
  const { choice, remember } = await steps.ask(survey.liveAgents);
  if (remember) await steps.remember(choice).catch((err: unknown) => reportFailure('remembering the quit choice', err));
  return choice;
}

export const KEEP_LABEL = 'Keep agents running';
export const STOP_LABEL = 'Stop all agents';

/** The question, as a native message box: Keep is the default (and what Escape answers). */
export function quitQuestion(liveAgents: number): MessageBoxOptions {
  const agents = `${liveAgents} agent${liveAgents === 1 ? '' : 's'}`;
  return {
    type: 'question',
    title: 'Quit Baton',
    message: `${agents} ${liveAgents === 1 ? 'is' : 'are'} running. Keep ${liveAgents === 1 ? 'it' : 'them'} running after Baton quits?`,
    detail:
      'Kept agents go on working in the background core; the next start of Baton shows them again, exactly where they are. ' +
      'Stopping snapshots every run first, so each can be resumed later.',
    buttons: [KEEP_LABEL, STOP_LABEL],
    defaultId: 0,
    cancelId: 0,
    checkboxLabel: 'Remember my choice',
    checkboxChecked: false,
    noLink: true,
  };
}

/** Asks with the native dialog (over the window, when there is one). */
export async function askWithDialog(
  dialog: Pick<Dialog, 'showMessageBox'>,
  owner: BrowserWindow | null,
  liveAgents: number,
) {
  const options = quitQuestion(liveAgents);
  const answer = owner ? await dialog.showMessageBox(owner, options) : await dialog.showMessageBox(options);
  return { choice: answer.response === 1 ? ('stop' as const) : ('keep' as const), remember: answer.checkboxChecked };
}

/** `core.shutdown` (snapshot, stop every agent, end the core), waited for up to `timeoutMs`; the core finishes alone after. */
export async function shutdownCore(client: RpcClient, timeoutMs: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
  const result = await Promise.race([client.call('core.shutdown', { resumeOnStart: false }), timeout]);
  clearTimeout(timer);
  if (result === 'timeout') {
    process.stderr.write(
      `baton: the core is still stopping its agents after ${Math.round(timeoutMs / 1000)} s; it finishes on its own\n`,
    );
  }
}
