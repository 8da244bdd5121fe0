// Qwen Code's usage (docs/cost.md): each `assistant` line of the chat JSONL carries the Gemini-style `usageMetadata`
// of its call (`promptTokenCount` with the cached part inside, `cachedContentTokenCount`, `candidatesTokenCount`,
// `thoughtsTokenCount`) and its `model`; the line's `uuid` keys it.
import type { VendorEnv } from '../adapter.js';
import { isRecord } from '../kit/jsonl.js';
import { count, JsonlUsageFiles, text, type LineParser, type UsageEntry, type UsageReading } from '../kit/usage.js';
import { findQwenTranscript } from './store.js';

export function qwenUsageOf(line: unknown): UsageEntry | null {
  if (!isRecord(line) || line.type !== 'assistant' || !isRecord(line.usageMetadata)) return null;
  const u = line.usageMetadata;
  const cached = count(u.cachedContentTokenCount);
  return {
    key: text(line.uuid),
    model: text(line.model),
    input: Math.max(0, count(u.promptTokenCount) - cached),
    output: count(u.candidatesTokenCount) + count(u.thoughtsTokenCount),
    cacheRead: cached,
    cacheWrite: 0,
    recordedUsd: null,
  };
}

const QWEN_LINES: LineParser<null> = {
  init: () => null,
  line: (_s, v) => qwenUsageOf(v),
  answer: (v) => isRecord(v) && v.type === 'assistant',
};

export class QwenUsage {
  private readonly files = new JsonlUsageFiles(QWEN_LINES);
  readonly costUnknownBecause = null;

  async read(sessionId: string, cwd: string, env: VendorEnv): Promise<UsageReading> {
    const path = await findQwenTranscript(sessionId, cwd, env);
    const source = path === null ? null : await this.files.source(path);
    return source ? { kind: 'read', sources: [source] } : { kind: 'missing' };
  }
}
