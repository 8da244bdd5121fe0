// Snapshots of a run: per agent its vendor, cwd, current vendor session id, status and screen.
// Taken on demand, on an agent's exit, at quit, and periodically while output changes.
import type { Screen, SnapshotView } from '../../../shared/contract.js';
import type { Terminal } from '../pty/terminal.js';
import type { AgentRecord, StoredScreen } from '../store/types.js';
import { notFound } from './errors.js';
import { newSnapshotId } from './ids.js';
import { findRun, logFailure, now, type RunContext } from './run-context.js';
import { currentSessionId } from './views.js';

const PERIODIC_SNAPSHOT_MS = 60_000;

/** What snapshots read of the agents' terminals. */
export interface AgentTerminals {
  /** The agent's latest terminal, live or ended. */
  terminalOf(agentId: string): Terminal | undefined;
  live(agentId: string): { readonly terminal: Terminal } | undefined;
  liveRunIds(): Set<string>;
}

export async function captureScreen(agent: AgentRecord, terminal: Terminal): Promise<Screen> {
  const shot = await terminal.capture();
  return { agentId: agent.id, label: agent.label, cols: shot.cols, rows: shot.rows, text: shot.text, serialized: shot.serialized };
}

export class Snapshots {
  private readonly periodic: NodeJS.Timeout;

  constructor(
    private readonly ctx: RunContext,
    private readonly terminals: AgentTerminals,
  ) {
    this.periodic = setInterval(() => {
      this.snapshotChangedRuns().catch((err: unknown) => logFailure('a periodic snapshot', err));
    }, PERIODIC_SNAPSHOT_MS);
    this.periodic.unref();
  }

  /** Queued behind the run's other manifest changes. */
  async snapshot(ref: string, reason: SnapshotView['reason'] = 'user'): Promise<SnapshotView> {
    const run = findRun(this.ctx.store, ref);
    return this.ctx.queue.enqueue(run.id, () => this.takeSnapshot(run.id, reason));
  }

  stopPeriodic(): void {
    clearInterval(this.periodic);
  }

  /**
   * Marks ids whose transcript the vendor now holds as confirmed. The follower polls, so a prompt answered
   * just before a snapshot could otherwise be recorded as "never written" and resumed as an empty session.
   * Only from inside the run's queue.
   */
  async confirmSessions(runId: string): Promise<void> {
    const run = this.ctx.store.get(runId);
    if (!run) return;
    const found = new Set<string>();
    for (const a of run.agents) {
      const last = a.sessionIds.at(-1);
      const adapter = this.ctx.vendors.get(a.vendor);
      if (last && !last.confirmed && adapter && (await adapter.exists(last.id, a.cwd, this.ctx.env))) found.add(last.id);
    }
    if (found.size === 0) return;
    await this.ctx.queue.saveNow(runId, (m) => {
      for (const a of m.agents) for (const s of a.sessionIds) if (found.has(s.id)) s.confirmed = true;
    });
  }

  private async takeSnapshot(runId: string, reason: SnapshotView['reason']): Promise<SnapshotView> {
    const { store } = this.ctx;
    await this.confirmSessions(runId);
    const run = store.get(runId);
    if (!run) throw notFound('the run was deleted');
    const previous = run.lastSnapshot ? await store.readSnapshot(run.id, run.lastSnapshot.id) : undefined;
    const screens: StoredScreen[] = [];
    for (const agent of run.agents) {
      const terminal = this.terminals.terminalOf(agent.id);
      if (terminal) screens.push(await captureScreen(agent, terminal));
      else {
        const kept = previous?.screens.find((s) => s.agentId === agent.id);
        if (kept) screens.push(kept);
      }
    }
    const snapshot: SnapshotView = {
      id: newSnapshotId(),
      at: now(),
      reason,
      agents: run.agents.map((a) => ({ agentId: a.id, label: a.label, vendor: a.vendor, cwd: a.cwd, sessionId: currentSessionId(a), status: a.status })),
    };
    await store.writeSnapshot(run.id, snapshot, screens);
    const manifest = structuredClone(store.get(runId)!);
    manifest.lastSnapshot = { id: snapshot.id, at: snapshot.at };
    manifest.updatedAt = snapshot.at;
    await store.save(manifest);
    await store.appendEvent(runId, { at: now(), type: 'snapshot', snapshotId: snapshot.id, message: `snapshot (${reason}) of ${screens.length} screen${screens.length === 1 ? '' : 's'}` });
    this.ctx.emit('run.changed', { runId });
    return snapshot;
  }

  private async snapshotChangedRuns(): Promise<void> {
    for (const runId of this.terminals.liveRunIds()) {
      const run = this.ctx.store.get(runId);
      if (!run) continue;
      const since = run.lastSnapshot ? Date.parse(run.lastSnapshot.at) : 0;
      const changed = run.agents.some((a) => (this.terminals.live(a.id)?.terminal.lastOutputAt ?? 0) > since);
      // Each run on its own: one that cannot be saved (a full disk is reported by the store) must not stop the rest.
      if (changed) await this.snapshot(runId, 'periodic').catch((err: unknown) => logFailure(`a periodic snapshot of run '${run.name}'`, err));
    }
  }
}
