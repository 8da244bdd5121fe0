// Snapshots of a run: per agent its vendor, cwd, current vendor session id, status and screen (docs/architecture.md
// §1). Taken on demand, on an agent's exit, at quit, and periodically while output changes; each in the run's queue.
// Also the screens themselves: live from the terminals' mirrors, or as the last snapshot recorded them.
import type { Screen, SnapshotView } from '../../../shared/contract.js';
import type { CostService } from '../cost/cost-service.js';
import type { AgentTerminal } from '../pty/terminal.js';
import type { AgentRecord, RunManifest, StoredScreen } from '../store/types.js';
import { costText } from '../../../shared/cost-text.js';
import type { VendorEnv } from '../vendors/adapter.js';
import type { Vendors } from '../vendors/registry.js';
import { notFound } from './errors.js';
import { forkMarkOf } from './fork-marks.js';
import { newSnapshotId } from './ids.js';
import { logFailure, now, type RunRepository, type RunWriter } from './run-repository.js';
import { currentSessionId, worktreeView, type Announce } from './views.js';

/** How often the runs whose agents printed since their last snapshot are snapshotted. */
export const PERIODIC_SNAPSHOT_MS = 60_000;

/** What snapshots read of the agents' terminals (the supervisor's). */
export interface AgentTerminals {
  /** The agent's latest terminal, live or ended. */
  terminalOf(agentId: string): AgentTerminal | undefined;
  live(agentId: string): { readonly terminal: AgentTerminal } | undefined;
  liveRunIds(): Set<string>;
}

interface CapturedAt {
  terminalId: string;
  endOffset: number;
  cols: number;
  rows: number;
}

async function captureScreen(agent: AgentRecord, terminal: AgentTerminal): Promise<Screen> {
  const shot = await terminal.capture();
  return {
    agentId: agent.id,
    label: agent.label,
    cols: shot.cols,
    rows: shot.rows,
    text: shot.text,
    serialized: shot.serialized,
  };
}

export class Snapshots {
  private readonly periodic: NodeJS.Timeout;
  /** Per live agent: where its terminal stood when its screen was last captured into a snapshot. */
  private readonly lastCaptured = new Map<string, { snapshotId: string; at: CapturedAt }>();

  constructor(
    private readonly runs: RunRepository,
    private readonly terminals: AgentTerminals,
    private readonly vendors: Vendors,
    private readonly env: VendorEnv,
    private readonly announce: Announce,
    /** What the agents cost when a snapshot is taken (docs/cost.md). */
    private readonly cost?: CostService,
  ) {
    this.periodic = setInterval(() => {
      this.snapshotChangedRuns().catch((err: unknown) => logFailure('a periodic snapshot', err));
    }, PERIODIC_SNAPSHOT_MS);
    this.periodic.unref();
  }

  /** Queued behind the run's other changes. */
  async snapshot(ref: string, reason: SnapshotView['reason'] = 'user'): Promise<SnapshotView> {
    const run = this.runs.find(ref);
    return this.runs.enqueue(run.id, (writer) => this.takeSnapshot(writer, reason));
  }

  stopPeriodic(): void {
    clearInterval(this.periodic);
  }

  /** Before a handle is made of the run: its latest ids, confirmed where the vendors now hold them. */
  confirmed(runId: string): Promise<void> {
    return this.runs.enqueue(runId, (writer) => this.confirmSessions(writer));
  }

  /** The run's screens: live from the mirrors, or as its last snapshot recorded them. */
  async screens(ref: string, liveWanted: boolean): Promise<{ snapshotId: string | null; screens: Screen[] }> {
    const run = this.runs.find(ref);
    if (liveWanted) {
      const screens: Screen[] = [];
      for (const agent of run.agents) {
        const terminal = this.terminals.terminalOf(agent.id);
        if (terminal) screens.push(await captureScreen(agent, terminal));
      }
      return { snapshotId: null, screens };
    }
    if (!run.lastSnapshot) return { snapshotId: null, screens: [] };
    const snap = await this.runs.readSnapshot(run.id, run.lastSnapshot.id);
    return { snapshotId: run.lastSnapshot.id, screens: snap?.screens ?? [] };
  }

  /** One agent's screen: live, or from the run's last snapshot. */
  async agentScreen(agentId: string): Promise<Screen> {
    const { agent, run } = this.runs.findAgent(agentId);
    const terminal = this.terminals.terminalOf(agentId);
    if (terminal) return captureScreen(agent, terminal);
    const snap = run.lastSnapshot ? await this.runs.readSnapshot(run.id, run.lastSnapshot.id) : undefined;
    const stored = snap?.screens.find((s) => s.agentId === agentId);
    if (!stored) throw notFound(`agent '${agent.label}' is not running and no snapshot holds its screen`);
    return stored;
  }

  /**
   * Marks ids whose transcript the vendor now holds as confirmed. The follower polls, so a prompt answered just
   * before a snapshot could otherwise be recorded as "never written" and resumed as an empty session.
   */
  private async confirmSessions(writer: RunWriter): Promise<void> {
    const run = this.runs.get(writer.runId);
    if (!run) return;
    const found = new Set<string>();
    for (const a of run.agents) {
      const last = a.sessionIds.at(-1);
      const adapter = this.vendors.get(a.vendor);
      if (last && !last.confirmed && adapter && (await adapter.exists(last.id, a.cwd, this.env))) found.add(last.id);
    }
    if (found.size === 0) return;
    await writer.change((m) => {
      for (const a of m.agents) for (const s of a.sessionIds) if (found.has(s.id)) s.confirmed = true;
    });
  }

  private async takeSnapshot(writer: RunWriter, reason: SnapshotView['reason']): Promise<SnapshotView> {
    await this.confirmSessions(writer);
    const run = this.runs.get(writer.runId);
    if (!run) throw notFound('the run was deleted');
    const previous = run.lastSnapshot ? await this.runs.readSnapshot(run.id, run.lastSnapshot.id) : undefined;
    const screens: StoredScreen[] = [];
    const captured = new Map<string, CapturedAt>();
    for (const agent of run.agents) {
      const terminal = this.terminals.terminalOf(agent.id);
      const kept = previous?.screens.find((s) => s.agentId === agent.id);
      if (terminal && !(kept && this.unchangedSince(previous?.snapshot.id, agent.id, terminal))) {
        // Read before the capture: the screen holds at least every byte up to here.
        const at = { terminalId: terminal.id, endOffset: terminal.endOffset, cols: terminal.cols, rows: terminal.rows };
        screens.push(await captureScreen(agent, terminal));
        captured.set(agent.id, at);
      } else if (kept) {
        screens.push(kept);
        if (terminal) captured.set(agent.id, this.lastCaptured.get(agent.id)!.at);
      }
    }
    const cost = await this.costNow(run);
    const snapshot: SnapshotView = {
      id: newSnapshotId(),
      at: now(),
      reason,
      ...(cost ? { cost: cost.total } : {}),
      agents: await Promise.all(
        run.agents.map(async (a) => {
          const fork = await forkMarkOf(a, this.vendors, this.env);
          return {
            agentId: a.id,
            label: a.label,
            vendor: a.vendor,
            cwd: a.cwd,
            sessionId: currentSessionId(a),
            status: a.status,
            ...(a.worktree ? { worktree: worktreeView(a) } : {}),
            ...(fork ? { fork } : {}),
            ...(cost?.agents.has(a.id) ? { cost: cost.agents.get(a.id) } : {}),
          };
        }),
      ),
    };
    await writer.writeSnapshot(snapshot, screens);
    for (const [agentId, at] of captured) this.lastCaptured.set(agentId, { snapshotId: snapshot.id, at });
    await writer.change((m) => {
      m.lastSnapshot = { id: snapshot.id, at: snapshot.at };
      m.updatedAt = snapshot.at;
    });
    await this.runs.history(run.id, {
      type: 'snapshot',
      snapshotId: snapshot.id,
      message: `snapshot (${reason}) of ${screens.length} screen${screens.length === 1 ? '' : 's'}${cost ? ` · ${costText(cost.total)}` : ''}`,
    });
    this.announce('run.changed', { runId: run.id });
    return snapshot;
  }

  /** The cost of the run now; a cost that cannot be read never stops a snapshot. */
  private async costNow(run: RunManifest): Promise<Awaited<ReturnType<CostService['totals']>> | null> {
    if (!this.cost) return null;
    try {
      return await this.cost.totalsOnce(run);
    } catch (err) {
      logFailure(`reading the cost of run '${run.name}'`, err);
      return null;
    }
  }

  /**
   * Whether the agent's screen in snapshot `snapshotId` is still its terminal's: no byte and no resize since it was
   * captured. A periodic snapshot of a 25-agent run where one agent printed then reads one screen, not 25 (each a
   * serialization of the whole scrollback on the mirrors' thread).
   */
  private unchangedSince(snapshotId: string | undefined, agentId: string, terminal: AgentTerminal): boolean {
    const last = this.lastCaptured.get(agentId);
    return (
      last !== undefined &&
      last.snapshotId === snapshotId &&
      last.at.terminalId === terminal.id &&
      last.at.endOffset === terminal.endOffset &&
      last.at.cols === terminal.cols &&
      last.at.rows === terminal.rows
    );
  }

  private async snapshotChangedRuns(): Promise<void> {
    for (const runId of this.terminals.liveRunIds()) {
      const run = this.runs.get(runId);
      if (!run) continue;
      const since = run.lastSnapshot ? Date.parse(run.lastSnapshot.at) : 0;
      const changed = run.agents.some((a) => (this.terminals.live(a.id)?.terminal.lastOutputAt ?? 0) > since);
      // Each run on its own: one that cannot be saved (a full disk is reported by the store) must not stop the rest.
      if (changed)
        await this.snapshot(runId, 'periodic').catch((err: unknown) =>
          logFailure(`a periodic snapshot of run '${run.name}'`, err),
        );
    }
  }
}
