// Export a run, or one snapshot of it, as one encrypted bundle (docs/bundles.md): its handle, every agent's transcript
// (cut where the snapshot was taken, when it recorded where), and each isolated agent's branch as a git bundle.
// Nothing is written here but a temporary git bundle file, removed at once.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sealBundle } from '../bundle/crypto.js';
import { packPayload, type BundleAgentExtra } from '../bundle/payload.js';
import { encodeHandle, type HandleAgent } from '../handle/codec.js';
import type { AgentRecord, RunManifest } from '../store/types.js';
import type { VendorEnv } from '../vendors/adapter.js';
import { inheritedEnv } from '../vendors/kit/env.js';
import type { Vendors } from '../vendors/registry.js';
import { git } from '../worktrees/git.js';
import { conflict } from './errors.js';
import type { RunRepository } from './run-repository.js';
import { readTranscript } from './transcript-copy.js';
import { runSources, type RunSource } from './run-sources.js';
import { commitOf } from './worktree-git.js';
import { BUNDLE_MAX_BYTES } from '../../../shared/contract.js';

export interface ExportedBundle {
  bytes: Buffer;
  fileName: string;
  agents: { label: string; vendor: AgentRecord['vendor']; transcript: boolean; note: string | null }[];
}

/** `name.baton-bundle`, the run's name made safe for a file name. */
export function bundleFileName(runName: string): string {
  const base = runName.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[-.]+|-+$/g, '') || 'run';
  return `${base.slice(0, 80)}.baton-bundle`;
}

/** The agent's branch at `commit` as a git bundle (the branch's tip, which holds `commit`), or null with why not. */
async function branchBundle(
  env: VendorEnv,
  worktree: NonNullable<RunSource['worktree']>,
  commit: string,
): Promise<{ bytes: Buffer; commit: string } | { note: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'baton-export-'));
  try {
    const file = join(dir, 'branch.bundle');
    const opts = { cwd: worktree.repoRoot, env: inheritedEnv(env) };
    const made = await git(['bundle', 'create', file, `refs/heads/${worktree.branch}`], opts);
    if (made.exitCode !== 0)
      return {
        note: `its branch ${worktree.branch} could not be bundled (git: ${made.stderr.trim().split('\n')[0] ?? ''})`,
      };
    return { bytes: await readFile(file), commit };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function exportBundle(
  deps: { runs: RunRepository; vendors: Vendors; env: VendorEnv },
  run: RunManifest,
  snapshotId: string | undefined,
  passphrase: string,
): Promise<ExportedBundle> {
  const sources = await runSources(deps.runs, run, snapshotId);
  const handleAgents: HandleAgent[] = [];
  const extras: BundleAgentExtra[] = [];
  const files: Record<string, string> = {};
  for (const [index, s] of sources.entries()) {
    const adapter = deps.vendors.get(s.agent.vendor);
    if (s.sessionId === null && adapter?.sessionIdPattern)
      throw conflict(
        `agent '${s.agent.label}' has no ${s.agent.vendor} session yet: there is no conversation to export`,
      );
    handleAgents.push({
      id: s.agent.id,
      label: s.agent.label,
      vendor: s.agent.vendor,
      sessionId: s.sessionId,
      cwd: s.cwd,
      ...(s.worktree
        ? {
            worktree: {
              repoRoot: s.worktree.repoRoot,
              worktreePath: s.worktree.worktreePath,
              branch: s.worktree.branch,
              baseCommit: s.worktree.baseCommit,
            },
          }
        : {}),
    });
    const extra: BundleAgentExtra = { index, args: [...s.agent.args], transcript: null, note: null, branch: null };
    if (adapter?.transcripts && s.sessionId !== null) {
      const cut = snapshotId !== undefined ? s.mark?.transcriptBytes : undefined;
      const content = await readTranscript(adapter.transcripts, s.sessionId, s.cwd, deps.env, cut);
      if (content === null) extra.note = `its transcript is not in the ${adapter.displayName} store: it starts fresh`;
      else {
        extra.transcript = `agents/${index}/transcript.jsonl`;
        files[extra.transcript] = Buffer.from(content).toString('base64');
      }
    } else if (adapter?.sessionIdPattern) {
      extra.note = `${adapter.displayName} keeps its conversations where Baton cannot copy them: it starts fresh`;
    }
    if (s.worktree) {
      const commit =
        s.mark?.headCommit ??
        (await commitOf(inheritedEnv(deps.env), s.worktree.worktreePath, 'HEAD').catch(() => null)) ??
        s.worktree.baseCommit;
      const got = await branchBundle(deps.env, s.worktree, commit);
      if ('note' in got) extra.note = [extra.note, got.note].filter(Boolean).join('; ');
      else {
        const file = `agents/${index}/branch.bundle`;
        files[file] = got.bytes.toString('base64');
        extra.branch = { name: s.worktree.branch, commit: got.commit, file };
      }
    }
    extras.push(extra);
  }
  const createdAt = new Date().toISOString();
  const handle = encodeHandle({ run: { name: run.name, id: run.id }, createdAt, agents: handleAgents });
  const sealed = await sealBundle(
    packPayload({ v: 1, createdAt, handle, snapshotId: snapshotId ?? null, agents: extras, files }),
    passphrase,
  );
  if (sealed.length > BUNDLE_MAX_BYTES)
    throw conflict(
      `the bundle would be ${(sealed.length / 1e6).toFixed(1)} MB, over the ${BUNDLE_MAX_BYTES / 1e6} MB a bundle can be: export an earlier snapshot, or a run with fewer agents`,
    );
  return {
    bytes: sealed,
    fileName: bundleFileName(run.name),
    agents: sources.map((s, i) => ({
      label: s.agent.label,
      vendor: s.agent.vendor,
      transcript: extras[i]!.transcript !== null,
      note: extras[i]!.note,
    })),
  };
}
