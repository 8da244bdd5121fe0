// Session import (the adapters' `listSessions`): the conversations in the vendors' own stores on this machine,
// and their adoption into a new run. Adoption builds a Baton handle from the chosen sessions and resumes it, so it
// goes through the same validation, preview logic and outcomes as any resume by handle.
import {
  BatonError,
  type FoundSession,
  type Params,
  type ResumeOutcome,
  type Result,
  type RunView,
} from '../../../shared/contract.js';
import type { VendorName } from '../../../shared/words.js';
import { encodeHandle, type HandleAgent } from '../handle/codec.js';
import type { RunStore } from '../store/run-store.js';
import type { VendorAdapter, VendorEnv } from '../vendors/adapter.js';
import { conflict, invalid } from './errors.js';
import { newAgentId, newRunId } from './ids.js';

/** How many sessions `sessions.list` returns when the request gives no limit. */
export const DEFAULT_SESSIONS_LIMIT = 200;

/** The store lookups session import needs (both return copies). */
export type SessionLookups = Pick<RunStore, 'findAgentBySessionId' | 'findByName'>;

type Listed = Omit<FoundSession, 'adoptedBy'>;

/** The kind of a failure, never its message (which may hold paths or session ids). */
function errorKind(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^[A-Z0-9_]{1,32}$/.test(code)) return code;
  return err instanceof Error ? err.name : typeof err;
}

function matches(s: Listed, words: readonly string[]): boolean {
  const haystack = [s.vendor, s.sessionId, s.cwd ?? '', s.title ?? '', s.firstPrompt ?? ''].join('\n').toLowerCase();
  return words.every((w) => haystack.includes(w));
}

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** The contract's form of a time (adapters give `toISOString()` already; anything else is normalised). */
function isoTime(text: string): string {
  if (ISO_UTC.test(text)) return text;
  const ms = Date.parse(text);
  return new Date(Number.isFinite(ms) ? ms : 0).toISOString();
}

/** The run holding this vendor session id, if any. */
function holderOf(
  store: Pick<RunStore, 'findAgentBySessionId'>,
  vendor: VendorName,
  sessionId: string,
): FoundSession['adoptedBy'] {
  const known = store.findAgentBySessionId(sessionId);
  if (!known) return null;
  const agent = known.run.agents.find((a) => a.id === known.agentId);
  return agent && agent.vendor === vendor ? { runId: known.run.id, runName: known.run.name } : null;
}

/**
 * Every adapter's `listSessions`, at once; an adapter that fails is skipped (and said so on stderr, without the
 * error's text). Filtered by vendor and query (every word in the vendor, id, directory, title or first prompt),
 * newest first, cut to `limit`; only the sessions returned are looked up in the store for `adoptedBy`.
 */
export async function listFoundSessions(
  env: VendorEnv,
  store: Pick<RunStore, 'findAgentBySessionId'>,
  params: Params<'sessions.list'>,
  sources: ReadonlyMap<VendorName, VendorAdapter>,
): Promise<Result<'sessions.list'>> {
  const started = performance.now();
  const listers = [...sources.values()].filter(
    (a) => a.listSessions && (params.vendor === undefined || a.vendor === params.vendor),
  );
  const lists = await Promise.all(
    listers.map(async (a): Promise<Listed[]> => {
      try {
        return (await a.listSessions!(env)).map((s) => ({ vendor: a.vendor, ...s }));
      } catch (err) {
        process.stderr.write(`baton: could not list ${a.vendor} sessions (${errorKind(err)}); skipped\n`);
        return [];
      }
    }),
  );
  const words = (params.query ?? '').trim().toLowerCase().split(/\s+/).filter(Boolean);
  const all = lists.flat().filter((s) => words.length === 0 || matches(s, words));
  all.sort((a, b) =>
    a.lastActivity !== b.lastActivity
      ? a.lastActivity < b.lastActivity
        ? 1
        : -1
      : a.vendor !== b.vendor
        ? a.vendor.localeCompare(b.vendor)
        : a.sessionId.localeCompare(b.sessionId),
  );
  const sessions = all
    .slice(0, params.limit ?? DEFAULT_SESSIONS_LIMIT)
    .map((s) => ({ ...s, lastActivity: isoTime(s.lastActivity), adoptedBy: holderOf(store, s.vendor, s.sessionId) }));
  return { sessions, total: all.length, scannedMs: Math.round((performance.now() - started) * 10) / 10 };
}

/** Errors about the handle's `agents[i]` are about the request's `sessions[i]`. */
function asSessionsError(err: unknown): unknown {
  if (!(err instanceof BatonError) || !err.field?.startsWith('agents')) return err;
  const field = `sessions${err.field.slice('agents'.length)}`;
  const message = err.message.startsWith(err.field) ? `${field}${err.message.slice(err.field.length)}` : err.message;
  return new BatonError({ code: err.code, message, field });
}

/**
 * A new run named `name` whose agents resume the chosen sessions. Refused as a conflict when a run already has the
 * name (as run.start is) or already holds one of the sessions (resume that run instead). Otherwise the sessions
 * become a Baton handle with a new run id and agent ids, and the service resumes it.
 */
export async function adoptSessions(
  service: { resume(handle: string): Promise<{ run: RunView; outcomes: ResumeOutcome[] }> },
  store: SessionLookups,
  params: Params<'sessions.adopt'>,
): Promise<Result<'sessions.adopt'>> {
  if (store.findByName(params.name)) throw conflict(`a run named '${params.name}' already exists`);
  const seen = new Set<string>();
  const explicitLabels = new Set<string>();
  for (const [i, s] of params.sessions.entries()) {
    const key = `${s.vendor}\n${s.sessionId}`;
    if (seen.has(key)) throw invalid('this session is chosen twice', `sessions[${i}]`);
    seen.add(key);
    if (s.label !== undefined) {
      if (explicitLabels.has(s.label))
        throw invalid('label is already used by another agent of this run', `sessions[${i}].label`);
      explicitLabels.add(s.label);
    }
    const holder = holderOf(store, s.vendor, s.sessionId);
    if (holder)
      throw new BatonError({
        code: 'conflict',
        field: `sessions[${i}]`,
        message: `sessions[${i}]: this conversation is already in run '${holder.runName}'; resume that run instead`,
      });
  }
  const agents: HandleAgent[] = params.sessions.map((s) => ({
    id: newAgentId(),
    // Derived labels (the vendor's name) are numbered by the resume when they repeat: claude, claude-2, …
    label: s.label ?? s.vendor,
    vendor: s.vendor,
    sessionId: s.sessionId,
    cwd: s.cwd,
  }));
  try {
    const handle = encodeHandle({
      run: { name: params.name, id: newRunId() },
      createdAt: new Date().toISOString(),
      agents,
    });
    return await service.resume(handle);
  } catch (err) {
    throw asSessionsError(err);
  }
}
