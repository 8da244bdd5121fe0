// Gemini CLI's usage (docs/cost.md): each `gemini` message of a chat file carries the `tokens` of its call
// (`input` = the prompt, cached part included; `cached`; `output`; `thoughts`; `tool` = tool-use prompt tokens) and
// its `model`. A session may have several files (resume stubs); a message is keyed by its id, so a file that repeats
// one counts it once. A rewind (`$rewindTo`) hides messages from the conversation, not from the bill: they still count.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { VendorEnv } from '../adapter.js';
import { isRecord } from '../kit/jsonl.js';
import { FileCache, type FileStamp } from '../kit/transcript-cache.js';
import {
  count,
  JsonlUsageFiles,
  text,
  type LineParser,
  type UsageEntry,
  type UsageReading,
  type UsageSource,
} from '../kit/usage.js';
import { geminiDir, geminiProjectDirs, type GeminiStore } from './store.js';

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
async function legacySource(path: string, stamp: FileStamp): Promise<UsageSource> {
  const json = JSON.parse(await readFile(path, 'utf8')) as unknown;
  const messages: unknown[] = isRecord(json) && Array.isArray(json.messages) ? json.messages : [];
  return {
    source: path,
    entries: messages.flatMap((m) => geminiUsageOf(m) ?? []),
    answers: messages.filter(isAnswer).length,
    stamp: `${stamp.mtimeMs}:${stamp.size}`,
  };
}

/** A stat's change stamp, '-' when the path is not there. */
const stampOf = (path: string) =>
  stat(path).then(
    (s) => `${s.mtimeMs}:${s.size}`,
    () => '-',
  );

export class GeminiUsage {
  private readonly lines = new JsonlUsageFiles(GEMINI_LINES);
  private readonly legacy = new FileCache<UsageSource>();
  /**
   * Per session: its chat files, and the state of projects.json and of the chats folders when they were found. A new
   * file (a resume's stub) changes its folder's stamp, so the folders are listed again only then.
   */
  private readonly found = new Map<string, { dirs: string[]; stamp: string; paths: string[] }>();
  readonly costUnknownBecause = null;

  constructor(private readonly store: GeminiStore) {}

  private async stamp(dirs: readonly string[], env: VendorEnv): Promise<string> {
    const parts = [join(geminiDir(env), 'projects.json'), ...dirs.map((d) => join(d, 'chats'))].map(stampOf);
    return (await Promise.all(parts)).join('|');
  }

  private async files(sessionId: string, cwd: string, env: VendorEnv): Promise<string[]> {
    const key = `${cwd}\0${sessionId}`;
    const memo = this.found.get(key);
    if (memo && memo.stamp === (await this.stamp(memo.dirs, env))) return memo.paths;
    const dirs = await geminiProjectDirs(cwd, env);
    const stamp = await this.stamp(dirs, env);
    const paths = (await this.store.findSessionFiles(sessionId, cwd, env)).map((f) => f.path);
    if (paths.length > 0) this.found.set(key, { dirs, stamp, paths });
    else this.found.delete(key);
    return paths;
  }

  async read(sessionId: string, cwd: string, env: VendorEnv): Promise<UsageReading> {
    const files = await this.files(sessionId, cwd, env);
    if (files.length === 0) return { kind: 'missing' };
    const sources: UsageSource[] = [];
    for (const path of files) {
      const source = path.endsWith('.json')
        ? ((await this.legacy.get(path, legacySource))?.value ?? null)
        : await this.lines.source(path);
      if (source) sources.push(source);
    }
    return { kind: 'read', sources };
  }
}
