// File helpers shared by the fake vendor CLIs: atomic writes (temp file + rename, so a reader never sees half a
// file), JSON and JSON-lines reading, and the resolved cwd. The formats themselves stay in each fake.
// Node builtins only.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';

/** The resolved current directory, as the real CLIs record it. */
export function realCwd() {
  return fs.realpathSync(process.cwd());
}

/** Writes `data` (text or bytes) to `p` through a temp file beside it; creates the folder. */
export function writeAtomic(p, data) {
  fs.mkdirSync(path.dirname(p), { recursive: true });
  const tmp = `${p}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(tmp, data);
  fs.renameSync(tmp, p);
}

/** Writes `value` as JSON atomically: `space` as JSON.stringify takes it, `eol` after the text (default none). */
export function writeJsonAtomic(p, value, { space, eol = '' } = {}) {
  writeAtomic(p, `${JSON.stringify(value, null, space)}${eol}`);
}

/** The parsed JSON of `p`, or null when it is missing or not JSON. */
export function readJson(p) {
  try {
    return JSON.parse(fs.readFileSync(p, 'utf8'));
  } catch {
    return null;
  }
}

/** The records of a JSON-lines file (a torn last line is skipped). A missing file throws, unless `missingOk`. */
export function readJsonLines(file, { missingOk = false } = {}) {
  const out = [];
  let text;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if (missingOk) return out;
    throw err;
  }
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line));
    } catch {
      /* a torn last line */
    }
  }
  return out;
}

/** Appends one record to a JSON-lines file. */
export function appendJsonLine(file, obj) {
  fs.appendFileSync(file, `${JSON.stringify(obj)}\n`);
}

/** The names in a folder; none when it cannot be read. */
export function listDir(dir) {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}

/** Removes a file if it is there. */
export function removeFile(p) {
  try {
    fs.unlinkSync(p);
  } catch {
    /* already gone */
  }
}
