// The search worker thread (docs/search.md §4): owns the engine, so reading transcripts, indexing and querying never
// hold the core's event loop. Requests come as {id, op, …} and get {id, ok, value | error}; progress goes out as
// {event: 'progress', status}. One refresh pass runs at a time; asks during a pass share the next one.
import { parentPort, workerData } from 'node:worker_threads';
import type { SearchStatus } from '../../../shared/contract.js';
import type { VendorName } from '../../../shared/words.js';
import type { VendorEnv } from '../vendors/adapter.js';
import { transcriptSources } from '../vendors/registry.js';
import { SearchEngine, type EngineQuery } from './engine.js';
import { progressNews } from './progress-news.js';

export type WorkerRequest =
  | { id: number; op: 'refresh'; env: VendorEnv; full?: boolean }
  | { id: number; op: 'query'; query: EngineQuery }
  | { id: number; op: 'transcript'; vendor: VendorName; sessionId: string; messageId?: number }
  | { id: number; op: 'status' }
  | { id: number; op: 'save' };

/** The longest the index goes unsaved after it changed. */
const SAVE_DELAY_MS = 30_000;

const port = parentPort;
if (!port) throw new Error('search-worker runs as a worker thread');
const { file } = workerData as { file: string | null };

const engine = SearchEngine.open(file, transcriptSources());
// A failure to open is answered to each request (answer); it must not end the thread before the first one.
engine.catch(() => undefined);
let running: Promise<unknown> | null = null;
let next: Promise<unknown> | null = null;
let saveTimer: NodeJS.Timeout | null = null;
/** Progress goes out only when it is news: an idle core's periodic passes that read nothing tell no one. */
const tellProgress = progressNews((status) => port.postMessage({ event: 'progress', status }));

function saveSoon(e: SearchEngine): void {
  saveTimer ??= setTimeout(() => {
    saveTimer = null;
    try {
      e.save();
    } catch (err) {
      e.status.error = `could not save the index (${(err as { code?: string }).code ?? 'error'})`;
    }
  }, SAVE_DELAY_MS);
}

async function refresh(e: SearchEngine, env: VendorEnv, full: boolean): Promise<unknown> {
  if (running) {
    next ??= running.then(() => {
      next = null;
      return refresh(e, env, full);
    });
    return next;
  }
  running = e
    .refresh(env, tellProgress, !full)
    .then(() => {
      tellProgress({ ...e.status });
      saveSoon(e);
      return e.status;
    })
    .finally(() => {
      running = null;
    });
  return running;
}

/** What `search.status` says when the index cannot be opened (sql.js failed to load, say). */
function failed(err: unknown): SearchStatus {
  return {
    state: 'failed',
    done: 0,
    total: 0,
    files: 0,
    messages: 0,
    indexBytes: 0,
    refreshedAt: null,
    error: `the index could not be opened (${err instanceof Error ? err.name : 'error'})`,
  };
}

async function answer(req: WorkerRequest): Promise<unknown> {
  let e: SearchEngine;
  try {
    e = await engine;
  } catch (err) {
    if (req.op === 'status' || req.op === 'refresh') return failed(err);
    throw new Error(failed(err).error ?? 'the index could not be opened');
  }
  switch (req.op) {
    case 'refresh':
      return refresh(e, req.env, req.full === true);
    case 'query':
      return { ...e.query(req.query), status: e.status };
    case 'transcript':
      return e.transcript(req.vendor, req.sessionId, req.messageId);
    case 'status':
      return e.status;
    case 'save':
      if (saveTimer) clearTimeout(saveTimer);
      saveTimer = null;
      return e.save();
  }
}

port.on('message', (req: WorkerRequest) => {
  answer(req).then(
    (value) => port.postMessage({ id: req.id, ok: true, value }),
    (err: unknown) => port.postMessage({ id: req.id, ok: false, error: err instanceof Error ? err.message : 'failed' }),
  );
});
