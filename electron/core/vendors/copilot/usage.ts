// Copilot CLI's usage (docs/cost.md): `events.jsonl` keeps a durable `session.usage_record` per model call, its
// `data.usage` holding `inputTokens` (cache reads and writes inside), `outputTokens`, `cacheReadTokens`,
// `cacheWriteTokens`, the `model`, and an accounting id that keys it. Its `cost` is a premium-request multiplier, not
// money, and Copilot bills a subscription: the cost in USD stays unknown.
import { join } from 'node:path';
import type { VendorEnv } from '../adapter.js';
import { isRecord } from '../kit/jsonl.js';
import { count, JsonlUsageFiles, text, type LineParser, type UsageEntry, type UsageReading } from '../kit/usage.js';
import { copilotSessionDir } from './store.js';

export function copilotUsageOf(event: unknown): UsageEntry | null {
  if (!isRecord(event) || event.type !== 'session.usage_record' || !isRecord(event.data)) return null;
  const u = event.data.usage;
  if (!isRecord(u)) return null;
  const cacheRead = count(u.cacheReadTokens);
  const cacheWrite = count(u.cacheWriteTokens);
  const accounting = isRecord(u.accounting) ? text(u.accounting.usageId) : null;
  return {
    key: accounting ?? text(event.id),
    model: text(u.model),
    input: Math.max(0, count(u.inputTokens) - cacheRead - cacheWrite),
    output: count(u.outputTokens),
    cacheRead,
    cacheWrite,
    recordedUsd: null,
  };
}

const COPILOT_LINES: LineParser<null> = {
  init: () => null,
  line: (_s, v) => copilotUsageOf(v),
  answer: (v) => isRecord(v) && v.type === 'assistant.message',
};

export const COPILOT_COST_UNKNOWN = 'Copilot bills premium requests of a subscription, not tokens';

export class CopilotUsage {
  private readonly files = new JsonlUsageFiles(COPILOT_LINES);
  readonly costUnknownBecause = COPILOT_COST_UNKNOWN;

  async read(sessionId: string, _cwd: string, env: VendorEnv): Promise<UsageReading> {
    const dir = copilotSessionDir(sessionId, env);
    const path = dir === null ? null : join(dir, 'events.jsonl');
    const source = path === null ? null : await this.files.source(path);
    return source ? { kind: 'read', sources: [source] } : { kind: 'missing' };
  }
}
