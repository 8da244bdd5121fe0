// Claude Code's usage (docs/cost.md): every `assistant` line of the project JSONL carries the Anthropic `message.usage`
// of its call. One call is written as several lines (one per content block) sharing `message.id` and `requestId`, so
// that pair is the entry's key and the call counts once. Sub-agents (Task) write their own files beside the session's.
import { basename, dirname, join } from 'node:path';
import type { VendorEnv } from '../adapter.js';
import { isRecord } from '../kit/jsonl.js';
import { isFile, listDir } from '../kit/store-fs.js';
import {
  count,
  JsonlUsageFiles,
  text,
  usd,
  type LineParser,
  type UsageEntry,
  type UsageReading,
  type UsageSource,
} from '../kit/usage.js';
import { findClaudeTranscript } from './store.js';

/** The usage entry of one transcript line, or null (not an assistant call, or Claude's own synthetic error reply). */
export function claudeUsageOf(line: unknown): UsageEntry | null {
  if (!isRecord(line) || line.type !== 'assistant' || !isRecord(line.message)) return null;
  const m = line.message;
  const u = m.usage;
  if (!isRecord(u) || m.model === '<synthetic>') return null;
  const id = text(m.id);
  const request = text(line.requestId);
  return {
    key: id ? `${id}/${request ?? ''}` : text(line.uuid),
    model: text(m.model),
    input: count(u.input_tokens),
    output: count(u.output_tokens),
    cacheRead: count(u.cache_read_input_tokens),
    cacheWrite: count(u.cache_creation_input_tokens),
    // Older releases wrote the cost of each call beside it.
    recordedUsd: usd(line.costUSD),
  };
}

const CLAUDE_LINES: LineParser<null> = {
  init: () => null,
  line: (_s, v) => claudeUsageOf(v),
  answer: (v) => isRecord(v) && v.type === 'assistant',
};

/** Reads Claude sessions' usage, each transcript incrementally (one reader per vendor context). */
export class ClaudeUsage {
  private readonly files = new JsonlUsageFiles(CLAUDE_LINES);
  /** Where each session's transcript was found: looked up again only once it is not there. */
  private readonly paths = new Map<string, string>();
  readonly costUnknownBecause = null;

  async read(sessionId: string, cwd: string, env: VendorEnv): Promise<UsageReading> {
    const key = `${cwd}\0${sessionId}`;
    const known = this.paths.get(key);
    const path = known && (await isFile(known)) ? known : await findClaudeTranscript(sessionId, cwd, env);
    if (path === null) {
      this.paths.delete(key);
      return { kind: 'missing' };
    }
    this.paths.set(key, path);
    const subagents = join(dirname(path), basename(path, '.jsonl'), 'subagents');
    const paths = [
      path,
      ...(await listDir(subagents)).filter((n) => n.endsWith('.jsonl')).map((n) => join(subagents, n)),
    ];
    const sources: UsageSource[] = [];
    for (const p of paths) {
      const got = await this.files.source(p);
      if (got) sources.push(got);
    }
    return { kind: 'read', sources };
  }
}
