// Where the fake Codex keeps its files, as the real CLI lays out CODEX_HOME: rollouts under
// sessions/YYYY/MM/DD/rollout-<local ts>-<id>.jsonl (LOCAL time, not UTC), writer locks under thread-writer-locks/,
// the prompt history in history.jsonl. Also the thread ids (UUIDv7). Node builtins only.
import path from 'node:path';
import crypto from 'node:crypto';

export const home = process.env.CODEX_HOME || path.join(process.env.HOME || '/', '.codex');
export const sessionsDir = path.join(home, 'sessions');
export const locksDir = path.join(home, 'thread-writer-locks');
export const historyFile = path.join(home, 'history.jsonl');

const pad = (n, w = 2) => String(n).padStart(w, '0');
const localFolder = (d) => path.join(pad(d.getFullYear(), 4), pad(d.getMonth() + 1), pad(d.getDate()));
const localStamp = (d) =>
  `${pad(d.getFullYear(), 4)}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}-${pad(d.getMinutes())}-${pad(d.getSeconds())}`;

/** The rollout file of thread `id` created at `createdAt`. */
export function rolloutPath(createdAt, id) {
  return path.join(sessionsDir, localFolder(createdAt), `rollout-${localStamp(createdAt)}-${id}.jsonl`);
}

/** A UUIDv7 (time-ordered), as Codex mints thread, turn and item ids. */
export function uuidv7() {
  const b = crypto.randomBytes(16);
  let ms = Date.now();
  for (let i = 5; i >= 0; i--) {
    b[i] = ms % 256;
    ms = Math.floor(ms / 256);
  }
  b[6] = (b[6] & 0x0f) | 0x70;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
