// Starts one agent's CLI in a terminal and wires what follows: session ids seen, exit, resume failure.
import type { SpawnPlan, VendorAdapter, VendorEnv, SessionObservation } from '../vendors/adapter.js';
import { inheritedEnv } from '../vendors/kit/env.js';
import { findOnPath } from '../vendors/registry.js';
import type { PtyHost } from '../pty/pty-host.js';
import type { ExitInfo, Terminal } from '../pty/terminal.js';

export const DEFAULT_SIZE = { cols: 120, rows: 40 } as const;
/** A resume that dies this soon with one of the vendor's "no such session" texts failed to resume. */
const RESUME_FAILURE_WINDOW_MS = 5000;

export interface LaunchHooks {
  onSession(seen: SessionObservation): void;
  onExit(exit: ExitInfo, resumeRejected: boolean): void;
}

export interface LiveAgent {
  readonly terminal: Terminal;
  readonly adapter: VendorAdapter;
  /** Set when Baton itself asked the agent to stop, so its exit is not reported as a crash. */
  stopRequested: boolean;
  stopFollowing(): void;
}

export class LaunchError extends Error {}

export function launchAgent(
  ptyHost: PtyHost,
  adapter: VendorAdapter,
  plan: SpawnPlan,
  cwd: string,
  baseEnv: VendorEnv,
  hooks: LaunchHooks,
  size: { cols: number; rows: number } = DEFAULT_SIZE,
): LiveAgent {
  const [bin, ...rest] = plan.argv;
  const resolved = bin ? findOnPath(bin, baseEnv) : null;
  if (!bin || !resolved) {
    throw new LaunchError(
      `${adapter.displayName} was not found (looked for '${bin ?? adapter.defaultBin(baseEnv)}' on PATH); install it or set ${adapter.binEnvVar}`,
    );
  }
  const env = terminalEnv(baseEnv, plan.env);
  const spawnedAt = Date.now();
  const terminal = ptyHost.spawn({ argv: [resolved, ...rest], cwd, env, cols: size.cols, rows: size.rows });
  if (plan.warning) terminal.notice(plan.warning);
  const live: LiveAgent = {
    terminal,
    adapter,
    stopRequested: false,
    stopFollowing: adapter.follow({ pid: terminal.pid, cwd, hints: plan.hints ?? {}, spawnedAt }, baseEnv, (seen) => hooks.onSession(seen)),
  };
  const resumeRefused = async (exitCode: number): Promise<boolean> => {
    if (plan.outcome !== 'resumed' || exitCode === 0 || Date.now() - spawnedAt >= RESUME_FAILURE_WINDOW_MS) return false;
    const { text } = await terminal.capture();
    return adapter.resumeErrorTexts.some((re) => re.test(text));
  };
  terminal.onExit((exit) => {
    live.stopFollowing();
    // An exit listener's rejection would end the process; a screen that cannot be read only means no refusal seen.
    resumeRefused(exit.exitCode).then(
      (rejected) => hooks.onExit(exit, rejected),
      () => hooks.onExit(exit, false),
    );
  });
  return live;
}

/** Agents inherit Baton's environment (so a user can point a CLI elsewhere), as a real terminal would. */
function terminalEnv(base: VendorEnv, extra: Record<string, string>): Record<string, string> {
  return { ...inheritedEnv(base), TERM: 'xterm-256color', COLORTERM: 'truecolor', ...extra };
}
