// Reading the fake Codex's rollouts back: every rollout under sessions/ (newest first), one by thread id, and a
// rollout's session_meta and conversation, which a resumed thread continues. Node builtins only.
import fs from 'node:fs';
import path from 'node:path';
import { listDir, readJsonLines } from '../lib/fsutil.mjs';
import { sessionsDir } from './home.mjs';

/** Every rollout file under sessions/YYYY/MM/DD/, the most recently written first. */
export function allRollouts() {
  const out = [];
  const walk = (dir, depth) => {
    for (const n of listDir(dir)) {
      const p = path.join(dir, n);
      if (depth < 3) walk(p, depth + 1);
      else if (/^rollout-.*\.jsonl$/.test(n)) {
        try {
          out.push({ path: p, name: n, mtime: fs.statSync(p).mtimeMs });
        } catch {
          /* vanished */
        }
      }
    }
  };
  walk(sessionsDir, 0);
  return out.sort((a, b) => b.mtime - a.mtime);
}

/** The rollout of thread `id` (lowercase), or null. */
export function findById(id) {
  return allRollouts().find((r) => r.name.endsWith(`-${id}.jsonl`)) ?? null;
}

const textOf = (content) =>
  Array.isArray(content)
    ? content
        .filter((c) => c && typeof c.text === 'string')
        .map((c) => c.text)
        .join('\n')
    : typeof content === 'string'
      ? content
      : '';

/** session_meta, the conversation and the next ordinal of a rollout. */
export function loadRollout(file) {
  const lines = readJsonLines(file);
  const meta = lines[0]?.type === 'session_meta' ? lines[0].payload : null;
  const turns = [];
  let ordinal = 0;
  for (const l of lines) {
    if (typeof l.ordinal === 'number') ordinal = Math.max(ordinal, l.ordinal + 1);
    if (l.type !== 'response_item' || l.payload?.type !== 'message') continue;
    const text = textOf(l.payload.content);
    if (l.payload.role === 'user' && !text.startsWith('<environment_context>')) turns.push({ role: 'user', text });
    if (l.payload.role === 'assistant') turns.push({ role: 'assistant', text });
  }
  return { meta, turns, ordinal };
}
