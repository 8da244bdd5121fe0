// The fake Copilot CLI's store, as copilot 1.0.102 lays it out (docs/vendors.md §4): one folder a session under
// ${COPILOT_HOME:-~/.copilot}/session-state/<id>/, whose workspace.yaml (flat `key: value` lines) says its cwd, name
// and times; and how `--resume <value>` finds a session (its id, a unique id prefix, or its name). Node builtins only.
import fs from 'node:fs';
import path from 'node:path';
import { UUID } from './args.mjs';
import { listDir, writeAtomic } from './fsutil.mjs';

export const home = process.env.COPILOT_HOME || path.join(process.env.HOME || '/', '.copilot');
export const stateDir = path.join(home, 'session-state');

export function readWorkspace(id) {
  let text;
  try {
    text = fs.readFileSync(path.join(stateDir, id, 'workspace.yaml'), 'utf8');
  } catch {
    return null;
  }
  const out = {};
  for (const line of text.split('\n')) {
    const m = /^([A-Za-z_]\w*):\s*(.*)$/.exec(line);
    if (!m) continue;
    let v = m[2].trim();
    if (v.startsWith('"')) {
      try {
        v = JSON.parse(v);
      } catch {
        /* as written */
      }
    }
    out[m[1]] = v;
  }
  return out;
}

const yamlValue = (v) =>
  v === null || v === undefined
    ? ''
    : /^[\w./@+-][\w ./@+:-]*$/.test(String(v)) && !/:\s/.test(String(v))
      ? String(v)
      : JSON.stringify(String(v));

export function writeWorkspace(ws) {
  const keys = [
    'id',
    'cwd',
    'git_root',
    'branch',
    'client_name',
    'name',
    'user_named',
    'summary_count',
    'fork_count',
    'created_at',
    'updated_at',
  ];
  const text = keys
    .filter((k) => ws[k] !== undefined && ws[k] !== null)
    .map((k) => `${k}: ${yamlValue(ws[k])}`)
    .join('\n');
  writeAtomic(path.join(stateDir, ws.id, 'workspace.yaml'), `${text}\n`);
}

export function allSessions() {
  return listDir(stateDir)
    .filter((n) => UUID.test(n))
    .map((id) => ({ id, ws: readWorkspace(id) }))
    .filter((s) => s.ws !== null)
    .sort((a, b) => String(b.ws.updated_at).localeCompare(String(a.ws.updated_at)));
}

export function matchResume(value) {
  const sessions = allSessions();
  const v = value.toLowerCase();
  const exact = sessions.find((s) => s.id === v);
  if (exact) return exact.id;
  if (/^[0-9a-f-]{7,}$/.test(v)) {
    const prefixed = sessions.filter((s) => s.id.startsWith(v));
    if (prefixed.length === 1) return prefixed[0].id;
  }
  const named = sessions.filter((s) => typeof s.ws.name === 'string' && s.ws.name.toLowerCase() === v);
  return named.length > 0 ? named[0].id : null;
}
