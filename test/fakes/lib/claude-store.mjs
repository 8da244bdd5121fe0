// The fake Claude's files in its config directory, as claude 2.1.332 lays them out (docs/vendors.md §1): one
// transcript per session under projects/<encoded cwd>/<id>.jsonl, whose live branch a resume continues, and the
// process start a live session's registry entry (sessions/<pid>.json) carries. Node builtins only.
import fs from 'node:fs';
import path from 'node:path';
import { listDir, readJsonLines as readLines } from './fsutil.mjs';

/** A project's folder name under projects/: the cwd with every other character a dash, long ones cut and hashed. */
export function encodeCwd(p) {
  const enc = p.replace(/[^a-zA-Z0-9]/g, '-');
  if (enc.length <= 200) return enc;
  let h = 0;
  for (let i = 0; i < p.length; i++) h = ((h << 5) - h + p.charCodeAt(i)) | 0;
  return `${enc.slice(0, 200)}-${Math.abs(h).toString(36)}`;
}

/** The process's start time as /proc gives it (clock ticks since boot), or `startedAt` where there is no /proc. */
export function procStartOf(startedAt) {
  try {
    const stat = fs.readFileSync('/proc/self/stat', 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? String(startedAt);
  } catch {
    return String(startedAt);
  }
}

/** The transcripts under `projectsDir`, looked up first in the folder of `cwd`. */
export function claudeStore(projectsDir, cwd) {
  function findTranscript(id) {
    const direct = path.join(projectsDir, encodeCwd(cwd), `${id}.jsonl`);
    if (fs.existsSync(direct)) return direct;
    for (const d of listDir(projectsDir)) {
      const p = path.join(projectsDir, d, `${id}.jsonl`);
      if (fs.existsSync(p)) return p;
    }
    return null;
  }

  function allTranscripts() {
    const out = [];
    for (const d of listDir(projectsDir)) {
      for (const f of listDir(path.join(projectsDir, d))) {
        if (!f.endsWith('.jsonl')) continue;
        const p = path.join(projectsDir, d, f);
        try {
          out.push({ path: p, id: f.slice(0, -6), mtime: fs.statSync(p).mtimeMs });
        } catch {
          /* vanished */
        }
      }
    }
    return out.sort((a, b) => b.mtime - a.mtime);
  }

  function findByTitle(title) {
    for (const t of allTranscripts()) {
      const lines = readLines(t.path);
      if (lines.some((l) => l.type === 'custom-title' && l.customTitle === title)) return t;
    }
    return null;
  }

  function userText(content) {
    if (typeof content === 'string') return content;
    if (Array.isArray(content)) {
      const texts = content.filter((b) => b && b.type === 'text' && typeof b.text === 'string').map((b) => b.text);
      return texts.length ? texts.join('\n') : null;
    }
    return null;
  }

  /** The live branch of a transcript: turns [{role, text}], its leaf uuid and its title. */
  function loadConversation(file) {
    const lines = readLines(file);
    const byUuid = new Map();
    let leaf = null;
    let title = null;
    for (const l of lines) {
      if ((l.type === 'user' || l.type === 'assistant') && typeof l.uuid === 'string') {
        byUuid.set(l.uuid, l);
        leaf = l.uuid;
      }
      if (l.type === 'last-prompt' && typeof l.leafUuid === 'string') leaf = l.leafUuid;
      if (l.type === 'custom-title' && typeof l.customTitle === 'string') title = l.customTitle;
    }
    const chain = [];
    const seen = new Set();
    for (let u = leaf; u && byUuid.has(u) && !seen.has(u); u = byUuid.get(u).parentUuid) {
      seen.add(u);
      chain.unshift(byUuid.get(u));
    }
    const turns = [];
    for (const l of chain) {
      if (l.type === 'user' && !l.isMeta) {
        const text = userText(l.message?.content);
        if (text !== null) turns.push({ role: 'user', text });
      } else if (l.type === 'assistant') {
        const text = userText(l.message?.content);
        if (text !== null) turns.push({ role: 'assistant', text });
      }
    }
    return { turns, leaf: chain.length ? chain[chain.length - 1].uuid : null, title };
  }

  return { findTranscript, allTranscripts, findByTitle, loadConversation };
}
