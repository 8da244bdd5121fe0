// From a handle to what a resume will do, per agent: the directory checks, the session check and the argv, validated
// in full before anything runs (docs/architecture.md §5), and the same shown as the preview (`handle.inspect`). No
// side effect: it reads the run store, the directories and the vendors' stores, and writes nothing. Each agent's
// vendor store is read once, by the adapter's `planResumeChecked`; what it found travels with the plan, for the
// preview's check and for the launch, which records the id as confirmed without reading the store again.
import type { HandlePreview, RunSummary } from '../../../shared/contract.js';
import { decodeHandle, type DecodedHandle, type HandleAgent } from '../handle/codec.js';
import type { AgentRecord, RunManifest } from '../store/types.js';
import type { VendorEnv } from '../vendors/adapter.js';
import type { Vendors } from '../vendors/registry.js';
import type { AgentWorktrees, RepoMap, WorktreeAssessment } from './agent-worktrees.js';
import { invalid } from './errors.js';
import { HealthBatch } from './health-batch.js';
import { newAgentId, newRunId } from './ids.js';
import type { RunReader } from './run-repository.js';
import { checkRoom, checkedDirectory, uniqueLabel, uniqueRunName } from './validation.js';
import { mapHosts, type HostMap, type RemoteCores } from '../remote/remote-launcher.js';
import { previewRemoteWorktree } from '../remote/remote-preview.js';
import { planAgent, type PlannedAgent } from './resume-agent-plan.js';
import { previewAgent, type HandlePreviewAgent } from './resume-preview.js';
import { inspectDirectory, type DirectoryCheck } from './workdir.js';

export type { PlannedAgent } from './resume-agent-plan.js';

export interface ResumeTarget {
  runId: string;
  runName: string;
  knownRun: boolean;
  agents: PlannedAgent[];
}

/** A bare vendor session id: accepted only when the store already knows it. */
const BARE_SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{5,127}$/;

export class ResumePlanner {
  private readonly rules = {
    sessionIdPattern: (vendor: Parameters<Vendors['get']>[0]) => this.vendors.get(vendor)?.sessionIdPattern,
  } as const;

  constructor(
    private readonly runs: RunReader,
    private readonly vendors: Vendors,
    private readonly env: VendorEnv,
    private readonly worktrees: AgentWorktrees,
    /** The hosts' cores: the preview asks them about their agents' worktrees (docs/hosts.md). */
    private readonly remote: RemoteCores | null = null,
  ) {}

  /**
   * Everything resume needs, or a field-level error. An agent with a worktree is checked where its worktree is:
   * one that is there must be a worktree of its repository reached without a link that leads elsewhere (else the
   * whole resume is refused); one that is gone is re-created at the start, or its agent fails with the reason.
   */
  async resolve(text: string, cwd?: string, repoMap?: RepoMap, hostMap?: HostMap): Promise<ResumeTarget> {
    const decoded = this.decode(text, cwd, repoMap, hostMap);
    if (decoded.kind === 'caw' && !cwd) throw invalid('this handle carries no working directory; give one', 'cwd');
    const found = await this.assessWorktrees(decoded, repoMap);
    const cwds: string[] = [];
    for (const [i, a] of decoded.agents.entries()) {
      const where = found[i]!;
      if (where.handle?.state === 'refused')
        throw invalid(where.handle.reason, `agents[${i}].worktree.${where.handle.field}`);
      if (where.used?.state === 'refused')
        throw invalid(where.used.reason, `agents[${i}].worktree.${where.used.field}`);
      // A worktree to re-create (or gone for good) has no directory to check yet: the start checks the new one.
      // Nor has an agent on another host here: its host's core checks it when it starts (docs/hosts.md).
      if ((where.used && where.used.state !== 'existing') || a.host !== undefined) cwds.push(a.cwd ?? '');
      else
        cwds.push(
          await checkedDirectory(
            where.used?.state === 'existing' ? where.used.cwd : (a.cwd ?? cwd ?? ''),
            `agents[${i}].cwd`,
          ),
        );
    }
    const target = await this.plan(
      decoded,
      cwds,
      found.map((f) => f.used),
      hostMap,
    );
    // A known agent runs where the store recorded it, whatever the handle says: that directory must pass too.
    for (const p of target.agents) {
      if (p.known && !p.agent.host && (p.worktree === null || p.worktree.state === 'existing'))
        await checkedDirectory(p.agent.cwd, `agents[${p.index}].cwd`);
    }
    return target;
  }

  /** The plan of one agent again, in the directory its re-created worktree gave it. */
  async replan(
    runName: string,
    agent: AgentRecord,
    sessionId: string | null,
  ): Promise<Pick<PlannedAgent, 'plan' | 'found'>> {
    const { plan, found } = await planAgent(this.vendors, this.env, runName, agent, {
      id: agent.id,
      label: agent.label,
      vendor: agent.vendor,
      sessionId,
      cwd: agent.cwd,
    });
    return { plan, found };
  }

  /**
   * Per handle agent: its worktree as the handle names it (`handle`, checked even when the store's record is what
   * counts, so a handle naming a path that leads elsewhere is always refused) and the one it will use (`used`).
   */
  private async assessWorktrees(
    decoded: DecodedHandle,
    repoMap: RepoMap | undefined,
  ): Promise<{ handle: WorktreeAssessment | null; used: WorktreeAssessment | null }[]> {
    const existing = decoded.run ? this.runs.get(decoded.run.id) : undefined;
    const out: { handle: WorktreeAssessment | null; used: WorktreeAssessment | null }[] = [];
    for (const a of decoded.agents) {
      const known = existing?.agents.find((k) => k.id === a.id);
      // A worktree on another host is its host core's to find or re-create, when the agent resumes there.
      if (a.host !== undefined || known?.host !== undefined) {
        out.push({ handle: null, used: null });
        continue;
      }
      const handle = a.worktree && a.cwd ? await this.worktrees.assess(a.worktree, a.cwd, repoMap) : null;
      const used = known
        ? known.worktree
          ? await this.worktrees.assess(known.worktree, known.cwd, repoMap)
          : null
        : handle;
      out.push({ handle, used });
    }
    return out;
  }

  /**
   * What resume would do, for the preview: where each agent will really run and whether that directory is new to
   * this store. A directory that cannot be used is a per-agent finding with its reason, not an error; the preview
   * may name it, since the user is looking at the handle they pasted.
   */
  async preview(text: string, cwd?: string, repoMap?: RepoMap, hostMap?: HostMap): Promise<HandlePreview> {
    const decoded = this.decode(text, cwd, repoMap, hostMap);
    const found = await this.assessWorktrees(decoded, repoMap);
    const checks: (DirectoryCheck | null)[] = [];
    for (const [i, a] of decoded.agents.entries()) {
      const where = found[i]!.used;
      const dir = where?.state === 'existing' ? where.cwd : (a.cwd ?? cwd);
      // A worktree still to be re-created: its directory is made at the start, so there is nothing to check yet.
      checks.push(
        (where && where.state !== 'existing') || a.host !== undefined
          ? { ok: true, real: a.cwd ?? '/' }
          : dir
            ? await inspectDirectory(dir)
            : null,
      );
    }
    const usable = checks.map((c, i) => (c?.ok ? c.real : (decoded.agents[i]!.cwd ?? '/')));
    const target = await this.plan(
      decoded,
      usable,
      found.map((f) => f.used),
      hostMap,
    );
    const used = new Set(
      this.runs
        .peek()
        .flatMap((r) => r.agents.flatMap((a) => [a.cwd, ...(a.worktree ? [a.worktree.worktreePath] : [])])),
    );
    const agents: HandlePreviewAgent[] = [];
    for (const p of target.agents) {
      const shown = await previewAgent(p, decoded.agents[p.index]!, checks[p.index] ?? null, used);
      // A handle's worktree path that leads elsewhere is refused by the resume: the preview says so, as a directory it cannot use.
      const refused = [found[p.index]!.handle, p.worktree].find((w) => w?.state === 'refused');
      if (refused?.state === 'refused')
        agents.push({ ...shown, cwdProblem: refused.reason, check: 'cwd-unsafe', command: [] });
      else agents.push(shown);
    }
    // An agent on another host: its worktree as its host's core finds it now (all hosts asked at once).
    await Promise.all(
      target.agents.map(async (p, i) => {
        const { host, worktree } = p.agent;
        if (host && worktree && this.remote)
          agents[i] = { ...agents[i]!, worktree: await previewRemoteWorktree(this.remote, host, worktree) };
      }),
    );
    return {
      kind: decoded.kind,
      runName: target.runName,
      runId: decoded.run ? target.runId : null,
      knownRun: target.knownRun,
      needsCwd: decoded.kind === 'caw',
      agents,
    };
  }

  /**
   * A handle as text: a bare id is looked up in the store, anything else goes to `decodeHandle` with each adapter's
   * id pattern. A caw handle takes the directory the user gave.
   */
  private decode(text: string, cwd: string | undefined, repoMap?: RepoMap, hostMap?: HostMap): DecodedHandle {
    const decoded = mapHosts(this.decodeText(text, cwd), hostMap);
    if (!repoMap) return decoded;
    // An agent without a worktree in a repository that moved follows it (one with a worktree: assess).
    return {
      ...decoded,
      agents: decoded.agents.map((a) => (a.worktree || a.cwd === null ? a : { ...a, cwd: mapPath(a.cwd, repoMap) })),
    };
  }

  private decodeText(text: string, cwd: string | undefined): DecodedHandle {
    const bare = text.trim();
    if (BARE_SESSION_ID.test(bare) && !bare.startsWith('baton')) {
      const known = this.runs.findAgentBySessionId(bare);
      if (!known) throw invalid('not a Baton handle, and no run in the history has that session id');
      const agent = known.run.agents.find((a) => a.id === known.agentId)!;
      return {
        kind: 'agent',
        run: { name: known.run.name, id: known.run.id },
        createdAt: null,
        agents: [{ id: agent.id, label: agent.label, vendor: agent.vendor, sessionId: bare, cwd: agent.cwd }],
      };
    }
    const decoded = decodeHandle(text, this.rules);
    if (decoded.kind === 'caw' && cwd) return { ...decoded, agents: decoded.agents.map((a) => ({ ...a, cwd })) };
    return decoded;
  }

  /**
   * Per agent: known to the store (same run id and agents; the run may not grow past its limit) or a new record (a
   * new run name if taken: `demo (2)`), and its plan. `cwds` are the directories the handle's agents would use.
   */
  private async plan(
    decoded: DecodedHandle,
    cwds: readonly string[],
    worktrees: readonly (WorktreeAssessment | null)[],
    hostMap?: HostMap,
  ): Promise<ResumeTarget> {
    const existing = decoded.run ? this.runs.get(decoded.run.id) : undefined;
    const runId = existing?.id ?? decoded.run?.id ?? newRunId();
    const firstVendor = decoded.agents[0]?.vendor ?? 'agent';
    const runName =
      existing?.name ??
      uniqueRunName(
        decoded.run?.name ?? `imported ${firstVendor} session`,
        (n) => this.runs.findByName(n) !== undefined,
      );
    const labels: string[] = existing ? existing.agents.map((a) => a.label) : [];
    const adding = decoded.agents.filter((h) => !existing?.agents.some((a) => a.id === h.id)).length;
    // Resuming into a run the store knows adds the agents it lacks: the run's limit holds there too.
    if (existing) checkRoom(existing.agents.length, adding, 'agents');
    const agents: PlannedAgent[] = [];
    for (const [i, h] of decoded.agents.entries()) {
      const known = existing?.agents.find((a) => a.id === h.id);
      const record = known ? structuredClone(known) : this.newRecord(h, cwds[i]!, labels, i);
      if (!known) labels.push(record.label);
      // The store's host of a known agent follows the user's mapping too (another alias for the same machine).
      if (record.host && hostMap?.[record.host]) record.host = hostMap[record.host];
      const worktree = worktrees[i] ?? null;
      // Planned where it will really run: its worktree as found now (moved, or in a repository repoMap names).
      if (worktree?.state === 'existing' && record.worktree) {
        record.cwd = worktree.cwd;
        record.worktree = {
          ...record.worktree,
          repoRoot: worktree.repoRoot,
          worktreePath: worktree.worktreePath,
          branch: worktree.branch,
        };
      }
      agents.push({
        ...(await planAgent(this.vendors, this.env, runName, record, h)),
        index: i,
        known: known !== undefined,
        worktree,
        sessionId: h.sessionId,
      });
    }
    return { runId, runName, knownRun: existing !== undefined, agents };
  }

  /** What a resume of the stopped run would find (docs/architecture.md §1 health), from the vendors' stores. */
  async health(
    run: RunManifest,
    isLive: (agentId: string) => boolean,
    batch: HealthBatch = new HealthBatch(),
  ): Promise<RunSummary['health']> {
    if (run.agents.some((a) => isLive(a.id))) return 'live';
    // `batch`: directory answers and vendor store indexes shared by the runs checked together (health-batch.ts).
    let health: RunSummary['health'] = 'resumable';
    for (const a of run.agents) {
      // An agent on another host: its directory and conversation are there, asked only when it resumes.
      if (a.host) continue;
      // A worktree that is gone is re-created from its branch at the resume: only its repository must be there.
      if (!(await batch.isDir(a.cwd)) && !(a.worktree && (await batch.isDir(a.worktree.repoRoot)))) return 'missing';
      const adapter = this.vendors.get(a.vendor);
      const last = a.sessionIds.at(-1);
      if (
        adapter?.sessionIdPattern &&
        last?.confirmed &&
        !(await batch.sessionExists(adapter, last.id, a.cwd, this.env))
      )
        health = 'stale';
    }
    return health;
  }

  private newRecord(h: HandleAgent, cwd: string, labels: readonly string[], i: number): AgentRecord {
    // An agent id already used by another run of the store would make two agents one: take a new one.
    const id = this.runs.peek().some((r) => r.agents.some((a) => a.id === h.id)) ? newAgentId() : h.id;
    return {
      id,
      label: uniqueLabel(h.label, labels, `agents[${i}].label`, false),
      vendor: h.vendor,
      cwd,
      args: [],
      command: null,
      sessionIds: [],
      status: 'stopped',
      exitCode: null,
      warning: null,
      startedAt: null,
      // Baton's own only once its ledger says so (the resume's start decides): never removed on a handle's word.
      ...(h.worktree ? { worktree: { ...h.worktree, created: false, baseBranch: null } } : {}),
      ...(h.host ? { host: h.host } : {}),
    };
  }
}

/** `path` under a repository root that `repoMap` moves, moved with it. */
function mapPath(path: string, repoMap: RepoMap): string {
  for (const [from, to] of Object.entries(repoMap)) {
    if (path === from) return to;
    if (path.startsWith(`${from}/`)) return `${to}${path.slice(from.length)}`;
  }
  return path;
}
