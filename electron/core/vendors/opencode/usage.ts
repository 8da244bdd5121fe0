// opencode's usage (docs/cost.md): each assistant `message` row's data holds the call's `tokens` (`input` without the
// cache, `output`, `reasoning`, `cache.read`, `cache.write`), its `modelID` and the `cost` opencode computed from its
// own model catalog. opencode writes 0 for a model it has no price for, so only a positive cost counts as recorded;
// the rest is priced from Baton's table. Sub-agent sessions (`parent_id`) are part of the session that started them.
import type { VendorEnv } from '../adapter.js';
import { isRecord } from '../kit/jsonl.js';
import { imageKey, readImage, rows, str, withImage, type SqlJs } from '../kit/sqlite-image.js';
import { count, text, usd, type UsageEntry, type UsageReading, type UsageSource } from '../kit/usage.js';
import { OPENCODE_SESSION_ID, opencodeDbPath } from './store.js';

/** The usage entry of one message row's data, or null (not an assistant message with tokens). */
export function opencodeUsageOf(id: string, data: unknown): UsageEntry | null {
  if (!isRecord(data) || data.role !== 'assistant' || !isRecord(data.tokens)) return null;
  const t = data.tokens;
  const cache = isRecord(t.cache) ? t.cache : {};
  const cost = usd(data.cost);
  return {
    key: id,
    model: text(data.modelID),
    input: count(t.input),
    output: count(t.output) + count(t.reasoning),
    cacheRead: count(cache.read),
    cacheWrite: count(cache.write),
    recordedUsd: cost !== null && cost > 0 ? cost : null,
  };
}

interface Ledger {
  bySession: Map<string, UsageEntry[]>;
  children: Map<string, string[]>;
  sessions: Set<string>;
}

const MESSAGES_SQL = `
  SELECT m.id AS id, m.session_id AS session_id, m.data AS data
  FROM message m
  WHERE json_extract(m.data, '$.role') = 'assistant'
  ORDER BY m.time_created, m.id`;

export class OpencodeUsage {
  private ledger: { path: string; key: string; value: Ledger } | null = null;
  readonly costUnknownBecause = null;

  constructor(private readonly sql: SqlJs) {}

  private async load(env: VendorEnv): Promise<{ path: string; key: string; ledger: Ledger } | null> {
    const path = opencodeDbPath(env);
    const key = await imageKey(path);
    if (key === null) return null;
    if (this.ledger && this.ledger.path === path && this.ledger.key === key)
      return { path, key, ledger: this.ledger.value };
    const image = await readImage(path);
    if (!image) return null;
    const ledger = await withImage(this.sql, image.bytes, (db): Ledger => {
      const bySession = new Map<string, UsageEntry[]>();
      for (const r of rows(db, MESSAGES_SQL)) {
        const id = str(r.id);
        const session = str(r.session_id);
        const data = str(r.data);
        if (!id || !session || !data) continue;
        let entry: UsageEntry | null = null;
        try {
          entry = opencodeUsageOf(id, JSON.parse(data));
        } catch {
          continue;
        }
        if (entry) bySession.set(session, [...(bySession.get(session) ?? []), entry]);
      }
      const children = new Map<string, string[]>();
      const sessions = new Set<string>();
      for (const r of rows(db, 'SELECT id, parent_id FROM session')) {
        const id = str(r.id);
        const parent = str(r.parent_id);
        if (id) sessions.add(id);
        if (id && parent) children.set(parent, [...(children.get(parent) ?? []), id]);
      }
      return { bySession, children, sessions };
    });
    if (!ledger) return null;
    this.ledger = { path, key: image.key, value: ledger };
    return { path, key: image.key, ledger };
  }

  async read(sessionId: string, _cwd: string, env: VendorEnv): Promise<UsageReading> {
    if (!OPENCODE_SESSION_ID.test(sessionId)) return { kind: 'missing' };
    const got = await this.load(env);
    if (!got) return { kind: 'missing' };
    const { path, ledger, key } = got;
    const sources: UsageSource[] = [];
    const seen = new Set<string>();
    const visit = (id: string) => {
      if (seen.has(id)) return;
      seen.add(id);
      const entries = ledger.bySession.get(id) ?? [];
      sources.push({ source: `${path}#${id}`, entries, answers: entries.length, stamp: key });
      for (const child of ledger.children.get(id) ?? []) visit(child);
    };
    if (!ledger.sessions.has(sessionId)) return { kind: 'missing' };
    visit(sessionId);
    return { kind: 'read', sources };
  }
}
