// Codex's usage (docs/cost.md): the rollout records a `token_count` event after each model call, with the call's own
// `last_token_usage` and the process's running `total_token_usage`; `turn_context` names the model. Codex repeats a
// token_count when only its rate limits changed: an unchanged total is that repeat, and is skipped. OpenAI counts
// cached tokens (read and, from 0.169, written) inside `input_tokens` and reasoning inside `output_tokens`.
import type { VendorEnv } from '../adapter.js';
import { isRecord } from '../kit/jsonl.js';
import { count, JsonlUsageFiles, text, type LineParser, type UsageEntry, type UsageReading } from '../kit/usage.js';
import type { CodexStore } from './store.js';

interface CodexLines {
  model: string | null;
  /** The last running total seen, to tell a repeat from a new call and, without a per-call figure, its growth. */
  lastTotal: UsageEntry | null;
}

function entryOf(u: Record<string, unknown>, model: string | null): UsageEntry {
  const cached = count(u.cached_input_tokens);
  const written = count(u.cache_write_input_tokens);
  return {
    key: null,
    model,
    input: Math.max(0, count(u.input_tokens) - cached - written),
    output: count(u.output_tokens),
    cacheRead: cached,
    cacheWrite: written,
    recordedUsd: null,
  };
}

const sum = (e: UsageEntry) => e.input + e.output + e.cacheRead + e.cacheWrite;
const same = (a: UsageEntry, b: UsageEntry) =>
  a.input === b.input && a.output === b.output && a.cacheRead === b.cacheRead && a.cacheWrite === b.cacheWrite;

/** The usage entry one rollout line adds, keeping the model and the running total in `state`. */
export function codexUsageOf(state: CodexLines, line: unknown): UsageEntry | null {
  if (!isRecord(line) || !isRecord(line.payload)) return null;
  const p = line.payload;
  if (line.type === 'turn_context') {
    state.model = text(p.model) ?? state.model;
    return null;
  }
  if (line.type !== 'event_msg' || p.type !== 'token_count' || !isRecord(p.info)) return null;
  const total = isRecord(p.info.total_token_usage) ? entryOf(p.info.total_token_usage, state.model) : null;
  const last = isRecord(p.info.last_token_usage) ? entryOf(p.info.last_token_usage, state.model) : null;
  const before = state.lastTotal;
  if (total && before && same(total, before)) return null; // a repeat: only the rate limits changed
  if (total) state.lastTotal = total;
  if (last) return last;
  if (!total) return null;
  // No per-call figure: the growth of the running total (a new process starts its own total from zero).
  if (!before || sum(total) < sum(before)) return total;
  return {
    ...total,
    input: Math.max(0, total.input - before.input),
    output: Math.max(0, total.output - before.output),
    cacheRead: Math.max(0, total.cacheRead - before.cacheRead),
    cacheWrite: Math.max(0, total.cacheWrite - before.cacheWrite),
  };
}

export const CODEX_LINES: LineParser<CodexLines> = {
  init: () => ({ model: null, lastTotal: null }),
  line: codexUsageOf,
  answer: (v) =>
    isRecord(v) &&
    v.type === 'response_item' &&
    isRecord(v.payload) &&
    v.payload.type === 'message' &&
    v.payload.role === 'assistant',
};

export class CodexUsage {
  private readonly files = new JsonlUsageFiles(CODEX_LINES);
  readonly costUnknownBecause = null;

  constructor(private readonly store: CodexStore) {}

  async read(sessionId: string, _cwd: string, env: VendorEnv): Promise<UsageReading> {
    const path = await this.store.findRollout(sessionId, env);
    if (path === null) return { kind: 'missing' };
    const source = await this.files.source(path);
    return source ? { kind: 'read', sources: [source] } : { kind: 'missing' };
  }
}
