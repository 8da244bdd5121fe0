// Import a bundle (docs/bundles.md §5): after planBundle has checked everything, write it all or nothing (each
// transcript where this machine's CLI looks for it, each branch into its mapped repository; on any failure what was
// written is removed again), then resume it as a new run through run.resume, with the handle rewritten for the new
// session ids and directories.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ResumeOutcome, RunView } from '../../../shared/contract.js';
import { encodeHandle, type HandleAgent } from '../handle/codec.js';
import { writeFileAtomic } from '../store/atomic-file.js';
import type { VendorEnv } from '../vendors/adapter.js';
import { inheritedEnv } from '../vendors/kit/env.js';
import { git } from '../worktrees/git.js';
import type { BundlePlan, DirectoryMap } from './bundle-plan.js';
import { failed, invalid } from './errors.js';
import { newAgentId, newRunId } from './ids.js';
import { uniqueRunName } from './validation.js';

export type Resume = (
  handle: string,
  repoMap: Record<string, string>,
) => Promise<{ run: RunView; outcomes: ResumeOutcome[] }>;

/** What was written so far, to take back if a later write fails. */
interface Written {
  files: string[];
  branches: { repoRoot: string; name: string }[];
}

async function branchTip(env: NodeJS.ProcessEnv, repoRoot: string, name: string): Promise<string | null> {
  const r = await git(['rev-parse', '-q', '--verify', `refs/heads/${name}^{commit}`], { cwd: repoRoot, env });
  return r.exitCode === 0 ? r.stdout.trim() : null;
}

/** The branch at its commit in the repository, from the git bundle; an existing branch must already be there. */
async function restoreBranch(
  env: NodeJS.ProcessEnv,
  b: NonNullable<BundlePlan['agents'][number]['branch']>,
  written: Written,
): Promise<void> {
  const tip = await branchTip(env, b.repoRoot, b.name);
  if (tip === b.commit) return;
  if (tip !== null)
    throw failed(
      `the branch ${b.name} already exists in that repository at another commit: rename it and import again`,
    );
  const dir = await mkdtemp(join(tmpdir(), 'baton-import-'));
  try {
    const file = join(dir, 'branch.bundle');
    await writeFile(file, b.bundle, { mode: 0o600 });
    const opts = { cwd: b.repoRoot, env };
    if ((await git(['bundle', 'verify', '-q', file], opts)).exitCode !== 0)
      throw failed(`the branch ${b.name} in the bundle does not fit that repository (git bundle verify refused it)`);
    const temp = `refs/baton-import/${Date.now().toString(36)}`;
    const fetched = await git(['fetch', '--no-tags', '--quiet', file, `refs/heads/${b.name}:${temp}`], opts);
    if (fetched.exitCode !== 0) throw failed(`the branch ${b.name} could not be fetched from the bundle`);
    const made = await git(['branch', '--no-track', b.name, b.commit], opts);
    await git(['update-ref', '-d', temp], opts);
    if (made.exitCode !== 0) throw failed(`the branch ${b.name} could not be made at its commit`);
    written.branches.push({ repoRoot: b.repoRoot, name: b.name });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function undo(env: NodeJS.ProcessEnv, written: Written): Promise<void> {
  for (const f of written.files) await rm(f, { force: true }).catch(() => undefined);
  for (const b of written.branches)
    await git(['branch', '-D', b.name], { cwd: b.repoRoot, env }).catch(() => undefined);
}

/** Writes the plan's transcripts and branches, all or none. */
export async function writePlan(plan: BundlePlan, env: VendorEnv): Promise<void> {
  const gitEnv = inheritedEnv(env);
  const written: Written = { files: [], branches: [] };
  try {
    for (const a of plan.agents) {
      if (a.branch) await restoreBranch(gitEnv, a.branch, written);
      if (!a.transcript) continue;
      await mkdir(dirname(a.transcript.target), { recursive: true, mode: 0o700 });
      await writeFileAtomic(a.transcript.target, a.transcript.text);
      written.files.push(a.transcript.target);
      await a.transcript.files.register?.(a.transcript.newId, a.cwd, env);
    }
  } catch (err) {
    await undo(gitEnv, written);
    throw err;
  }
}

/** The handle that resumes the imported run: a new run and new agents, the new ids, the directories here. */
export function importedHandle(plan: BundlePlan, name: string): { handle: string; repoMap: Record<string, string> } {
  const repoMap: Record<string, string> = {};
  const agents: HandleAgent[] = plan.agents.map((a) => {
    if (a.handle.worktree) repoMap[a.handle.worktree.repoRoot] = a.cwd;
    return {
      id: newAgentId(),
      label: a.handle.label,
      vendor: a.handle.vendor,
      sessionId: a.transcript?.newId ?? a.handle.sessionId,
      cwd: a.handle.worktree ? a.handle.cwd : a.cwd,
      ...(a.handle.worktree ? { worktree: a.handle.worktree } : {}),
    };
  });
  return {
    handle: encodeHandle({ run: { name, id: newRunId() }, createdAt: new Date().toISOString(), agents }),
    repoMap,
  };
}

export async function importPlan(
  plan: BundlePlan,
  deps: { env: VendorEnv; isTaken: (name: string) => boolean; resume: Resume },
  wanted?: string,
): Promise<{ run: RunView; outcomes: ResumeOutcome[] }> {
  const blocked = plan.agents.find((a) => a.cwdProblem !== null);
  if (blocked)
    throw invalid(
      `agent '${blocked.handle.label}' has no directory here (${blocked.cwdProblem}): map its directory to one on this machine`,
      'map',
    );
  const name = wanted ?? uniqueRunName(plan.handle.run?.name ?? 'imported run', deps.isTaken);
  if (wanted !== undefined && deps.isTaken(wanted)) throw invalid(`a run named '${wanted}' already exists`, 'name');
  const { handle, repoMap } = importedHandle(plan, name);
  await writePlan(plan, deps.env);
  return deps.resume(handle, repoMap);
}

export type { DirectoryMap };
