// Opening a bundle and planning its import, writing nothing (docs/bundles.md §4, §5): decrypt, inflate, check the
// content strictly, decode its handle like a pasted one, map each agent's directory through the user's map, and
// rewrite each transcript in memory for its new id and directory. Everything that can refuse the import refuses here.
import { BatonError, type BundlePreview } from '../../../shared/contract.js';
import type { VendorName } from '../../../shared/words.js';
import { BundleOpenError, openBundle } from '../bundle/crypto.js';
import { fileOf, unpackPayload, type BundleAgentExtra, type BundlePayload } from '../bundle/payload.js';
import { decodeHandle, type DecodedHandle, type HandleAgent } from '../handle/codec.js';
import type { TranscriptFiles, VendorEnv } from '../vendors/adapter.js';
import { pathExists } from '../vendors/kit/store-fs.js';
import { rewriteTranscript } from '../vendors/kit/transcript-rewrite.js';
import type { Vendors } from '../vendors/registry.js';
import { invalid } from './errors.js';
import { inspectDirectory, problemText } from './workdir.js';

export type DirectoryMap = Readonly<Record<string, string>>;

export interface PlannedBundleAgent {
  handle: HandleAgent;
  extra: BundleAgentExtra | undefined;
  /** Where the agent works here: its directory through the map (for an isolated agent, its repository's). */
  cwd: string;
  cwdProblem: string | null;
  /** The transcript to place: rewritten for `newId` in `cwd`, and where it goes. */
  transcript: { files: TranscriptFiles; newId: string; text: string; target: string } | null;
  /** The branch to restore, into the mapped repository. */
  branch: { repoRoot: string; name: string; commit: string; bundle: Buffer } | null;
  note: string | null;
}

export interface BundlePlan {
  payload: BundlePayload;
  handle: DecodedHandle;
  agents: PlannedBundleAgent[];
  directories: BundlePreview['directories'];
}

/** `path` through the map: the longest entry that is the path or a folder above it wins. */
export function mapPath(path: string, map: DirectoryMap): string {
  let best: string | null = null;
  for (const from of Object.keys(map))
    if ((path === from || path.startsWith(`${from}/`)) && (best === null || from.length > best.length)) best = from;
  return best === null ? path : map[best]! + path.slice(best.length);
}

/** The opened, checked content and handle of a bundle; a BatonError (`invalid`) that says what is wrong otherwise. */
export async function openChecked(
  bytes: Uint8Array,
  passphrase: string,
  vendors: Vendors,
): Promise<{ payload: BundlePayload; handle: DecodedHandle }> {
  try {
    const payload = unpackPayload(await openBundle(bytes, passphrase));
    const handle = decodeHandle(payload.handle, {
      sessionIdPattern: (v: VendorName) => vendors.get(v)?.sessionIdPattern,
    });
    if (handle.kind === 'caw' || payload.agents.some((a) => a.index >= handle.agents.length))
      throw invalid('the bundle is not valid: its agents do not match its handle', 'bundle');
    return { payload, handle };
  } catch (err) {
    if (err instanceof BundleOpenError) throw invalid(err.message, err.code === 'passphrase' ? 'passphrase' : 'bundle');
    if (err instanceof BatonError) throw invalid(`the bundle's handle is not valid: ${err.message}`, 'bundle');
    throw err;
  }
}

/** Each agent's place here and what will be written for it; nothing is written. */
export async function planBundle(
  opened: { payload: BundlePayload; handle: DecodedHandle },
  map: DirectoryMap,
  vendors: Vendors,
  env: VendorEnv,
): Promise<BundlePlan> {
  const { payload, handle } = opened;
  const agents: PlannedBundleAgent[] = [];
  const tops = new Map<string, boolean>();
  for (const [index, h] of handle.agents.entries()) {
    const extra = payload.agents.find((a) => a.index === index);
    const from = h.worktree?.repoRoot ?? h.cwd ?? '/';
    const cwd = mapPath(from, map);
    const check = await inspectDirectory(cwd);
    if (!tops.has(from)) tops.set(from, (await inspectDirectory(from)).ok);
    const planned: PlannedBundleAgent = {
      handle: h,
      extra,
      cwd: check.ok ? check.real : cwd,
      cwdProblem: check.ok ? null : problemText(check.problem),
      transcript: null,
      branch: null,
      note: extra?.note ?? null,
    };
    const files = vendors.get(h.vendor)?.transcripts;
    if (extra?.transcript && files && h.sessionId !== null && !h.worktree) {
      const newId = files.newId();
      let text: string;
      try {
        const remap = { fromId: h.sessionId, toId: newId, fromCwd: h.cwd ?? from, toCwd: planned.cwd };
        text = rewriteTranscript(fileOf(payload, extra.transcript).toString('utf8'), remap, files.rewrite);
      } catch {
        throw invalid(`the bundle is not valid: the transcript of agent '${h.label}' is not JSON Lines`, 'bundle');
      }
      const target = await files.placeFor(newId, planned.cwd, env);
      if (await pathExists(target)) throw invalid(`a transcript for agent '${h.label}' is already there`, 'bundle');
      planned.transcript = { files, newId, text, target };
    } else if (extra?.transcript && h.worktree) {
      planned.note = 'its branch is restored; an isolated agent starts a fresh conversation in its re-created worktree';
    }
    // The branch is the one the handle names (checked by git's rules there), so no name from the bundle reaches git
    // unchecked (a name starting with "-" would read as an option).
    if (extra?.branch && (!h.worktree || extra.branch.name !== h.worktree.branch))
      throw invalid(`the bundle is not valid: agent '${h.label}' carries a branch its handle does not name`, 'bundle');
    if (extra?.branch && h.worktree)
      planned.branch = {
        repoRoot: planned.cwd,
        name: extra.branch.name,
        commit: extra.branch.commit,
        bundle: fileOf(payload, extra.branch.file),
      };
    agents.push(planned);
  }
  return { payload, handle, agents, directories: [...tops].map(([from, exists]) => ({ from, exists })) };
}

/** What the preview shows of a plan. */
export function previewOf(plan: BundlePlan): BundlePreview {
  return {
    runName: plan.handle.run?.name ?? 'imported run',
    createdAt: plan.payload.createdAt,
    snapshotId: plan.payload.snapshotId,
    agents: plan.agents.map((a) => ({
      label: a.handle.label,
      vendor: a.handle.vendor,
      cwd: a.handle.worktree?.repoRoot ?? a.handle.cwd ?? '',
      mappedCwd: a.cwdProblem === null ? a.cwd : null,
      cwdProblem: a.cwdProblem,
      transcript: a.transcript !== null,
      branch: a.branch?.name ?? null,
      note: a.note,
    })),
    directories: plan.directories,
  };
}
