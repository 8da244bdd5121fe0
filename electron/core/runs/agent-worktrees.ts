// Each agent in its own git worktree, seen from the runs (docs/worktrees.md, docs/architecture.md §5): what a
// run.start or agent.add asks for is checked before anything is created; a new agent's worktree is created (and its
// setup command run, if approved) before its CLI starts; a resumed agent's worktree is found again, re-created from
// its branch, or the agent fails with the reason; the worktrees of live agents are watched for their changed-file
// count. The `Worktrees` module underneath knows git and files only; this knows agents, runs and handles.
//
// Paths that came from a handle are a secret and may lead anywhere: a refusal names the field and the rule, never
// the path, and nothing is written at a path a handle chose unless Baton's own ledger already holds it.
import { stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { BatonError, type AgentSpec, type ErrorCode, type RequestTable, type Result } from '../../../shared/contract.js';
import { isBranchName, type HandleWorktree } from '../handle/codec.js';
import { reportFailure } from '../log.js';
import type { AgentRecord, WorktreeRecord } from '../store/types.js';
import { git, splitZ } from '../worktrees/git.js';
import { exists, isInside, realOrNull } from '../worktrees/paths.js';
import { listWorktrees } from '../worktrees/porcelain.js';
import { WorktreeError, type CreatedWorktree, type IncludeResult, type RepoInfo, type Worktrees } from '../worktrees/index.js';
import { conflict, failed, invalid } from './errors.js';
import type { RunReader } from './run-repository.js';
import type { Announce } from './views.js';

/** The worktree requests the host answers through this part (the agent.* ones go through the run service). */
export type WorktreeMethod = 'worktree.inspect' | 'worktree.approveSetup' | 'worktrees.orphans' | 'worktrees.cleanup';

/** What a run.start or agent.add asked for one agent, checked: everything `create` needs. */
export interface WorktreeIntent {
  repoRoot: string;
  /** The folder the user chose, relative to the top of its checkout ('' for the top). */
  subdir: string;
  existingBranch?: string;
  existingWorktree?: string;
  base?: string;
  /** Where `agent.merge` will merge: the base when it is a branch, else the checkout's branch. */
  baseBranch: string | null;
}

/** A repository root on this machine → where it is now (run.resume's `repoMap`). */
export type RepoMap = Readonly<Record<string, string>>;

/** Where a resumed agent's worktree is, without anything written (the preview, and the plan before the start). */
export type WorktreeAssessment =
  | { state: 'existing'; repoRoot: string; worktreePath: string; branch: string; cwd: string }
  | { state: 'recreate'; repoRoot: string; branch: string; subdir: string; samePath: boolean }
  | { state: 'failed'; reason: string }
  /** The handle names a path that leads elsewhere: the whole resume is refused (never with the path). */
  | { state: 'refused'; field: 'repoRoot' | 'worktreePath' | 'cwd'; reason: string };

/** A worktree made ready for an agent to start in it. */
export interface PreparedWorktree {
  worktree: WorktreeRecord;
  cwd: string;
  /** Lines for the agent's pane, written before its CLI's first output (what was created, copied, set up). */
  notices: string[];
  /** Something the user must know (a setup command not run or failed, a folder not in the worktree). */
  warning: string | null;
  /** For the resume outcome: the worktree was re-created. */
  message: string | null;
}

const WATCH_INTERVAL_MS = 2000;
const SETUP_LINES_SHOWN = 30;
const MAX_BRANCHES = 200;

export class AgentWorktrees {
  private readonly watchers = new Set<() => void>();

  constructor(
    readonly worktrees: Worktrees,
    private readonly runs: RunReader,
    private readonly env: NodeJS.ProcessEnv,
    private readonly announce: Announce,
  ) {}

  readonly requests: RequestTable<WorktreeMethod> = {
    'worktree.inspect': async ({ cwd }) => {
      const info = await this.worktrees.inspect(cwd).catch((err: unknown) => {
        throw asBatonError(err);
      });
      // A repository without commits cannot give a worktree: for the dialog it is as good as none.
      if (!info || info.headCommit === null) return null;
      let setup: NonNullable<Result<'worktree.inspect'>>['setup'] = null;
      try {
        const command = await this.worktrees.setupCommandOf(info.repoRoot);
        if (command) setup = { command: command.argv, hash: command.hash, approved: await this.worktrees.isApproved(command.hash) };
      } catch {
        // A setup file that cannot be used is reported when a worktree is made (a warning in the agent's pane).
      }
      return { repoRoot: info.repoRoot, currentBranch: info.currentBranch, headCommit: info.headCommit, branches: await this.branches(info.repoRoot), setup };
    },
    'worktree.approveSetup': async ({ repoRoot, hash }) => {
      let command;
      try {
        command = await this.worktrees.setupCommandOf(repoRoot);
      } catch (err) {
        throw asBatonError(err, 'repoRoot');
      }
      if (!command) throw invalid('this repository has no setup command (.baton/setup.json)', 'repoRoot');
      if (command.hash !== hash) throw conflict('the setup command of this repository is not the one shown (it changed, or the hash is wrong): look at it again, then approve it');
      await this.worktrees.approve(hash);
      return {};
    },
    'worktrees.orphans': async () => {
      const orphans = await this.worktrees.orphans(this.claimedPaths());
      return Promise.all(
        orphans.map(async (o) => ({ worktreePath: o.path, repoRoot: o.repoRoot, branch: o.branch, dirty: o.exists ? (await this.changedCount(o.path)) > 0 : false })),
      );
    },
    'worktrees.cleanup': async ({ paths }) => {
      const claimed = this.claimants();
      const out: Result<'worktrees.cleanup'> = [];
      for (const worktreePath of paths) {
        const owner = claimed.get(worktreePath);
        if (owner) {
          out.push({ worktreePath, removed: false, message: `agent '${owner.label}' of run '${owner.run}' works there: remove it with that agent (or delete the run with its worktrees)` });
          continue;
        }
        const [done] = await this.worktrees.cleanup([worktreePath]);
        if (!done || !done.ok) out.push({ worktreePath, removed: false, message: done && !done.ok ? done.error : 'not removed' });
        else out.push({ worktreePath, removed: true, message: removedMessage(done.result) });
      }
      return out;
    },
  };

  /**
   * What run.start or agent.add asked for one agent, checked before the run changes: a repository where a
   * worktree is wanted, an existing branch, a base that is a commit. The user typed `cwd` (its real path is
   * `realCwd`), so an error may name it. null: the agent works in its directory as it is.
   */
  async check(spec: AgentSpec, realCwd: string, field: string, who: string): Promise<WorktreeIntent | null> {
    const mode = spec.worktree ?? 'none';
    if (mode === 'none') {
      if (spec.base !== undefined) throw invalid('a base is for a new worktree: ask for worktree "new" too', `${field}.base`);
      return null;
    }
    let info: RepoInfo | null;
    try {
      info = await this.worktrees.inspect(realCwd);
    } catch (err) {
      throw asBatonError(err, `${field}.worktree`);
    }
    if (!info) {
      throw new BatonError({
        code: 'invalid',
        field: `${field}.worktree`,
        message: `${who}: ${spec.cwd} is not inside a git repository, so it cannot have a worktree of its own: choose a folder of a git checkout, or start it without a worktree`,
      });
    }
    if (info.headCommit === null) {
      throw new BatonError({ code: 'invalid', field: `${field}.worktree`, message: `${who}: the repository at ${info.repoRoot} has no commits yet: make a first commit, then start the agent` });
    }
    const intent: WorktreeIntent = { repoRoot: info.repoRoot, subdir: relative(info.repoRoot, realCwd), baseBranch: info.currentBranch };
    if (typeof mode === 'object' && 'existingBranch' in mode) {
      if (spec.base !== undefined) throw invalid('an existing branch is checked out as it is: it takes no base', `${field}.base`);
      if (!isBranchName(mode.existingBranch) || !(await this.branchExists(info.repoRoot, mode.existingBranch))) {
        throw invalid(`${who}: there is no branch ${JSON.stringify(mode.existingBranch.slice(0, 100))} in ${info.repoRoot}`, `${field}.worktree.existingBranch`);
      }
      intent.existingBranch = mode.existingBranch;
    } else if (typeof mode === 'object' && 'existingWorktree' in mode) {
      const real = await realOrNull(mode.existingWorktree);
      const list = await listWorktrees({ cwd: info.repoRoot, env: this.env }).catch(() => []);
      const listed = real !== null && (await Promise.all(list.map(async (w) => !w.bare && (w.path === real || (await realOrNull(w.path)) === real)))).some(Boolean);
      if (!listed) {
        throw invalid(`${who}: ${mode.existingWorktree} is not a worktree of the repository at ${info.repoRoot} (git worktree list does not show it)`, `${field}.worktree.existingWorktree`);
      }
      intent.existingWorktree = mode.existingWorktree;
    }
    if (spec.base !== undefined) {
      const commit = await this.commitOf(info.repoRoot, spec.base);
      if (commit === null) throw invalid(`${who}: base ${JSON.stringify(spec.base.slice(0, 100))} is not a branch or commit of ${info.repoRoot}`, `${field}.base`);
      intent.base = spec.base;
      intent.baseBranch = isBranchName(spec.base) && (await this.branchExists(info.repoRoot, spec.base)) ? spec.base : null;
    }
    return intent;
  }

  /** A new agent's worktree: created (or an existing one taken), its include files copied, its setup run if approved. */
  async create(runName: string, label: string, intent: WorktreeIntent): Promise<PreparedWorktree> {
    let made: CreatedWorktree;
    try {
      made = await this.worktrees.create({
        repoRoot: intent.repoRoot,
        runName,
        label,
        ...(intent.base !== undefined ? { base: intent.base } : {}),
        ...(intent.existingBranch !== undefined ? { existingBranch: intent.existingBranch } : {}),
        ...(intent.existingWorktree !== undefined ? { existingWorktree: intent.existingWorktree } : {}),
      });
    } catch (err) {
      throw asBatonError(err);
    }
    if (made.branch === null) throw conflict(`the worktree ${made.worktreePath} has a detached HEAD: check out a branch there first (git switch <branch>)`);
    const worktree: WorktreeRecord = {
      repoRoot: made.repoRoot,
      worktreePath: made.worktreePath,
      branch: made.branch,
      baseCommit: made.baseCommit,
      created: made.created,
      baseBranch: intent.baseBranch === made.branch ? null : intent.baseBranch,
    };
    const notices = [
      made.created
        ? `worktree ${made.worktreePath} on new branch ${made.branch} (from ${made.baseCommit.slice(0, 8)})`
        : `working in the existing worktree ${made.worktreePath} (branch ${made.branch})`,
      ...includeNotices(made.included),
    ];
    const where = await this.cwdIn(made.worktreePath, intent.subdir);
    const warnings = where.warning ? [where.warning] : [];
    if (made.created) {
      const setup = await this.setup(made.worktreePath, made.repoRoot);
      notices.push(...setup.notices);
      if (setup.warning) warnings.push(setup.warning);
    }
    return { worktree, cwd: where.cwd, notices, warning: warnings.length > 0 ? warnings.join(' ') : null, message: null };
  }

  /**
   * Where a resumed agent's worktree is, writing nothing: still there (at its path, or wherever its branch is
   * checked out now), to be re-created from its branch, or gone with its branch (failed). `cwd` is the agent's
   * directory inside the recorded worktree. A path that exists but leads elsewhere is `refused`.
   */
  async assess(ref: HandleWorktree, cwd: string, repoMap?: RepoMap): Promise<WorktreeAssessment> {
    const rel = relative(ref.worktreePath, cwd);
    const subdir = rel.startsWith('..') || rel.startsWith('/') ? '' : rel;
    const mapped = repoMap?.[ref.repoRoot];
    const info = await this.worktrees.inspect(mapped ?? ref.repoRoot).catch(() => null);
    if (!info) {
      return {
        state: 'failed',
        reason:
          mapped === undefined
            ? 'its repository is gone (or is no longer a git repository): if it is elsewhere on this machine, point to it with repoMap'
            : 'the directory repoMap gives for its repository is not inside a git repository',
      };
    }
    const list = await listWorktrees({ cwd: info.repoRoot, env: this.env }).catch(() => []);
    if (mapped === undefined && (await exists(ref.worktreePath))) {
      const real = await realOrNull(ref.worktreePath);
      if (real !== ref.worktreePath) return { state: 'refused', field: 'worktreePath', reason: 'the worktree path leads elsewhere (a symbolic link on the way): refused' };
      let listing;
      for (const w of list) if (!w.bare && (w.path === real || (await realOrNull(w.path)) === real)) listing = w;
      if (!listing) return { state: 'refused', field: 'worktreePath', reason: "the worktree path is not a worktree of the agent's repository: refused" };
      const inside = await this.existingCwd(real, subdir);
      if (inside === null) return { state: 'refused', field: 'cwd', reason: "the agent's directory leads out of its worktree (a symbolic link): refused" };
      return { state: 'existing', repoRoot: info.repoRoot, worktreePath: real, branch: listing.branch ?? ref.branch, cwd: inside };
    }
    // Moved (git worktree move), or the repository is elsewhere now: wherever the branch is checked out.
    for (const w of list) {
      if (w.bare || w.prunable || w.branch !== ref.branch) continue;
      const real = await realOrNull(w.path);
      if (real === null) continue;
      const inside = (await this.existingCwd(real, subdir)) ?? real;
      return { state: 'existing', repoRoot: info.repoRoot, worktreePath: real, branch: ref.branch, cwd: inside };
    }
    if (!isBranchName(ref.branch) || !(await this.branchExists(info.repoRoot, ref.branch))) {
      return { state: 'failed', reason: `its worktree and its branch ${ref.branch} are both gone${mapped === undefined ? '' : ' (in the repository repoMap gives)'}: nothing to resume from` };
    }
    // Re-created where it was only when Baton's ledger says it made it there; anywhere else a new one is made.
    const owned = mapped === undefined && (await this.worktrees.listOwned()).some((e) => e.path === ref.worktreePath && e.commonDir === info.commonDir);
    return { state: 'recreate', repoRoot: info.repoRoot, branch: ref.branch, subdir, samePath: owned };
  }

  /**
   * Before a resumed (or restarted) agent starts: its worktree as `assess` finds it, re-created from its branch when
   * its directory is gone. Throws a BatonError with the reason when it cannot be brought back.
   */
  async reopen(runName: string, agent: AgentRecord & { worktree: WorktreeRecord }, repoMap?: RepoMap): Promise<PreparedWorktree> {
    const recorded = agent.worktree;
    const found = await this.assess(recorded, agent.cwd, repoMap);
    if (found.state === 'failed' || found.state === 'refused') throw failed(`its worktree cannot be used: ${found.reason}`);
    const owned = new Set((await this.worktrees.listOwned()).map((e) => e.path));
    if (found.state === 'existing') {
      // A repository that moved leaves its worktrees pointing at where it was: git repairs both sides' links.
      const linked = await git(['rev-parse', '--git-common-dir'], { cwd: found.worktreePath, env: this.env, readOnly: true });
      if (linked.exitCode !== 0) {
        const repaired = await git(['worktree', 'repair', found.worktreePath], { cwd: found.repoRoot, env: this.env });
        if (repaired.exitCode !== 0) throw failed(`its worktree could not be reconnected to the repository that moved: ${repaired.stderr.trim().split('\n')[0] ?? ''}`);
      }
      const worktree = { ...recorded, repoRoot: found.repoRoot, worktreePath: found.worktreePath, branch: found.branch, created: recorded.created || owned.has(found.worktreePath) };
      return { worktree, cwd: found.cwd, notices: [], warning: null, message: null };
    }
    let path: string;
    let included: IncludeResult;
    try {
      if (found.samePath) {
        const again = await this.worktrees.reopen({ repoRoot: found.repoRoot, worktreePath: recorded.worktreePath, branch: found.branch });
        if (again.outcome === 'failed') throw failed(`its worktree could not be re-created: ${again.reason}`);
        path = again.worktreePath;
        included = again.outcome === 'recreated' ? again.included : { copied: [], skipped: [] };
      } else {
        const made = await this.worktrees.create({ repoRoot: found.repoRoot, runName, label: agent.label, existingBranch: found.branch });
        path = made.worktreePath;
        included = made.included;
      }
    } catch (err) {
      throw asBatonError(err);
    }
    const worktree: WorktreeRecord = { ...recorded, repoRoot: found.repoRoot, worktreePath: path, branch: found.branch, created: true };
    const message = `its worktree was gone: re-created from branch ${found.branch}${found.samePath ? '' : ' in a new folder'}`;
    const notices = [`${message} (${path})`, ...includeNotices(included)];
    const where = await this.cwdIn(path, found.subdir);
    const setup = await this.setup(path, found.repoRoot);
    notices.push(...setup.notices);
    const warning = [where.warning, setup.warning].filter((w) => w !== null).join(' ');
    return { worktree, cwd: where.cwd, notices, warning: warning === '' ? null : warning, message };
  }

  async changes(worktree: WorktreeRecord): Promise<Result<'agent.changes'>> {
    if (!(await exists(worktree.worktreePath))) throw conflict(`its worktree ${worktree.worktreePath} is gone: resuming the agent re-creates it from branch ${worktree.branch}`);
    try {
      const c = await this.worktrees.changes(worktree.worktreePath, worktree.baseCommit);
      return { branch: worktree.branch, baseCommit: worktree.baseCommit, files: c.filesChanged, insertions: c.insertions, deletions: c.deletions, stat: c.stat, untracked: c.untracked, patch: c.patch, truncated: c.truncated };
    } catch (err) {
      throw asBatonError(err);
    }
  }

  /** The agent's branch into the base branch its worktree was made from, in the checkout that has it. */
  async merge(worktree: WorktreeRecord): Promise<Result<'agent.merge'>> {
    try {
      let into = worktree.baseBranch;
      if (into === null) {
        into = (await this.worktrees.inspect(worktree.repoRoot))?.currentBranch ?? null;
        if (into === null) throw conflict(`there is no branch to merge ${worktree.branch} into: ${worktree.repoRoot} has a detached HEAD (check out the branch to merge into, then merge again)`);
      }
      const r = await this.worktrees.merge({ repoRoot: worktree.repoRoot, branch: worktree.branch, into });
      if (!r.merged) return { merged: false, into, conflicts: r.conflicts, message: r.message };
      const done = r.alreadyUpToDate ? `${into} already has every commit of ${worktree.branch}: nothing to merge` : `merged ${worktree.branch} into ${into} (${r.commit.slice(0, 8)})`;
      const left = r.uncommittedInWorktree ? "; the agent's worktree also has uncommitted changes, which a merge does not carry: commit them there and merge again" : '';
      return { merged: true, into, conflicts: [], message: done + left };
    } catch (err) {
      throw asBatonError(err);
    }
  }

  async remove(worktree: WorktreeRecord, force: boolean, deleteBranch: boolean): Promise<Result<'agent.removeWorktree'>> {
    if (!worktree.created) throw conflict(`Baton did not create the worktree ${worktree.worktreePath} (it was there before): it leaves it alone; remove it yourself with git worktree remove`);
    try {
      const r = await this.worktrees.remove({ worktreePath: worktree.worktreePath, force, deleteUnmergedBranch: deleteBranch });
      return { removed: true, branchKept: !r.branchDeleted, message: removedMessage(r) };
    } catch (err) {
      throw asBatonError(err);
    }
  }

  /**
   * For run.delete with removeWorktrees: refuses (before anything is stopped) while a worktree Baton created for the
   * run has uncommitted changes, since deleting the run would then leave or lose them.
   */
  async checkRemovable(agents: readonly AgentRecord[]): Promise<void> {
    for (const a of agents) {
      if (!a.worktree?.created || !(await exists(a.worktree.worktreePath))) continue;
      const n = await this.uncommittedCount(a.worktree.worktreePath);
      if (n > 0) {
        throw conflict(
          `agent '${a.label}' has uncommitted changes in its worktree ${a.worktree.worktreePath} (${n} file${n === 1 ? '' : 's'}): commit them, or remove that worktree with force first; nothing was deleted`,
        );
      }
    }
  }

  /** Removes the worktrees Baton created for these agents (never with force; unmerged branches are kept). */
  async removeAll(agents: readonly AgentRecord[]): Promise<string[]> {
    const kept: string[] = [];
    for (const a of agents) {
      if (!a.worktree?.created) continue;
      try {
        await this.worktrees.remove({ worktreePath: a.worktree.worktreePath });
      } catch (err) {
        kept.push(`${a.label}: ${(err as Error).message}`);
      }
    }
    return kept;
  }

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
        const st = await git(['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=all'], { cwd: worktree.worktreePath, env: this.env, readOnly: true });
        if (st.exitCode !== 0 || st.stdout === fingerprint) return;
        fingerprint = st.stdout;
        const files = await this.changedCount(worktree.worktreePath, worktree.baseCommit);
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

  // ——— helpers ———

  /** The setup command of the repository, run in the new worktree only if the user approved it. */
  private async setup(worktreePath: string, repoRoot: string): Promise<{ notices: string[]; warning: string | null }> {
    let command;
    try {
      command = await this.worktrees.setupCommandOf(repoRoot);
    } catch (err) {
      return { notices: [], warning: `the setup command was not run: ${(err as Error).message}` };
    }
    if (!command) return { notices: [], warning: null };
    const shown = command.argv.join(' ');
    if (!(await this.worktrees.isApproved(command.hash))) {
      return {
        notices: [],
        warning: `the setup command (${shown}) of ${repoRoot} was not run: it has not been approved. Approve it in the New run dialog, or with: baton worktrees --approve-setup ${repoRoot}`,
      };
    }
    const started = Date.now();
    try {
      const ran = await this.worktrees.runSetup(worktreePath);
      if (!ran) return { notices: [], warning: null };
      const lines = ran.output.split(/\r?\n/).filter((l) => l.trim() !== '');
      const shownLines = lines.slice(-SETUP_LINES_SHOWN).map((l) => `setup | ${l}`);
      const took = `${((Date.now() - started) / 1000).toFixed(1)} s`;
      const head = `setup: ${shown}${lines.length > SETUP_LINES_SHOWN ? ` (last ${SETUP_LINES_SHOWN} lines of its output)` : ''}`;
      if (ran.ok) return { notices: [head, ...shownLines, `setup finished in ${took}`], warning: null };
      const why = ran.timedOut ? `timed out after ${took}` : `failed with exit code ${String(ran.exitCode)}`;
      return { notices: [head, ...shownLines], warning: `the setup command (${shown}) ${why}; the agent started anyway` };
    } catch (err) {
      return { notices: [], warning: `the setup command (${shown}) was not run: ${(err as Error).message}` };
    }
  }

  /** The agent's directory in the worktree: the same folder as in the checkout, or the top when it is not there. */
  private async cwdIn(worktreePath: string, subdir: string): Promise<{ cwd: string; warning: string | null }> {
    if (subdir === '') return { cwd: worktreePath, warning: null };
    const inside = await this.existingCwd(worktreePath, subdir);
    if (inside !== null) return { cwd: inside, warning: null };
    return { cwd: worktreePath, warning: `the folder ${subdir} is not in the worktree (it is not committed): the agent starts at the top of the worktree` };
  }

  /** `<worktree>/<subdir>` by its real path when it is a directory that stays inside the worktree; else null. */
  private async existingCwd(worktreePath: string, subdir: string): Promise<string | null> {
    const real = await realOrNull(join(worktreePath, subdir));
    if (real === null || !isInside(worktreePath, real)) return null;
    return (await stat(real).then((s) => s.isDirectory(), () => false)) ? real : null;
  }

  /** Every worktree path a run's agent records (any run, live or not): what cleanup leaves alone. */
  private claimedPaths(): Set<string> {
    return new Set(this.claimants().keys());
  }

  private claimants(): Map<string, { run: string; label: string }> {
    const out = new Map<string, { run: string; label: string }>();
    for (const run of this.runs.list()) for (const a of run.agents) if (a.worktree) out.set(a.worktree.worktreePath, { run: run.name, label: a.label });
    return out;
  }

  /** Files that differ from `baseCommit` (committed or not) plus untracked ones; without a base, uncommitted ones. */
  private async changedCount(dir: string, baseCommit?: string): Promise<number> {
    if (baseCommit === undefined) return this.uncommittedCount(dir);
    const opts = { cwd: dir, env: this.env, readOnly: true };
    const tracked = await git(['diff', '--name-only', '-z', '--no-ext-diff', '--no-textconv', baseCommit, '--'], opts);
    const others = await git(['ls-files', '-z', '--others', '--exclude-standard'], opts);
    if (tracked.exitCode !== 0 || others.exitCode !== 0) throw new Error(`git could not read the changes in ${dir}`);
    return splitZ(tracked.stdout).length + splitZ(others.stdout).length;
  }

  private async uncommittedCount(dir: string): Promise<number> {
    const st = await git(['status', '--porcelain=v1', '-z', '--untracked-files=all'], { cwd: dir, env: this.env, readOnly: true });
    if (st.exitCode !== 0) return 0;
    let n = 0;
    const parts = splitZ(st.stdout);
    for (let i = 0; i < parts.length; i++) {
      n += 1;
      const p = parts[i] ?? '';
      if (p[0] === 'R' || p[0] === 'C') i += 1;
    }
    return n;
  }

  private async branches(repoRoot: string): Promise<string[]> {
    const r = await git(['for-each-ref', '--sort=-committerdate', `--count=${MAX_BRANCHES}`, '--format=%(refname)', 'refs/heads'], { cwd: repoRoot, env: this.env, readOnly: true });
    if (r.exitCode !== 0) return [];
    return r.stdout
      .split('\n')
      .filter((l) => l.startsWith('refs/heads/'))
      .map((l) => l.slice('refs/heads/'.length));
  }

  private async branchExists(repoRoot: string, name: string): Promise<boolean> {
    return (await git(['show-ref', '--verify', '-q', `refs/heads/${name}`], { cwd: repoRoot, env: this.env, readOnly: true })).exitCode === 0;
  }

  private async commitOf(repoRoot: string, rev: string): Promise<string | null> {
    if (rev.startsWith('-') || /[\0\s]/.test(rev)) return null;
    const r = await git(['rev-parse', '-q', '--verify', `${rev}^{commit}`], { cwd: repoRoot, env: this.env, readOnly: true });
    return r.exitCode === 0 ? r.stdout.trim() : null;
  }
}

function includeNotices(included: IncludeResult): string[] {
  const out: string[] = [];
  if (included.copied.length > 0) {
    const names = included.copied.slice(0, 5).join(', ');
    out.push(`copied ${included.copied.length} file${included.copied.length === 1 ? '' : 's'} named by .worktreeinclude: ${names}${included.copied.length > 5 ? ', …' : ''}`);
  }
  for (const s of included.skipped.slice(0, 5)) out.push(`not copied: ${s.path}: ${s.reason}`);
  return out;
}

function removedMessage(r: { worktreePath: string; branch: string; branchDeleted: boolean; branchKept?: string }): string {
  return `removed the worktree ${r.worktreePath}; ${r.branchDeleted ? `deleted branch ${r.branch}` : `kept branch ${r.branch}: ${r.branchKept ?? 'kept'}`}`;
}

const CODES: Record<WorktreeError['code'], ErrorCode> = {
  'not-a-repo': 'invalid',
  invalid: 'invalid',
  escape: 'invalid',
  dirty: 'conflict',
  conflict: 'conflict',
  'not-owned': 'conflict',
  'not-approved': 'conflict',
  failed: 'failed',
};

/** A worktree failure as the contract's error; anything else as it is. */
export function asBatonError(err: unknown, field?: string): Error {
  if (err instanceof WorktreeError) {
    const code = CODES[err.code];
    return new BatonError(field === undefined ? { code, message: err.message } : { code, message: `${field}: ${err.message}`, field });
  }
  return err instanceof Error ? err : new Error(String(err));
}
