// Each agent in its own git worktree (docs/worktrees.md). A self-contained part of the core: it knows git and the
// file system, not runs or terminals. What Baton created is recorded in a ledger in the data directory, and only
// those worktrees are ever removed or cleaned up; a worktree or branch the user made is used, never deleted.
import { chmod, lstat, mkdir, realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { changesOf, DEFAULT_MAX_PATCH, type Changes } from './changes.js';
import { WorktreeError } from './errors.js';
import { git, gitFailure, gitOk, splitZ } from './git.js';
import { copyIncluded, INCLUDE_FILE, includedFiles, type IncludeResult } from './include.js';
import { COMMIT, Ledger, type LedgerEntry } from './ledger.js';
import { namesFor, plausibleBranch, sanitiseSegment } from './names.js';
import { checkedAbsolute, ensureChildDir, exists, isInside, isSymlink, realOrNull } from './paths.js';
import { listWorktrees, type WorktreeListing } from './porcelain.js';
import { Approvals, readSetupCommand, runArgv, type SetupCommand, type SetupRun } from './setup.js';

export interface WorktreesOptions {
  /** Baton's data directory: the ledger (worktrees.json) and the setup approvals (worktree-approvals.json). */
  dataDir: string;
  /** Where new worktrees go, outside any repository. Default `~/.baton/worktrees`. */
  baseDir?: string;
  /** The environment git and setup commands inherit. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

export interface RepoInfo {
  /** The top of the checkout `dir` is in (real path): the main checkout or a linked worktree. */
  repoRoot: string;
  /** null in a repository without commits. */
  headCommit: string | null;
  /** null when HEAD is detached. */
  currentBranch: string | null;
  /** `repoRoot` is a linked worktree, not the main checkout. */
  isWorktree: boolean;
  /** The main checkout (null for a bare repository with linked worktrees). */
  mainWorktree: string | null;
  /** The repository's common git directory (real path): what identifies the repository. */
  commonDir: string;
}

export interface CreateRequest {
  /** A directory inside the checkout to branch from (the user's choice for the agent). */
  repoRoot: string;
  runName: string;
  label: string;
  /** Branch or commit to start from. Default: the checkout's current HEAD. */
  base?: string;
  /** Check out this existing branch in a new worktree instead of creating `baton/<run>/<label>`. */
  existingBranch?: string;
  /** Use this existing worktree of the repository as it is (nothing is created, copied or recorded). */
  existingWorktree?: string;
}

export interface CreatedWorktree {
  /** The checkout the request named (real path): where `.worktreeinclude` came from, and where merges go. */
  repoRoot: string;
  worktreePath: string;
  /** null only for a reused worktree whose HEAD is detached. */
  branch: string | null;
  baseCommit: string;
  /** Baton created this worktree (and so may remove it); false for a reused one. */
  created: boolean;
  /** Baton created the branch too (false: an existing branch, which Baton never deletes). */
  branchCreated: boolean;
  /** What `.worktreeinclude` copied (empty for a reused worktree). */
  included: IncludeResult;
}

export interface MergeRequest {
  repoRoot: string;
  branch: string;
  /** The branch to merge into. Default: the branch checked out in `repoRoot`. */
  into?: string;
}

export type MergeResult =
  | {
      merged: true;
      /** The merge commit (or HEAD when there was nothing to merge). */
      commit: string;
      alreadyUpToDate: boolean;
      /** The branch's worktree has uncommitted changes, which a merge of the branch does not include. */
      uncommittedInWorktree: boolean;
    }
  | { merged: false; conflicts: string[]; message: string };

export interface RemoveRequest {
  worktreePath: string;
  /** Discard uncommitted changes (the user confirmed). */
  force?: boolean;
  /** Delete Baton's branch even when it has commits not merged into the checkout's HEAD. */
  deleteUnmergedBranch?: boolean;
}

export interface RemoveResult {
  worktreePath: string;
  branch: string;
  branchDeleted: boolean;
  /** Why the branch was kept. */
  branchKept?: string;
}

export interface OwnedWorktree extends LedgerEntry {
  /** Its directory is still there. */
  exists: boolean;
}

export type CleanupResult = { worktreePath: string; ok: true; result: RemoveResult } | { worktreePath: string; ok: false; error: string };

export interface ReopenRequest {
  repoRoot: string;
  worktreePath: string;
  branch: string;
}

export type ReopenResult =
  | { outcome: 'existing'; worktreePath: string; branch: string | null }
  | { outcome: 'recreated'; worktreePath: string; branch: string; included: IncludeResult }
  | { outcome: 'failed'; reason: string };

const MAX_CLASH = 100;
const MAX_NAME = 200;

export function defaultBaseDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.HOME ?? homedir(), '.baton', 'worktrees');
}

export class Worktrees {
  private readonly env: NodeJS.ProcessEnv;
  private readonly baseDir: string;
  private readonly ledger: Ledger;
  private readonly approvals: Approvals;
  /** Creations one at a time: two agents of one run must not both pick the same free name. */
  private serial: Promise<unknown> = Promise.resolve();

  constructor(options: WorktreesOptions) {
    this.env = options.env ?? process.env;
    this.baseDir = checkedAbsolute(options.baseDir ?? defaultBaseDir(this.env), 'the worktree base directory');
    this.ledger = new Ledger(checkedAbsolute(options.dataDir, 'the data directory'));
    this.approvals = new Approvals(options.dataDir);
  }

  /** Is `dir` inside a git checkout? null when it is not (or is a bare repository, or does not exist). */
  async inspect(dir: string): Promise<RepoInfo | null> {
    const real = await realOrNull(checkedAbsolute(dir, 'the directory'));
    if (real === null || !(await stat(real)).isDirectory()) return null;
    const opts = { cwd: real, env: this.env, readOnly: true };
    const top = await git(['rev-parse', '--show-toplevel', '--absolute-git-dir', '--git-common-dir'], opts);
    if (top.exitCode !== 0) {
      // Not a repository is an answer; git refusing one (someone else's: "dubious ownership") or missing is not.
      if (top.exitCode === null || /dubious ownership|safe\.directory/.test(top.stderr)) {
        throw gitFailure(`reading the repository at ${real}`, top, 'see git config safe.directory');
      }
      return null;
    }
    const [toplevel, gitDir, common] = top.stdout.split('\n');
    if (!toplevel || !gitDir || !common) return null;
    const repoRoot = await realpath(toplevel);
    const realGitDir = await realpath(gitDir);
    const commonDir = await realpath(isAbsolute(common) ? common : resolve(real, common));
    const head = await git(['rev-parse', '-q', '--verify', 'HEAD^{commit}'], opts);
    const sym = await git(['symbolic-ref', '-q', '--short', 'HEAD'], opts);
    const list = await listWorktrees({ cwd: repoRoot, env: this.env });
    const first = list[0];
    return {
      repoRoot,
      headCommit: head.exitCode === 0 ? head.stdout.trim() : null,
      currentBranch: sym.exitCode === 0 ? sym.stdout.trim() : null,
      isWorktree: realGitDir !== commonDir,
      mainWorktree: first && !first.bare ? ((await realOrNull(first.path)) ?? first.path) : null,
      commonDir,
    };
  }

  /** A worktree for one agent: new (branch `baton/<run>/<label>`), on an existing branch, or an existing worktree. */
  create(request: CreateRequest): Promise<CreatedWorktree> {
    const next = this.serial.catch(() => undefined).then(() => this.createNow(request));
    this.serial = next;
    return next;
  }

  private async createNow(request: CreateRequest): Promise<CreatedWorktree> {
    const info = await this.repo(request.repoRoot);
    checkName(request.runName, 'runName');
    checkName(request.label, 'label');
    if (request.existingBranch !== undefined && request.existingWorktree !== undefined) {
      throw new WorktreeError('invalid', 'give existingBranch or existingWorktree, not both');
    }
    if (request.existingWorktree !== undefined) return this.reuseWorktree(info, request.existingWorktree, request.base);

    const existingBranch = request.existingBranch === undefined ? undefined : await this.checkedBranch(info.repoRoot, request.existingBranch, true);
    let baseCommit: string;
    if (request.base !== undefined) baseCommit = await this.commitOf(info.repoRoot, request.base);
    else if (existingBranch !== undefined) baseCommit = await this.forkPoint(info.repoRoot, info.headCommit, existingBranch);
    else if (info.headCommit !== null) baseCommit = info.headCommit;
    else throw new WorktreeError('invalid', `the repository at ${info.repoRoot} has no commits yet: make a first commit, then start the agent`);

    const repoDir = await this.repoDir(info);
    if (existingBranch !== undefined) await this.freeBranch(info, await listWorktrees({ cwd: info.repoRoot, env: this.env }), existingBranch);
    const taken = existingBranch === undefined ? await this.batonRefs(info.repoRoot) : [];
    let chosen: { branch: string; path: string } | undefined;
    for (let n = 1; n <= MAX_CLASH && !chosen; n++) {
      const names = namesFor(request.runName, request.label, n);
      const path = join(repoDir, names.dirName);
      if (await exists(path)) continue;
      if (existingBranch === undefined && (refTaken(taken, names.branch) || !(await this.validBranch(info.repoRoot, names.branch)))) continue;
      chosen = { branch: existingBranch ?? names.branch, path };
    }
    if (!chosen) throw new WorktreeError('conflict', `no free name for ${request.runName}/${request.label} under ${repoDir} (tried ${MAX_CLASH}): clean up old worktrees`);

    const branchCreated = existingBranch === undefined || (await this.ledger.list()).some((e) => e.commonDir === info.commonDir && e.branch === existingBranch && e.branchCreated);
    const entry: LedgerEntry = {
      path: chosen.path,
      commonDir: info.commonDir,
      repoRoot: info.repoRoot,
      branch: chosen.branch,
      branchCreated,
      baseCommit,
      run: request.runName,
      label: request.label,
      createdAt: new Date().toISOString(),
    };
    // Recorded first: a crash during `worktree add` leaves an entry to clean up, never an unknown worktree.
    await this.ledger.update((entries) => {
      const i = entries.findIndex((e) => e.path === entry.path);
      if (i >= 0) entries.splice(i, 1);
      entries.push(entry);
    });
    const args = existingBranch === undefined ? ['worktree', 'add', '-b', chosen.branch, chosen.path, baseCommit] : ['worktree', 'add', chosen.path, existingBranch];
    const added = await git(args, { cwd: info.repoRoot, env: this.env });
    if (added.exitCode !== 0) {
      await this.forget(entry.path);
      throw gitFailure(`creating the worktree ${chosen.path}`, added, 'check the repository with git worktree list');
    }
    await tightenMode(chosen.path);
    const included = await this.copyInclude(info.repoRoot, chosen.path);
    return { repoRoot: info.repoRoot, worktreePath: chosen.path, branch: chosen.branch, baseCommit, created: true, branchCreated, included };
  }

  private async reuseWorktree(info: RepoInfo, given: string, base: string | undefined): Promise<CreatedWorktree> {
    const path = checkedAbsolute(given, 'existingWorktree');
    const real = await realOrNull(path);
    if (real === null) throw new WorktreeError('invalid', `existingWorktree ${path} does not exist`);
    const listing = await this.findListing(info.repoRoot, real);
    if (!listing || listing.bare) {
      throw new WorktreeError('invalid', `${path} is not a worktree of the repository at ${info.repoRoot} (git worktree list does not show it): choose one of its worktrees`);
    }
    const head = (await gitOk(['rev-parse', '--verify', 'HEAD^{commit}'], { cwd: real, env: this.env, readOnly: true }, `reading HEAD of ${real}`)).trim();
    const baseCommit = base !== undefined ? await this.commitOf(info.repoRoot, base) : await this.forkPoint(info.repoRoot, info.headCommit, head);
    const none: IncludeResult = { copied: [], skipped: [] };
    return { repoRoot: info.repoRoot, worktreePath: real, branch: listing.branch, baseCommit, created: false, branchCreated: false, included: none };
  }

  /**
   * What `reopen` would do, without doing anything (for a resume preview): `existing`, `recreate` (the directory
   * is gone, the branch is there, Baton created the worktree), or `failed` with the reason.
   */
  async probe(request: ReopenRequest): Promise<{ outcome: 'existing' | 'recreate'; worktreePath: string } | { outcome: 'failed'; reason: string }> {
    const found = await this.assess(request);
    if (found.outcome === 'failed') return found;
    return { outcome: found.outcome, worktreePath: found.worktreePath };
  }

  /**
   * For a resume: the agent's worktree is there → run there; its directory is gone but the branch exists →
   * re-create it at the same path from the branch; the branch is gone too → failed, with the reason.
   */
  async reopen(request: ReopenRequest): Promise<ReopenResult> {
    const found = await this.assess(request);
    if (found.outcome !== 'recreate') return found;
    const { path, info, branch } = found;
    try {
      const parent = await realpath(dirname(path)).catch(() => null);
      if (parent === null) await mkdir(dirname(path), { recursive: true, mode: 0o700 });
      if ((await realpath(dirname(path))) !== dirname(path)) return { outcome: 'failed', reason: `the folder of ${path} now leads elsewhere (a symbolic link): not re-created` };
      await this.freeBranch(info, await listWorktrees({ cwd: info.repoRoot, env: this.env }), branch);
      const added = await git(['worktree', 'add', path, branch], { cwd: info.repoRoot, env: this.env });
      if (added.exitCode !== 0) throw gitFailure(`re-creating the worktree ${path} from branch ${branch}`, added);
      await tightenMode(path);
      const included = await this.copyInclude(info.repoRoot, path);
      return { outcome: 'recreated', worktreePath: path, branch, included };
    } catch (err) {
      return { outcome: 'failed', reason: (err as Error).message };
    }
  }

  private async assess(
    request: ReopenRequest,
  ): Promise<
    | { outcome: 'existing'; worktreePath: string; branch: string | null }
    | { outcome: 'recreate'; worktreePath: string; path: string; info: RepoInfo; branch: string }
    | { outcome: 'failed'; reason: string }
  > {
    let path: string;
    try {
      path = checkedAbsolute(request.worktreePath, 'worktreePath');
    } catch (err) {
      return { outcome: 'failed', reason: (err as Error).message };
    }
    const info = await this.inspect(request.repoRoot).catch(() => null);
    if (!info) return { outcome: 'failed', reason: `the repository at ${request.repoRoot} is gone or is no longer a git repository` };
    if (await exists(path)) {
      const real = await realOrNull(path);
      const listing = real === null ? undefined : await this.findListing(info.repoRoot, real);
      if (!listing || real === null) return { outcome: 'failed', reason: `${path} exists but is no longer a worktree of the repository at ${info.repoRoot}` };
      return { outcome: 'existing', worktreePath: real, branch: listing.branch };
    }
    const branch = request.branch;
    if (!plausibleBranch(branch) || !(await this.branchExists(info.repoRoot, branch))) {
      return { outcome: 'failed', reason: `the worktree ${path} and its branch ${branch} are both gone: nothing to resume from` };
    }
    const entry = (await this.ledger.list()).find((e) => e.path === path && e.commonDir === info.commonDir);
    if (!entry) return { outcome: 'failed', reason: `the worktree ${path} is gone and Baton did not create it: re-create it with git worktree add ${path} ${branch}` };
    return { outcome: 'recreate', worktreePath: path, path, info, branch };
  }

  /** What changed in the worktree since `baseCommit`: committed, uncommitted and untracked, capped at `maxBytes`. */
  async changes(worktreePath: string, baseCommit: string, maxBytes = DEFAULT_MAX_PATCH): Promise<Changes> {
    const path = checkedAbsolute(worktreePath, 'worktreePath');
    const real = await realOrNull(path);
    if (real === null) throw new WorktreeError('invalid', `the worktree ${path} does not exist`);
    if (!COMMIT.test(baseCommit)) throw new WorktreeError('invalid', 'baseCommit must be a full commit id (hex)');
    return changesOf(real, baseCommit, this.env, maxBytes);
  }

  /** `git merge --no-ff` of `branch` in the checkout that has `into`; a conflict is aborted and reported. */
  async merge(request: MergeRequest): Promise<MergeResult> {
    const info = await this.repo(request.repoRoot);
    const branch = await this.checkedBranch(info.repoRoot, request.branch, true);
    const into = request.into === undefined ? info.currentBranch : await this.checkedBranch(info.repoRoot, request.into, true);
    if (into === null) throw new WorktreeError('conflict', `${info.repoRoot} has a detached HEAD: check out the branch to merge into first (git switch <branch>)`);
    if (into === branch) throw new WorktreeError('invalid', `cannot merge ${branch} into itself`);
    const list = await listWorktrees({ cwd: info.repoRoot, env: this.env });
    let target: string | null = info.currentBranch === into ? info.repoRoot : null;
    if (target === null) {
      const holder = list.find((w) => w.branch === into && !w.prunable && !w.bare);
      if (!holder) throw new WorktreeError('conflict', `${into} is not checked out anywhere: run git switch ${into} in ${info.repoRoot} first`);
      target = holder.path;
    }
    const opts = { cwd: target, env: this.env };
    const mergeHead = await git(['rev-parse', '-q', '--verify', 'MERGE_HEAD'], { ...opts, readOnly: true });
    if (mergeHead.exitCode === 0) throw new WorktreeError('conflict', `a merge is already in progress in ${target}: finish it or run git merge --abort there first`);
    const dirty = await this.uncommitted(target, false);
    if (dirty.length > 0) {
      throw new WorktreeError('dirty', `${target} has uncommitted changes (${describeFiles(dirty)}): commit or stash them first; Baton never merges over them`);
    }
    const holder = list.find((w) => w.branch === branch && !w.prunable && !w.bare);
    const uncommittedInWorktree = holder ? (await this.uncommitted(holder.path, true).catch(() => [])).length > 0 : false;

    const merged = await git(['merge', '--no-ff', '--no-edit', branch], opts);
    if (merged.exitCode === 0) {
      const commit = (await gitOk(['rev-parse', 'HEAD'], opts, 'reading the merge commit')).trim();
      return { merged: true, commit, alreadyUpToDate: /Already up.to.date/i.test(merged.stdout), uncommittedInWorktree };
    }
    const unmerged = await git(['diff', '--name-only', '--diff-filter=U', '-z'], { ...opts, readOnly: true });
    const conflicts = unmerged.exitCode === 0 ? splitZ(unmerged.stdout) : [];
    const inProgress = (await git(['rev-parse', '-q', '--verify', 'MERGE_HEAD'], { ...opts, readOnly: true })).exitCode === 0;
    if (inProgress || conflicts.length > 0) {
      const abort = await git(['merge', '--abort'], opts);
      if (abort.exitCode !== 0) throw gitFailure(`aborting the conflicted merge of ${branch} into ${into} in ${target}`, abort, 'resolve it there by hand (git status)');
    }
    if (conflicts.length > 0) {
      return {
        merged: false,
        conflicts,
        message: `merging ${branch} into ${into} conflicts in ${describeFiles(conflicts)}: the merge was aborted and ${target} is as it was; resolve it in the agent's worktree (merge ${into} there) or by hand`,
      };
    }
    throw gitFailure(`merging ${branch} into ${into} in ${target}`, merged, 'nothing was changed');
  }

  /** Removes a worktree Baton created. Refuses uncommitted changes unless `force`; keeps an unmerged branch. */
  async remove(request: RemoveRequest): Promise<RemoveResult> {
    const entry = await this.owned(request.worktreePath);
    const gitDirOpts = { cwd: entry.commonDir, env: this.env };
    const withGitDir = (args: string[]) => ['--git-dir', entry.commonDir, ...args];
    if (await exists(entry.path)) {
      const dirty = await this.uncommitted(entry.path, true);
      if (dirty.length > 0 && request.force !== true) {
        throw new WorktreeError('dirty', `the worktree ${entry.path} has uncommitted changes (${describeFiles(dirty)}): commit them, or remove it with force to discard them`);
      }
      const args = withGitDir(['worktree', 'remove', ...(request.force === true ? ['--force'] : []), entry.path]);
      const removed = await git(args, gitDirOpts);
      if (removed.exitCode !== 0) throw gitFailure(`removing the worktree ${entry.path}`, removed, 'a locked worktree must be unlocked first (git worktree unlock)');
    } else {
      await this.dropStale(entry.commonDir, entry.path);
    }
    await this.forget(entry.path);
    const result: RemoveResult = { worktreePath: entry.path, branch: entry.branch, branchDeleted: false };
    if (!entry.branchCreated) {
      result.branchKept = 'the branch existed before Baton used it: kept';
      return result;
    }
    if (!(await this.branchExists(entry.commonDir, entry.branch, true))) {
      result.branchKept = 'the branch no longer exists';
      return result;
    }
    const holder = (await listWorktrees(gitDirOpts).catch(() => [])).find((w) => w.branch === entry.branch && !w.prunable);
    if (holder) {
      result.branchKept = `the branch is checked out in ${holder.path}: kept`;
      return result;
    }
    // `git branch -d` refuses a branch not merged into the HEAD of the checkout it runs in: that is the rule.
    const flag = request.deleteUnmergedBranch === true ? '-D' : '-d';
    const deleted = (await exists(entry.repoRoot))
      ? await git(['branch', flag, entry.branch], { cwd: entry.repoRoot, env: this.env })
      : await git(withGitDir(['branch', flag, entry.branch]), gitDirOpts);
    if (deleted.exitCode === 0) {
      result.branchDeleted = true;
    } else if (/not fully merged/.test(deleted.stderr)) {
      result.branchKept = `branch ${entry.branch} has unmerged commits: kept (merge it, or delete it with deleteUnmergedBranch)`;
    } else {
      result.branchKept = gitFailure(`deleting branch ${entry.branch}`, deleted).message;
    }
    return result;
  }

  /** Every worktree Baton created and has not removed, with whether its directory is still there. */
  async listOwned(): Promise<OwnedWorktree[]> {
    const entries = await this.ledger.list();
    return Promise.all(entries.map(async (e) => ({ ...e, exists: await exists(e.path) })));
  }

  /** Baton's worktrees that no run claims (`ownedByRuns`: the worktree paths recorded in runs). */
  async orphans(ownedByRuns: ReadonlySet<string>): Promise<OwnedWorktree[]> {
    const claimed = new Set<string>();
    for (const p of ownedByRuns) {
      claimed.add(p);
      const real = await realOrNull(p);
      if (real !== null) claimed.add(real);
    }
    return (await this.listOwned()).filter((e) => !claimed.has(e.path));
  }

  /** Removes each of `paths` that Baton created (never with force); reports per path what happened. */
  async cleanup(paths: readonly string[], options: { force?: boolean } = {}): Promise<CleanupResult[]> {
    const out: CleanupResult[] = [];
    for (const worktreePath of paths) {
      try {
        out.push({ worktreePath, ok: true, result: await this.remove({ worktreePath, force: options.force === true }) });
      } catch (err) {
        out.push({ worktreePath, ok: false, error: err instanceof Error ? err.message : String(err) });
      }
    }
    return out;
  }

  /** The checkout's setup command (`.baton/setup.json`), or null when it has none. A malformed file throws. */
  async setupCommandOf(repoRoot: string): Promise<SetupCommand | null> {
    const info = await this.repo(repoRoot);
    const found = await readSetupCommand(info.repoRoot, info.commonDir);
    if (found.ok) return found.command;
    if (found.missing) return null;
    throw new WorktreeError('invalid', `the setup command cannot be used: ${found.reason}`);
  }

  approve(hash: string): Promise<void> {
    return this.approvals.add(hash);
  }

  isApproved(hash: string): Promise<boolean> {
    return this.approvals.has(hash);
  }

  /**
   * Runs the setup command of the worktree's repository in a worktree Baton created, if the user approved that
   * exact command; null when the repository has none. Output goes to `onOutput` as it arrives.
   */
  async runSetup(worktreePath: string, onOutput?: (text: string) => void): Promise<SetupRun | null> {
    const entry = await this.owned(worktreePath);
    const command = await this.setupCommandOf(entry.repoRoot);
    if (command === null) return null;
    if (!(await this.approvals.has(command.hash))) {
      throw new WorktreeError('not-approved', `the setup command ${JSON.stringify(command.argv)} of ${entry.repoRoot} has not been approved (or changed since): approve it to run it`);
    }
    if (!(await exists(entry.path))) throw new WorktreeError('invalid', `the worktree ${entry.path} does not exist`);
    return runArgv(command, entry.path, this.env, onOutput);
  }

  // ——— helpers ———

  private async repo(dir: string): Promise<RepoInfo> {
    const info = await this.inspect(dir);
    if (!info) throw new WorktreeError('not-a-repo', `${dir} is not inside a git repository: choose a folder of a git checkout, or run the agent without a worktree`);
    return info;
  }

  /** `<realBase>/<repo name>`, created, real, a plain directory; the base must lie outside the repository. */
  private async repoDir(info: RepoInfo): Promise<string> {
    await mkdir(this.baseDir, { recursive: true, mode: 0o700 });
    const realBase = await realpath(this.baseDir);
    for (const root of [info.repoRoot, info.mainWorktree, dirname(info.commonDir)]) {
      if (root !== null && isInside(root, realBase)) {
        throw new WorktreeError('invalid', `the worktree folder ${this.baseDir} is inside the repository ${root}: choose one outside it`);
      }
    }
    const name = sanitiseSegment(basename(info.mainWorktree ?? info.repoRoot).replace(/\.git$/, ''), 'repo');
    return ensureChildDir(realBase, name, 'the worktree folder');
  }

  /** The ledger entry of a path Baton created; refuses escapes, links and anything Baton did not create. */
  private async owned(worktreePath: string): Promise<LedgerEntry> {
    const path = checkedAbsolute(worktreePath, 'worktreePath');
    if (await isSymlink(path)) throw new WorktreeError('escape', `${path} is a symbolic link: give the worktree's own path`);
    const real = await realOrNull(path);
    const parentReal = await realOrNull(dirname(path));
    const candidates = [path, real, parentReal === null ? null : join(parentReal, basename(path))];
    const entry = (await this.ledger.list()).find((e) => candidates.includes(e.path));
    if (!entry) {
      throw new WorktreeError('not-owned', `Baton did not create ${path} (it is not in its list of worktrees): Baton leaves it alone; remove it yourself with git worktree remove if you want`);
    }
    if (real !== null && real !== entry.path) throw new WorktreeError('escape', `${path} now resolves to ${real}, outside the worktree Baton created: not touched`);
    return entry;
  }

  private async forget(path: string): Promise<void> {
    await this.ledger.update((entries) => {
      const i = entries.findIndex((e) => e.path === path);
      if (i >= 0) entries.splice(i, 1);
    });
  }

  private async findListing(repoRoot: string, real: string): Promise<WorktreeListing | undefined> {
    for (const w of await listWorktrees({ cwd: repoRoot, env: this.env })) {
      if (w.path === real || (await realOrNull(w.path)) === real) return w;
    }
    return undefined;
  }

  /** A branch checked out by a worktree whose directory is gone is released; one in use elsewhere is refused. */
  private async freeBranch(info: RepoInfo, list: readonly WorktreeListing[], branch: string): Promise<void> {
    for (const w of list) {
      if (w.branch !== branch) continue;
      if (w.prunable || !(await exists(w.path))) await this.dropStale(info.commonDir, w.path);
      else throw new WorktreeError('conflict', `branch ${branch} is already checked out in ${w.path}: reuse that worktree (existingWorktree) or choose another branch`);
    }
  }

  /** Forgets the record of one worktree whose directory is gone; `git worktree prune` only if git cannot. */
  private async dropStale(commonDir: string, path: string): Promise<void> {
    const opts = { cwd: commonDir, env: this.env };
    const listed = (await listWorktrees(opts)).some((w) => w.path === path);
    if (!listed) return;
    const removed = await git(['--git-dir', commonDir, 'worktree', 'remove', path], opts);
    if (removed.exitCode !== 0) await gitOk(['--git-dir', commonDir, 'worktree', 'prune'], opts, 'pruning stale worktrees');
  }

  private async checkedBranch(repoRoot: string, name: string, mustExist: boolean): Promise<string> {
    if (typeof name !== 'string' || !plausibleBranch(name) || !(await this.validBranch(repoRoot, name))) {
      throw new WorktreeError('invalid', `${JSON.stringify(String(name).slice(0, 100))} is not a valid branch name (git check-ref-format --branch refuses it)`);
    }
    if (mustExist && !(await this.branchExists(repoRoot, name))) throw new WorktreeError('invalid', `there is no branch ${name} in ${repoRoot}`);
    return name;
  }

  private async validBranch(repoRoot: string, name: string): Promise<boolean> {
    if (!plausibleBranch(name)) return false;
    const r = await git(['check-ref-format', '--branch', name], { cwd: repoRoot, env: this.env, readOnly: true });
    return r.exitCode === 0 && r.stdout.trim() === name;
  }

  private async branchExists(cwd: string, name: string, gitDir = false): Promise<boolean> {
    const args = ['show-ref', '--verify', '-q', `refs/heads/${name}`];
    return (await git(gitDir ? ['--git-dir', cwd, ...args] : args, { cwd, env: this.env, readOnly: true })).exitCode === 0;
  }

  /** Every branch under `baton` (and a branch named `baton` itself), for clash checks. */
  private async batonRefs(repoRoot: string): Promise<string[]> {
    const out = await gitOk(['for-each-ref', '--format=%(refname)', 'refs/heads/baton'], { cwd: repoRoot, env: this.env, readOnly: true }, 'listing branches');
    return out.split('\n').filter((l) => l !== '').map((l) => l.replace(/^refs\/heads\//, ''));
  }

  private async commitOf(repoRoot: string, rev: string): Promise<string> {
    if (typeof rev !== 'string' || rev === '' || rev.startsWith('-') || rev.length > 255 || /[\0\s]/.test(rev)) {
      throw new WorktreeError('invalid', 'base must be a branch name or a commit');
    }
    const r = await git(['rev-parse', '-q', '--verify', `${rev}^{commit}`], { cwd: repoRoot, env: this.env, readOnly: true });
    if (r.exitCode !== 0) throw new WorktreeError('invalid', `base ${JSON.stringify(rev.slice(0, 100))} is not a branch or commit of ${repoRoot}`);
    return r.stdout.trim();
  }

  /** Where `rev` left the checkout's HEAD (their merge base), else `rev` itself. */
  private async forkPoint(repoRoot: string, head: string | null, rev: string): Promise<string> {
    const tip = await this.commitOf(repoRoot, rev);
    if (head === null) return tip;
    const r = await git(['merge-base', head, tip], { cwd: repoRoot, env: this.env, readOnly: true });
    return r.exitCode === 0 && COMMIT.test(r.stdout.trim()) ? r.stdout.trim() : tip;
  }

  /** `git status --porcelain` entries (tracked changes; and untracked, not ignored, files if asked). */
  private async uncommitted(dir: string, untracked: boolean): Promise<string[]> {
    const args = ['status', '--porcelain=v1', '-z', `--untracked-files=${untracked ? 'all' : 'no'}`, '--ignore-submodules=none'];
    const out = await gitOk(args, { cwd: dir, env: this.env, readOnly: true }, `reading the status of ${dir}`);
    const files: string[] = [];
    const parts = splitZ(out);
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i] ?? '';
      files.push(p.slice(3));
      // A rename or copy is followed by its source path.
      if (p[0] === 'R' || p[0] === 'C') i += 1;
    }
    return files;
  }

  /** Never fails the creation: the worktree exists by now, and a copy that went wrong is reported instead. */
  private async copyInclude(checkout: string, worktree: string): Promise<IncludeResult> {
    try {
      const files = await includedFiles(checkout, this.env);
      if (!Array.isArray(files)) return { copied: [], skipped: [{ path: INCLUDE_FILE, reason: files.problem }] };
      return await copyIncluded(checkout, worktree, files);
    } catch (err) {
      return { copied: [], skipped: [{ path: INCLUDE_FILE, reason: err instanceof Error ? err.message : String(err) }] };
    }
  }
}

function checkName(value: unknown, field: string): void {
  if (typeof value !== 'string' || value.trim() === '' || value.length > MAX_NAME || value.includes('\0')) {
    throw new WorktreeError('invalid', `${field} must be a non-empty name of at most ${MAX_NAME} characters`);
  }
}

/** Whether `branch` is taken or would clash with a taken ref as a file/directory (`baton/x` vs `baton/x/y`). */
function refTaken(taken: readonly string[], branch: string): boolean {
  return taken.some((t) => t === branch || branch.startsWith(`${t}/`) || t.startsWith(`${branch}/`));
}

function describeFiles(files: readonly string[]): string {
  const shown = files.slice(0, 5).join(', ');
  return `${files.length} file${files.length === 1 ? '' : 's'}: ${shown}${files.length > 5 ? ', …' : ''}`;
}

/** git creates the directory with the umask's mode; an agent may start only where others cannot write. */
async function tightenMode(path: string): Promise<void> {
  const info = await lstat(path);
  if (info.isDirectory() && (info.mode & 0o022) !== 0) await chmod(path, info.mode & 0o755);
}
