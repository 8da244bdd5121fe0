// Watching live agents' worktrees for their changed-file count, announced as `agent.changes`.
import { reportFailure } from '../log.js';
import type { WorktreeRecord } from '../store/types.js';
import { git } from '../worktrees/git.js';
import type { Announce } from './views.js';
import { changedCount } from './worktree-git.js';

const WATCH_INTERVAL_MS = 2000;

export class ChangeWatcher {
  private readonly watchers = new Set<() => void>();

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly announce: Announce,
  ) {}

  /**
   * Watches a live agent's worktree: every ~2 s a `git status` (no index refresh, no lock); when it differs, the
   * changed-file count against the base (as `agent.changes` counts) is taken again, and announced when it changed.
   * The first count is always announced. The returned function stops it after one last count.
   */
  watch(runId: string, agentId: string, worktree: WorktreeRecord): () => void {
    let fingerprint: string | null = null;
    let last: number | null = null;
    let busy = false;
    let stopped = false;
    const tick = async (): Promise<void> => {
      if (busy) return;
      busy = true;
      try {
        const st = await git(['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=all'], {
          cwd: worktree.worktreePath,
          env: this.env,
          readOnly: true,
        });
        if (st.exitCode !== 0 || st.stdout === fingerprint) return;
        fingerprint = st.stdout;
        const files = await changedCount(this.env, worktree.worktreePath, worktree.baseCommit);
        if (files !== last && !stopped) {
          last = files;
          this.announce('agent.changes', { runId, agentId, files });
        }
      } finally {
        busy = false;
      }
    };
    const run = () => {
      tick().catch((err: unknown) => reportFailure(`watching the worktree of agent ${agentId}`, err));
    };
    const timer = setInterval(run, WATCH_INTERVAL_MS);
    timer.unref();
    run();
    const stop = () => {
      if (!this.watchers.delete(stop)) return;
      clearInterval(timer);
      // One last count: what the agent left behind when it ended.
      tick()
        .catch((err: unknown) => reportFailure(`counting the changes of agent ${agentId}`, err))
        .finally(() => (stopped = true));
    };
    this.watchers.add(stop);
    return stop;
  }

  /** Stops every watch (the core is closing). */
  close(): void {
    for (const stop of [...this.watchers]) stop();
  }
}
