// The head of a Claude Code transcript (docs/vendors.md §1 "Transcript lines"): its cwd, title and first prompt, for
// session import. A head is the first HEAD_BYTES of a file, so its last line may be cut: such a line is matched, not
// parsed, for the start of a long first prompt.
import { textOf } from '../kit/jsonl.js';

/** The first prompt is cut to this many characters (an ellipsis included). */
export const FIRST_PROMPT_MAX_CHARS = 200;

/** What the head of one transcript says. */
export interface ClaudeHead {
  cwd: string | null;
  title: string | null;
  firstPrompt: string | null;
  /** The head holds at least one user or assistant message (a file of bookkeeping lines only is not a conversation). */
  hasMessages: boolean;
}

const NL = 0x0a;
const USER = Buffer.from('"type":"user"');
const ASSISTANT = Buffer.from('"type":"assistant"');
const CUSTOM_TITLE = Buffer.from('"type":"custom-title"');
const SUMMARY = Buffer.from('"type":"summary"');
const CWD = Buffer.from('"cwd":"');

/** Claude's own records of a slash command, stored as user lines: never the prompt a person typed. */
const COMMAND_WRAPPER =
  /^\s*<(command-name|command-message|command-args|local-command-stdout|local-command-stderr|local-command-caveat)>/;

/** `text` trimmed and cut to FIRST_PROMPT_MAX_CHARS, never inside a surrogate pair. */
export function shortPrompt(text: string): string | null {
  const t = text.trim();
  if (t === '') return null;
  if (t.length <= FIRST_PROMPT_MAX_CHARS) return t;
  let cut = FIRST_PROMPT_MAX_CHARS - 1;
  const c = t.charCodeAt(cut - 1);
  if (c >= 0xd800 && c <= 0xdbff) cut--;
  return `${t.slice(0, cut).trimEnd()}…`;
}

interface Line {
  start: number;
  end: number;
  /** No newline after it: the head may have cut it. */
  open: boolean;
}

function lineAround(buf: Buffer, at: number): Line {
  const start = at === 0 ? 0 : buf.lastIndexOf(NL, at - 1) + 1;
  const nl = buf.indexOf(NL, at);
  return nl < 0 ? { start, end: buf.length, open: true } : { start, end: nl, open: false };
}

function parseLine(buf: Buffer, line: Line): Record<string, unknown> | null {
  try {
    const rec = JSON.parse(buf.toString('utf8', line.start, line.end)) as unknown;
    return rec && typeof rec === 'object' && !Array.isArray(rec) ? (rec as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The decoded start of a JSON string value whose end the head cut off (a split escape or character is dropped). */
function partialString(raw: string): string {
  for (let cut = 0; cut <= 6 && cut <= raw.length; cut++) {
    try {
      return (JSON.parse(`"${raw.slice(0, raw.length - cut)}"`) as string).replace(/\uFFFD+$/, '');
    } catch {
      /* cut inside an escape: try a shorter prefix */
    }
  }
  return '';
}

const PARTIAL_CONTENT = /"content":(?:"((?:[^"\\]|\\.)*)|\[\{"type":"text","text":"((?:[^"\\]|\\.)*))/;
const CWD_VALUE = /"cwd":("(?:[^"\\]|\\.)*")/;

/**
 * A user line the head cut inside (a prompt longer than the head): the start of its text, and its cwd when that
 * came before the cut. The line is matched, not parsed: only its own keys are read.
 */
function partialUserLine(buf: Buffer, line: Line): { prompt: string | null; cwd: string | null } | null {
  const text = buf.toString('utf8', line.start, line.end);
  if (!text.startsWith('{') || text.includes('"isMeta":true') || text.includes('"isSidechain":true')) return null;
  const m = PARTIAL_CONTENT.exec(text);
  if (!m) return null;
  const prompt = partialString(m[1] ?? m[2] ?? '');
  if (prompt.trim() === '' || COMMAND_WRAPPER.test(prompt)) return null;
  const cwd = CWD_VALUE.exec(text);
  let cwdText: string | null = null;
  if (cwd) {
    try {
      cwdText = JSON.parse(cwd[1]!) as string;
    } catch {
      cwdText = null;
    }
  }
  return { prompt: shortPrompt(prompt), cwd: cwdText };
}

/**
 * What the head of a transcript says: the first `user` line with string or text content (not `isMeta`, not a
 * sidechain, not a slash-command record) gives the first prompt and the cwd; the last `custom-title` line (else a
 * `summary` line) gives the title. `complete` is false when the file is longer than `buf`, whose last line may
 * then be cut. Lines are found by their compact `"type":"…"` key (the CLI writes JSON.stringify output) and only
 * those are parsed, so a head of large assistant lines costs a few byte searches.
 */
export function parseClaudeHead(buf: Buffer, complete: boolean): ClaudeHead {
  let firstPrompt: string | null = null;
  let cwd: string | null = null;
  let hasMessages = false;
  /** Where the first user line starts: `summary` lines, when a file has them, come before it. */
  let firstUser = -1;
  for (let pos = 0; pos < buf.length;) {
    const at = buf.indexOf(USER, pos);
    if (at < 0) break;
    const line = lineAround(buf, at);
    pos = line.end + 1;
    if (firstUser < 0) firstUser = line.start;
    const rec = parseLine(buf, line);
    if (!rec) {
      if (line.open && !complete) {
        const partial = partialUserLine(buf, line);
        if (partial) {
          hasMessages = true;
          firstPrompt = partial.prompt;
          cwd = partial.cwd;
        }
      }
      continue;
    }
    if (rec.type !== 'user') continue;
    hasMessages = true;
    if (rec.isMeta === true || rec.isSidechain === true) continue;
    const message = rec.message as { content?: unknown } | undefined;
    const text = textOf(
      message && typeof message === 'object' ? message.content : undefined,
      (type) => type === 'text',
    );
    if (text === null || COMMAND_WRAPPER.test(text)) continue;
    const prompt = shortPrompt(text);
    if (prompt === null) continue;
    firstPrompt = prompt;
    cwd = typeof rec.cwd === 'string' && rec.cwd !== '' ? rec.cwd : null;
    break;
  }
  if (!hasMessages) hasMessages = buf.indexOf(ASSISTANT) >= 0;
  if (cwd === null) cwd = firstCwd(buf);
  return { cwd, title: titleOf(buf, firstUser < 0 ? buf.length : firstUser), firstPrompt, hasMessages };
}

/** The cwd of the first line that has one (every message line of a transcript carries it). */
function firstCwd(buf: Buffer): string | null {
  for (let pos = 0; pos < buf.length;) {
    const at = buf.indexOf(CWD, pos);
    if (at < 0) return null;
    const line = lineAround(buf, at);
    pos = line.end + 1;
    const rec = parseLine(buf, line);
    if (rec && typeof rec.cwd === 'string' && rec.cwd !== '') return rec.cwd;
  }
  return null;
}

/**
 * The last `custom-title` (a name given with `-n` or `/rename`), else the first `summary` line; older CLIs write
 * those at the top of the file, so only the bytes before the first user line (`summaryEnd`) are searched for one.
 */
function titleOf(buf: Buffer, summaryEnd: number): string | null {
  for (let end = buf.length; end > 0;) {
    const at = buf.lastIndexOf(CUSTOM_TITLE, end - 1);
    if (at < 0) break;
    const line = lineAround(buf, at);
    end = line.start;
    const rec = parseLine(buf, line);
    if (rec?.type === 'custom-title' && typeof rec.customTitle === 'string' && rec.customTitle.trim() !== '')
      return rec.customTitle.trim();
  }
  const top = buf.subarray(0, summaryEnd);
  for (let pos = 0; pos < top.length;) {
    const at = top.indexOf(SUMMARY, pos);
    if (at < 0) break;
    const line = lineAround(buf, at);
    pos = line.end + 1;
    const rec = parseLine(buf, line);
    if (rec?.type === 'summary' && typeof rec.summary === 'string' && rec.summary.trim() !== '')
      return rec.summary.trim();
  }
  return null;
}
