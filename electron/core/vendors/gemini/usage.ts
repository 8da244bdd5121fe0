// Gemini CLI's usage (docs/cost.md): each `gemini` message of a chat file carries the `tokens` of its call
// (`input` = the prompt, cached part included; `cached`; `output`; `thoughts`; `tool` = tool-use prompt tokens) and
// its `model`. A session may have several files (resume stubs); a message is keyed by its id, so a file that repeats
// one counts it once. A rewind (`$rewindTo`) hides messages from the conversation, not from the bill: they still count.
import { readFile } from 'node:fs/promises';
import type { VendorEnv } from '../adapter.js';
import { isRecord } from '../kit/jsonl.js';
import { FileCache } from '../kit/transcript-cache.js';
import {
  count,
  JsonlUsageFiles,
  text,
  type LineParser,
  type UsageEntry,
  type UsageReading,
  type UsageSource,
} from '../kit/usage.js';
import type { GeminiStore } from './store.js';

/** The usage entry of one chat record, or null (not a model message with tokens). */
export function geminiUsageOf(rec: unknown): UsageEntry | null {
  if (!isRecord(rec) || rec.type !== 'gemini' || !isRecord(rec.tokens)) return null;
  const t = rec.tokens;
  const cached = count(t.cached);
  return {
    key: text(rec.id),
    model: text(rec.model),
    input: Math.max(0, count(t.input) - cached) + count(t.tool),
    output: count(t.output) + count(t.thoughts),
    cacheRead: cached,
    cacheWrite: 0,
    recordedUsd: null,
  };
}

const isAnswer = (v: unknown) => isRecord(v) && v.type === 'gemini';

const GEMINI_LINES: LineParser<null> = { init: () => null, line: (_s, v) => geminiUsageOf(v), answer: isAnswer };

/** The older one-object form: `{…, messages: [...]}`, read whole. */
async function legacySource(path: string): Promise<UsageSource> {
  const json = JSON.parse(await readFile(path, 'utf8')) as unknown;
  const messages: unknown[] = isRecord(json) && Array.isArray(json.messages) ? json.messages : [];
  return {
    source: path,
    entries: messages.flatMap((m) => geminiUsageOf(m) ?? []),
    answers: messages.filter(isAnswer).length,
  };
}

export class GeminiUsage {
  private readonly lines = new JsonlUsageFiles(GEMINI_LINES);
  private readonly legacy = new FileCache<UsageSource>();
  readonly costUnknownBecause = null;

  constructor(private readonly store: GeminiStore) {}

  async read(sessionId: string, cwd: string, env: VendorEnv): Promise<UsageReading> {
    const files = await this.store.findSessionFiles(sessionId, cwd, env);
    if (files.length === 0) return { kind: 'missing' };
    const sources: UsageSource[] = [];
    for (const { path } of files) {
      const source = path.endsWith('.json')
        ? ((await this.legacy.get(path, legacySource))?.value ?? null)
        : await this.lines.source(path);
      if (source) sources.push(source);
    }
    return { kind: 'read', sources };
  }
}
