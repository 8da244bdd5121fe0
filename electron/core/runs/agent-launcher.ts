// Starts one agent's CLI in a terminal and wires what the terminal reports: the session ids its follower sees, its
// exit, and a resume the vendor refused. Writes nothing: the supervisor records what happens (agent-supervisor.ts).
import type { RemotePlacement } from '../remote/remote-launcher.js';
import type { AgentAttention } from '../../../shared/contract.js';
import type { SpawnPlan, VendorAdapter, VendorEnv, SessionObservation } from '../vendors/adapter.js';
import { inheritedEnv } from '../vendors/kit/env.js';
import { findOnPath } from '../vendors/registry.js';
import type { PtyHost } from '../pty/pty-host.js';
import type { AgentTerminal, ExitInfo } from '../pty/terminal.js';
import type { InputStart } from './input-ready.js';

const DEFAULT_SIZE = { cols: 120, rows: 40 } as const;
/** A resume that dies this soon with one of the vendor's "no such session" texts failed to resume. */
const RESUME_FAILURE_WINDOW_MS = 5000;
/** The longest a spawn waits in the discovery gate for the one before it. */
const DISCOVERY_WAIT_MS = 30_000;

export interface LaunchHooks {
  onSession(seen: SessionObservation): void;
  onExit(exit: ExitInfo, resumeRejected: boolean): void;
  /** A remote agent's state, as its host's core knows it (remote/remote-attention.ts). */
  onAttention?(attention: AgentAttention): void;
  /** A remote agent's changed-file count in its worktree, as its host's core counts it. */
  onChanges?(files: number): void;
}

export interface LiveAgent {
  readonly terminal: AgentTerminal;
  readonly adapter: VendorAdapter;
  /** When its terminal started: `agent.send` waits, bounded, until the CLI takes input (input-ready.ts). */
  readonly start: InputStart;
  /** Set when Baton itself asked the agent to stop, so its exit is not reported as a crash. */
  stopRequested: boolean;
  stopFollowing(): void;
  /** A remote agent: where its host's core put it (its directory and worktree there; remote/remote-launcher.ts). */
  readonly placed?: RemotePlacement;
}

/** The CLI cannot be started (its binary is not on PATH): the message is for the user as it is. */
export class LaunchError extends Error {}

export class AgentLauncher {
  private readonly gate = new DiscoveryGate();

  constructor(
    private readonly ptyHost: PtyHost,
    private readonly env: VendorEnv,
  ) {}

  /**
   * Spawns the plan in `cwd`. A vendor whose new session can only be discovered after spawn, and that cannot tell
   * two new sessions in one directory apart, first waits until the previous spawn's id is seen (docs/architecture.md
   * §9, discovery gate). Throws `LaunchError` when the binary is missing, or what the spawn threw.
   */
  async launch(adapter: VendorAdapter, plan: SpawnPlan, cwd: string, hooks: LaunchHooks): Promise<LiveAgent> {
    const mustDiscover =
      plan.sessionId === null && adapter.sessionIdPattern !== null && !adapter.tellsConcurrentSessionsApart;
    const release = mustDiscover ? await this.gate.acquire(adapter.vendor, cwd) : () => {};
    try {
      return this.spawn(adapter, plan, cwd, {
        onSession: (seen) => {
          release();
          hooks.onSession(seen);
        },
        onExit: (exit, rejected) => {
          release();
          hooks.onExit(exit, rejected);
        },
      });
    } catch (err) {
      release();
      throw err;
    }
  }

  /** Lets the PTY host drop an ended terminal (its agent has a newer one, or its run is being deleted). */
  release(terminal: AgentTerminal): void {
    // A remote agent's terminal is this core's copy of its stream, not the PTY host's (docs/hosts.md).
    if (this.ptyHost.get(terminal.id)) this.ptyHost.release(terminal.id);
    else terminal.dispose();
  }

  private spawn(adapter: VendorAdapter, plan: SpawnPlan, cwd: string, hooks: LaunchHooks): LiveAgent {
    const [bin, ...rest] = plan.argv;
    const resolved = bin ? findOnPath(bin, this.env) : null;
    if (!bin || !resolved) {
      throw new LaunchError(
        `${adapter.displayName} was not found (looked for '${bin ?? adapter.defaultBin(this.env)}' on PATH); install it or set ${adapter.binEnvVar}`,
      );
    }
    const spawnedAt = Date.now();
    const terminal = this.ptyHost.spawn({
      argv: [resolved, ...rest],
      cwd,
      env: terminalEnv(this.env, plan.env),
      ...DEFAULT_SIZE,
    });
    if (plan.warning) terminal.notice(plan.warning);
    const live: LiveAgent = {
      terminal,
      adapter,
      start: { at: spawnedAt, offset: terminal.endOffset, resumed: plan.outcome === 'resumed' },
      stopRequested: false,
      stopFollowing: adapter.follow({ pid: terminal.pid, cwd, hints: plan.hints ?? {}, spawnedAt }, this.env, (seen) =>
        hooks.onSession(seen),
      ),
    };
    const resumeRefused = async (exitCode: number): Promise<boolean> => {
      if (plan.outcome !== 'resumed' || exitCode === 0 || Date.now() - spawnedAt >= RESUME_FAILURE_WINDOW_MS)
        return false;
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
}

/** Agents inherit Baton's environment (so a user can point a CLI elsewhere), as a real terminal would. */
function terminalEnv(base: VendorEnv, extra: Record<string, string>): Record<string, string> {
  return { ...inheritedEnv(base), TERM: 'xterm-256color', COLORTERM: 'truecolor', ...extra };
}

/**
 * Vendors whose session id can only be discovered after spawn: while one agent of such a vendor has no id yet, the
 * next one in the same directory waits, so two new sessions never race for one id.
 */
class DiscoveryGate {
  private readonly held = new Map<string, Promise<void>>();

  /** Waits for the directory to be free, then holds it until `release` is called (or DISCOVERY_WAIT_MS passes). */
  async acquire(vendor: string, cwd: string): Promise<() => void> {
    const key = `${vendor}\0${cwd}`;
    for (let current = this.held.get(key); current; current = this.held.get(key)) await current;
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, DISCOVERY_WAIT_MS);
      timer.unref();
      release = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.held.set(key, held);
    // `held` only ever resolves; the rejection handler keeps that a rule the code states, not an assumption.
    held.then(
      () => {
        if (this.held.get(key) === held) this.held.delete(key);
      },
      () => undefined,
    );
    return release;
  }
}
