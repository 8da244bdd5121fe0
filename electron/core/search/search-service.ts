// Search across every transcript (docs/search.md): the `search.*` requests of the core. The index lives in a worker
// thread (search-worker.ts) and is saved in the data directory; it never leaves the machine. This side knows the
// runs: which run and label holds a conversation, a run's conversations for the run filter, and resuming one.
import { join } from 'node:path';
import type { Params, RequestTable, Result, SearchStatus } from '../../../shared/contract.js';
import type { VendorName } from '../../../shared/words.js';
import { encodeHandle } from '../handle/codec.js';
import { reportFailure } from '../log.js';
import { conflict, notFound } from '../runs/errors.js';
import { newAgentId } from '../runs/ids.js';
import type { RunReader } from '../runs/run-repository.js';
import { adoptSessions } from '../runs/session-import.js';
import type { VendorEnv } from '../vendors/adapter.js';
import type { EngineResult, EngineTranscript } from './engine.js';
import { SearchWorkerClient } from './search-worker-client.js';

export type SearchMethod = 'search.query' | 'search.transcript' | 'search.status' | 'search.refresh' | 'search.resume';

/** How often the stores are looked at for new and grown transcripts while the core runs. */
export const SEARCH_REFRESH_MS = 10_000;
/**
 * How long a core runs before its index is started with no search asked for: a short-lived core (a CLI one-shot, a
 * test's `baton serve`) ends before it and never pays for the worker; a long-running one keeps its index current.
 */
export const SEARCH_IDLE_START_MS = 30_000;
/** How long the first request waits for the first pass: with a saved index that pass is one stat a file. */
const FIRST_PASS_WAIT_MS = 2_000;
const DEFAULT_LIMIT = 50;

type Holder = Result<'search.query'>['results'][number]['holder'];

export interface SearchDeps {
  dataDir: string;
  env: VendorEnv;
  runs: Pick<RunReader, 'get' | 'list' | 'findByName' | 'findAgentBySessionId'>;
  resume(handle: string): Promise<Result<'run.resume'>>;
  announce(status: SearchStatus): void;
}

export class SearchService {
  private readonly worker: SearchWorkerClient;
  private timer: NodeJS.Timeout | null = null;
  private idleStart: NodeJS.Timeout | null = null;
  /** Settles once the worker was started and its first pass is done (or FIRST_PASS_WAIT_MS went by). */
  private started: Promise<void> | null = null;

  constructor(private readonly deps: SearchDeps) {
    this.worker = new SearchWorkerClient(join(deps.dataDir, 'search', 'index.sqlite'), (s) => deps.announce(s));
  }

  /**
   * Starts the index lazily (docs/search.md §4): at the first search request, or once the core has run
   * SEARCH_IDLE_START_MS, whichever comes first. From then on: a pass every SEARCH_REFRESH_MS.
   */
  start(): void {
    if (!this.worker.available() || this.started || this.idleStart) return;
    this.idleStart = setTimeout(() => {
      this.ensureStarted().catch((err: unknown) => reportFailure('starting the search index', err));
    }, SEARCH_IDLE_START_MS);
    this.idleStart.unref();
  }

  /** Starts the worker, its first pass and the periodic ones, once; resolves when that pass is done (or waited for). */
  private ensureStarted(): Promise<void> {
    if (this.started) return this.started;
    if (this.idleStart) clearTimeout(this.idleStart);
    this.idleStart = null;
    // From the sources (a test in the same process) there is no worker: each request answers so (worker client).
    if (!this.worker.available()) return Promise.resolve();
    const pass = (): Promise<void> =>
      this.refresh().then(
        () => undefined,
        (err: unknown) => reportFailure('refreshing the search index', err),
      );
    const first = pass();
    this.timer = setInterval(() => {
      pass().catch(() => undefined); // pass reports its own failure
    }, SEARCH_REFRESH_MS);
    this.timer.unref();
    // A first index that takes longer (no saved index yet) answers with what is indexed so far, as it always did.
    this.started = Promise.race([first, new Promise<void>((r) => setTimeout(r, FIRST_PASS_WAIT_MS).unref())]);
    return this.started;
  }

  /** A worker request, once the worker has started (this starts it at the first one). */
  private async ask<T>(req: Parameters<SearchWorkerClient['ask']>[0]): Promise<T> {
    await this.ensureStarted();
    return this.worker.ask<T>(req);
  }

  /** One pass; called by ensureStarted itself, so it asks the worker directly. */
  private refresh(): Promise<SearchStatus> {
    return this.worker.ask<SearchStatus>({ op: 'refresh', env: { ...this.deps.env } });
  }

  private holder(vendor: VendorName, sessionId: string): Holder {
    const known = this.deps.runs.findAgentBySessionId(sessionId);
    const agent = known?.run.agents.find((a) => a.id === known.agentId);
    return known && agent && agent.vendor === vendor
      ? { runId: known.run.id, runName: known.run.name, agentId: agent.id, label: agent.label }
      : null;
  }

  private runSessions(ref: string): { vendor: VendorName; sessionId: string }[] {
    const run = this.deps.runs.get(ref) ?? this.deps.runs.findByName(ref);
    if (!run) throw notFound(`no run named '${ref}'`);
    return run.agents.flatMap((a) => a.sessionIds.map((s) => ({ vendor: a.vendor, sessionId: s.id })));
  }

  private async resumeFound(p: Params<'search.resume'>): Promise<Result<'search.resume'>> {
    const holder = this.holder(p.vendor, p.sessionId);
    if (holder)
      throw conflict(
        `this conversation is already agent '${holder.label}' of run '${holder.runName}': resume that run`,
      );
    if ('newRun' in p.into) {
      const session = { vendor: p.vendor, sessionId: p.sessionId, cwd: p.cwd, ...(p.label ? { label: p.label } : {}) };
      return adoptSessions({ resume: (h) => this.deps.resume(h) }, this.deps.runs, {
        name: p.into.newRun,
        sessions: [session],
      });
    }
    const ref = p.into.run;
    const run = this.deps.runs.get(ref) ?? this.deps.runs.findByName(ref);
    if (!run) throw notFound(`no run named '${ref}'`);
    const labels = new Set(run.agents.map((a) => a.label));
    let label = p.label ?? p.vendor;
    if (labels.has(label)) {
      if (p.label) throw conflict(`run '${run.name}' already has an agent labelled '${label}'`);
      let n = 2;
      while (labels.has(`${p.vendor}-${n}`)) n++;
      label = `${p.vendor}-${n}`;
    }
    // A handle naming the run's own id adds the agents it lacks to that run (docs/architecture.md §5, step 7).
    const handle = encodeHandle({
      run: { name: run.name, id: run.id },
      createdAt: new Date().toISOString(),
      agents: [{ id: newAgentId(), label, vendor: p.vendor, sessionId: p.sessionId, cwd: p.cwd }],
    });
    return this.deps.resume(handle);
  }

  readonly requests: RequestTable<SearchMethod> = {
    'search.query': async (p) => {
      const sessions = p.run === undefined ? undefined : this.runSessions(p.run);
      const found = await this.ask<{
        results: EngineResult[];
        total: number;
        capped: boolean;
        status: SearchStatus;
      }>({
        op: 'query',
        query: {
          text: p.text,
          limit: p.limit ?? DEFAULT_LIMIT,
          ...(p.vendor ? { vendor: p.vendor } : {}),
          ...(sessions ? { sessions } : {}),
          ...(p.dir ? { dir: p.dir } : {}),
        },
      });
      return { ...found, results: found.results.map((r) => ({ ...r, holder: this.holder(r.vendor, r.sessionId) })) };
    },
    'search.transcript': async (p) => {
      const t = await this.ask<EngineTranscript | null>({
        op: 'transcript',
        vendor: p.vendor,
        sessionId: p.sessionId,
        ...(p.messageId !== undefined ? { messageId: p.messageId } : {}),
      });
      if (!t) throw notFound(`no ${p.vendor} conversation with that id in the search index: search again`);
      return { ...t, holder: this.holder(t.vendor, t.sessionId) };
    },
    'search.status': () => this.ask<SearchStatus>({ op: 'status' }),
    'search.refresh': async () => {
      await this.ensureStarted();
      return this.refresh();
    },
    'search.resume': (p) => this.resumeFound(p),
  };

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.idleStart) clearTimeout(this.idleStart);
    this.timer = null;
    this.idleStart = null;
    await this.worker.close();
  }
}
