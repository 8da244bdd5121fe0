// Every agent's attention state (docs/attention.md): one state machine per agent, fed by its vendor's signals (hook
// reports on the hook socket, an event stream the adapter follows), by its screen where the vendor has no signal, by
// the user's keys, and by its terminal's end. Announces `agent.state`; answers `attention.*`.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AgentAttention, AgentAttentionEntry, RequestTable } from '../../../shared/contract.js';
import type { AgentRecord } from '../store/types.js';
import type { VendorAdapter, VendorEnv } from '../vendors/adapter.js';
import type { RunRepository } from '../runs/run-repository.js';
import type { Announce } from '../runs/views.js';
import { changedSettings, settingsOf } from './attention-settings.js';
import { HOOK_ENV, type HookEnvelope } from './hook-protocol.js';
import type { HookAnswer } from './hook-protocol.js';
import { startHookServer, type HookServer } from './hook-server.js';
import { AttentionMachine } from './machine.js';
import { watchScreen, type WatchedTerminal } from './screen.js';
import { NO_ATTENTION, type AttentionFacts, type StateSignal } from './signals.js';

export type AttentionMethod = 'attention.list' | 'attention.settings' | 'attention.configure';

interface Tracked {
  runId: string;
  vendor: string;
  facts: AttentionFacts;
  machine: AttentionMachine;
  /** SHA-256 of the agent's secret while its terminal lives (compared in constant time); null once it ended. */
  digest: Buffer | null;
  stop: (() => void)[];
  /** It runs on another host: its signals reach that host's core, never this one's hook socket. */
  remote: boolean;
  /** Its state comes from its host's core (relayed): this side reads nothing itself. */
  relayed: boolean;
}

const digestOf = (secret: string) => createHash('sha256').update(secret, 'utf8').digest();
const nowIso = () => new Date().toISOString();

export class AttentionService {
  private readonly agents = new Map<string, Tracked>();
  private server: HookServer | null = null;

  constructor(
    private readonly runs: RunRepository,
    private readonly announce: Announce,
    private readonly env: VendorEnv,
    /** The argv that runs `baton hook` (hook-launcher.ts). */
    private readonly launcher: readonly string[],
  ) {}

  /** Opens the hook socket in the data directory. Without it, agents fall back to what their screens show. */
  async open(dataDir: string): Promise<void> {
    try {
      this.server = await startHookServer(dataDir, (report) => this.receive(report));
    } catch (err) {
      process.stderr.write(
        `baton: the hook socket could not be opened (${(err as Error).message}); agent states will be read from their screens\n`,
      );
    }
  }

  async close(): Promise<void> {
    for (const t of this.agents.values()) t.stop.splice(0).forEach((f) => f());
    await this.server?.close();
    this.server = null;
  }

  /**
   * Before a spawn: a fresh state and secret for the agent, and what the spawn needs to report (argv words after the
   * binary, environment). The secret goes in the environment only, never in argv (which any user can read).
   */
  prepare(runId: string, agentId: string, adapter: VendorAdapter): { args: string[]; env: Record<string, string> } {
    this.forget(agentId);
    const facts = adapter.attention ?? NO_ATTENTION;
    const secret = randomBytes(32).toString('hex');
    this.agents.set(agentId, {
      runId,
      vendor: adapter.vendor,
      facts,
      machine: new AttentionMachine(facts.source, facts.nativeStates, nowIso()),
      digest: digestOf(secret),
      stop: [],
      remote: false,
      relayed: false,
    });
    const server = this.server;
    if (!server) return { args: [], env: {} };
    return {
      args: facts.wire ? facts.wire({ launcher: this.launcher }) : [],
      env: { [HOOK_ENV.socket]: server.path, [HOOK_ENV.agent]: agentId, [HOOK_ENV.secret]: secret },
    };
  }

  /**
   * Before a remote agent's launch (docs/hosts.md): its host's core knows its state and relays it (`relayed`). Until
   * then, and for good when that core is older, it is read from its screen here: every state inferred.
   */
  prepareRemote(
    runId: string,
    agentId: string,
    adapter: VendorAdapter,
  ): { args: string[]; env: Record<string, string> } {
    this.forget(agentId);
    const screen = adapter.attention?.screen;
    const facts: AttentionFacts = screen ? { source: 'screen', nativeStates: [], screen } : NO_ATTENTION;
    this.agents.set(agentId, {
      runId,
      vendor: adapter.vendor,
      facts,
      machine: new AttentionMachine(facts.source, facts.nativeStates, nowIso()),
      digest: null,
      stop: [],
      remote: true,
      relayed: false,
    });
    return { args: [], env: {} };
  }

  /** A remote agent's state as its host's core announced it: from now on the only source of its state. */
  relayed(agentId: string, view: AgentAttention): void {
    const t = this.agents.get(agentId);
    if (!t?.remote) return;
    if (!t.relayed) {
      t.relayed = true;
      t.stop.splice(0).forEach((f) => f());
    }
    if (t.machine.adopt(view)) this.announceState(agentId, t);
  }

  /** After the spawn: the screen watch (for the states the vendor does not signal) and the adapter's own channel. */
  started(agentId: string, terminal: WatchedTerminal, hints: Readonly<Record<string, string>>): void {
    const t = this.agents.get(agentId);
    if (!t) return;
    this.announceState(agentId, t);
    if (t.relayed) return;
    if (t.facts.screen) t.stop.push(watchScreen(terminal, t.facts.screen, (s) => this.signal(agentId, s, 'screen')));
    if (t.facts.watch && !t.remote)
      t.stop.push(t.facts.watch(hints, this.env, (s) => this.signal(agentId, s, 'native')));
  }

  /** What the user typed into the agent's terminal. */
  input(agentId: string, data: string): void {
    const t = this.agents.get(agentId);
    if (t?.machine.input(data, nowIso())) this.announceState(agentId, t);
  }

  exited(agentId: string): void {
    const t = this.agents.get(agentId);
    if (!t) return;
    t.digest = null;
    t.stop.splice(0).forEach((f) => f());
    if (t.machine.exited(nowIso())) this.announceState(agentId, t);
  }

  /** The agent's state as clients see it; an agent not started since this core opened has exited (or never ran). */
  view(agent: AgentRecord): AgentAttention {
    const t = this.agents.get(agent.id);
    if (t) return t.machine.view;
    const since = agent.startedAt ?? new Date(0).toISOString();
    return { state: 'exited', since, asks: null, inferred: false, episode: 0, source: 'none' };
  }

  /** A report from the hook socket: its agent's secret must match, in constant time; then its vendor reads it. */
  receive(report: HookEnvelope): HookAnswer {
    const t = this.agents.get(report.agent);
    const given = digestOf(report.secret);
    // Compared even when the agent is unknown (against a digest of nothing), so the answer's timing tells nothing.
    const expected = t?.digest ?? digestOf('');
    const match = timingSafeEqual(given, expected) && t !== undefined && t.digest !== null;
    if (!match || t.vendor !== report.vendor || !t.facts.parseReport) return 'refused';
    const signal = t.facts.parseReport({ stdin: report.stdin, arg: report.arg });
    if (signal) this.signal(report.agent, signal, 'native');
    return 'ok';
  }

  readonly requests: RequestTable<AttentionMethod> = {
    'attention.list': async () => {
      const out: AgentAttentionEntry[] = [];
      // The store's own manifests, not copies: a history of 10,000 runs was cloned whole at every page open.
      for (const run of this.runs.peek())
        for (const a of run.agents) {
          const t = this.agents.get(a.id);
          if (t && t.machine.view.state !== 'exited')
            out.push({
              runId: run.id,
              runName: run.name,
              agentId: a.id,
              label: a.label,
              vendor: a.vendor,
              attention: t.machine.view,
            });
        }
      return out;
    },
    'attention.settings': async ({ run }) => settingsOf(this.runs.find(run)),
    'attention.configure': async (change) => {
      const run = this.runs.find(change.run);
      let next = changedSettings(run, change);
      await this.runs.update(run.id, (m) => {
        next = changedSettings(m, change);
        m.attention = next;
      });
      this.announce('run.attention', { runId: run.id, settings: next });
      return next;
    },
  };

  private signal(agentId: string, signal: StateSignal, origin: 'native' | 'screen'): void {
    const t = this.agents.get(agentId);
    if (t?.machine.apply(signal, origin, nowIso())) this.announceState(agentId, t);
  }

  private announceState(agentId: string, t: Tracked): void {
    this.announce('agent.state', { runId: t.runId, agentId, attention: t.machine.view });
  }

  /** A new terminal for the agent: the old one's watches end and its secret no longer counts. */
  private forget(agentId: string): void {
    const t = this.agents.get(agentId);
    if (!t) return;
    t.stop.splice(0).forEach((f) => f());
    this.agents.delete(agentId);
  }
}
