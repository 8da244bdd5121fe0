// From a pasted handle to what resume will do, per agent: validated in full before anything runs.
import type { HandlePreview, SessionCheck } from '../../../shared/contract.js';
import { decodeHandle, type DecodedHandle, type HandleAgent } from '../handle/codec.js';
import type { RunStore } from '../store/run-store.js';
import type { AgentRecord, RunManifest } from '../store/types.js';
import type { PriorSession, SpawnPlan, VendorEnv } from '../vendors/adapter.js';
import { getAdapter } from '../vendors/registry.js';
import { invalid } from './errors.js';
import { newAgentId, newRunId } from './ids.js';
import { currentSessionId } from './views.js';
import { checkedDirectory, uniqueLabel, uniqueRunName } from './validation.js';

export interface PlannedAgent {
  agent: AgentRecord;
  plan: SpawnPlan;
  check: SessionCheck;
}

export interface ResumeTarget {
  runId: string;
  runName: string;
  knownRun: boolean;
  agents: PlannedAgent[];
}

const rules = { sessionIdPattern: (vendor: Parameters<typeof getAdapter>[0]) => getAdapter(vendor)?.sessionIdPattern } as const;
/** A bare vendor session id: accepted only when the store already knows it. */
const BARE_SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{5,127}$/;

export class HandleResolver {
  constructor(
    private readonly store: RunStore,
    private readonly env: VendorEnv,
  ) {}

  /** Everything resume needs, or a field-level error; no process, no write. */
  async resolve(text: string, cwd?: string): Promise<ResumeTarget> {
    const decoded = this.decode(text, cwd);
    if (decoded.kind === 'caw' && !cwd) throw invalid('this handle carries no working directory; give one', 'cwd');
    const cwds: string[] = [];
    for (const [i, a] of decoded.agents.entries()) cwds.push(await checkedDirectory(a.cwd ?? cwd ?? '', `agents[${i}].cwd`));
    return this.plan(decoded, cwds);
  }

  /** What resume would do, for the preview; a missing directory is a per-agent finding, not an error. */
  async preview(text: string, cwd?: string): Promise<HandlePreview> {
    const decoded = this.decode(text, cwd);
    const cwds: (string | null)[] = [];
    for (const [i, a] of decoded.agents.entries()) {
      const dir = a.cwd ?? cwd;
      cwds.push(dir ? await checkedDirectory(dir, `agents[${i}].cwd`).catch(() => null) : null);
    }
    const usable = cwds.map((c, i) => c ?? decoded.agents[i]!.cwd ?? '/');
    const target = await this.plan(decoded, usable);
    return {
      kind: decoded.kind,
      runName: target.runName,
      runId: decoded.run ? target.runId : null,
      knownRun: target.knownRun,
      needsCwd: decoded.kind === 'caw',
      agents: target.agents.map((p, i) => ({
        label: p.agent.label,
        vendor: p.agent.vendor,
        cwd: decoded.agents[i]!.cwd ?? cwd ?? null,
        sessionId: decoded.agents[i]!.sessionId,
        check: cwds[i] === null ? 'cwd-missing' : p.check,
        command: cwds[i] === null ? [] : p.plan.argv,
      })),
    };
  }

  private decode(text: string, cwd: string | undefined): DecodedHandle {
    const bare = text.trim();
    if (BARE_SESSION_ID.test(bare) && !bare.startsWith('baton')) {
      const known = this.store.findAgentBySessionId(bare);
      if (!known) throw invalid('not a Baton handle, and no run in the history has that session id');
      const agent = known.run.agents.find((a) => a.id === known.agentId)!;
      return {
        kind: 'agent',
        run: { name: known.run.name, id: known.run.id },
        createdAt: null,
        agents: [{ id: agent.id, label: agent.label, vendor: agent.vendor, sessionId: bare, cwd: agent.cwd }],
      };
    }
    const decoded = decodeHandle(text, rules);
    if (decoded.kind === 'caw' && cwd) return { ...decoded, agents: decoded.agents.map((a) => ({ ...a, cwd })) };
    return decoded;
  }

  private async plan(decoded: DecodedHandle, cwds: readonly string[]): Promise<ResumeTarget> {
    const existing = decoded.run ? this.store.get(decoded.run.id) : undefined;
    const runId = existing?.id ?? decoded.run?.id ?? newRunId();
    const firstVendor = decoded.agents[0]?.vendor ?? 'agent';
    const runName =
      existing?.name ??
      uniqueRunName(decoded.run?.name ?? `imported ${firstVendor} session`, (n) => this.store.findByName(n) !== undefined);
    const labels: string[] = existing ? existing.agents.map((a) => a.label) : [];
    const agents: PlannedAgent[] = [];
    for (const [i, h] of decoded.agents.entries()) {
      const known = existing?.agents.find((a) => a.id === h.id);
      const record = known ? structuredClone(known) : this.newRecord(h, cwds[i]!, labels, i);
      if (!known) labels.push(record.label);
      agents.push(await this.planAgent(runName, record, h));
    }
    return { runId, runName, knownRun: existing !== undefined, agents };
  }

  private newRecord(h: HandleAgent, cwd: string, labels: readonly string[], i: number): AgentRecord {
    // An agent id already used by another run of the store would make two agents one: take a new one.
    const id = this.store.list().some((r: RunManifest) => r.agents.some((a) => a.id === h.id)) ? newAgentId() : h.id;
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
    };
  }

  private async planAgent(runName: string, agent: AgentRecord, h: HandleAgent): Promise<PlannedAgent> {
    const adapter = getAdapter(agent.vendor)!;
    const ctx = { runName, label: agent.label, cwd: agent.cwd, args: agent.args, command: agent.command };
    if (h.sessionId === null || adapter.sessionIdPattern === null) {
      return { agent, plan: await adapter.planResume(ctx, { sessionId: '', chosenBy: 'baton', confirmed: false }, this.env), check: 'no-session' };
    }
    // What the store remembers of this id decides between "never written: same id again" and "gone: fresh".
    const remembered = agent.sessionIds.find((s) => s.id === h.sessionId);
    const prior: PriorSession = remembered
      ? { sessionId: h.sessionId, chosenBy: remembered.chosenBy, confirmed: remembered.confirmed }
      : { sessionId: h.sessionId, chosenBy: 'vendor', confirmed: true };
    const found = await adapter.exists(h.sessionId, agent.cwd, this.env);
    const plan = await adapter.planResume(ctx, prior, this.env);
    if (currentSessionId(agent) !== h.sessionId && !remembered) {
      agent.sessionIds.push({ id: h.sessionId, chosenBy: 'vendor', seenAt: new Date().toISOString(), confirmed: found });
    }
    return { agent, plan, check: found ? 'found' : 'missing' };
  }
}
