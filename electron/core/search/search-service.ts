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

  constructor(private readonly deps: SearchDeps) {
    this.worker = new SearchWorkerClient(join(deps.dataDir, 'search', 'index.sqlite'), (s) => deps.announce(s));
  }

  /** The first pass now, then one every SEARCH_REFRESH_MS (the paths the watched folders named; a full one at times). */
  start(): void {
    if (!this.worker.available()) return;
    const pass = (): void => {
      this.refresh().catch((err: unknown) => reportFailure('refreshing the search index', err));
    };
    pass();
    this.timer = setInterval(pass, SEARCH_REFRESH_MS);
    this.timer.unref();
  }

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
      const found = await this.worker.ask<{
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
      const t = await this.worker.ask<EngineTranscript | null>({
        op: 'transcript',
        vendor: p.vendor,
        sessionId: p.sessionId,
        ...(p.messageId !== undefined ? { messageId: p.messageId } : {}),
      });
      if (!t) throw notFound(`no ${p.vendor} conversation with that id in the search index: search again`);
      return { ...t, holder: this.holder(t.vendor, t.sessionId) };
    },
    'search.status': () => this.worker.ask<SearchStatus>({ op: 'status' }),
    'search.refresh': () => this.refresh(),
    'search.resume': (p) => this.resumeFound(p),
  };

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.worker.close();
  }
}
