// Search words (docs/search.md §3): how a message's text becomes index tokens, how what the user typed becomes a
// full-text query, and where the words are in a line (for highlights). Pure functions, used by the worker and tests.

/** Longer "words" are ids, hashes and encoded blobs: not searched, and they would swell the index. */
export const MAX_TOKEN_CHARS = 48;
const WORD = /[\p{L}\p{N}]+/gu;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
/** A shorter prefix matches too many words to be of use (and costs a scan of them all): it is taken as a word. */
export const MIN_PREFIX_CHARS = 3;

/** The distinct lowercase words of `text`, space-separated: what the index holds for one message. */
export function indexTokens(text: string): string {
  // A scan of character codes, not a regular expression: this runs over every message of every transcript, and
  // ASCII letters and digits (most of any transcript) need no Unicode lookup.
  const lower = text.toLowerCase();
  const seen = new Set<string>();
  const n = lower.length;
  let start = -1;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? lower.charCodeAt(i) : 32;
    const inWord = (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 128 && LETTER_OR_DIGIT.test(lower[i]!));
    if (inWord) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      if (i - start <= MAX_TOKEN_CHARS) seen.add(lower.slice(start, i));
      start = -1;
    }
  }
  return [...seen].join(' ');
}

/** What the user asked for: every word (a trailing `*` makes it a prefix) and every "quoted phrase". */
export interface ParsedQuery {
  words: { text: string; prefix: boolean }[];
  /** Lowercase phrases, their words separated by one space. */
  phrases: string[];
}

/** Parses `foo bar* "exact words"` (a prefix needs MIN_PREFIX_CHARS); anything that is not a letter or a digit separates words. */
export function parseQuery(input: string): ParsedQuery {
  const words: ParsedQuery['words'] = [];
  const phrases: string[] = [];
  const add = (text: string, prefix: boolean) => {
    const known = words.find((w) => w.text === text);
    if (!known) words.push({ text, prefix });
    else known.prefix &&= prefix;
  };
  const parts = input.toLowerCase().split('"');
  for (const [i, part] of parts.entries()) {
    const inQuotes = i % 2 === 1 && i < parts.length - 1;
    const found = [...part.matchAll(/([\p{L}\p{N}]+)(\*?)/gu)].filter((m) => m[1]!.length <= MAX_TOKEN_CHARS);
    if (inQuotes && found.length > 1) phrases.push(found.map((m) => m[1]!).join(' '));
    for (const m of found) add(m[1]!, !inQuotes && m[2] === '*' && m[1]!.length >= MIN_PREFIX_CHARS);
  }
  return { words, phrases };
}

/** The full-text query (SQLite FTS4 syntax) for `q`: every word must be in the message. Empty when there is none. */
export function matchExpression(q: ParsedQuery): string {
  return q.words.map((w) => (w.prefix ? `${w.text}*` : w.text)).join(' ');
}

/** The message text holds every phrase (whitespace and case aside): the index cannot tell word order. */
export function holdsPhrases(text: string, q: ParsedQuery): boolean {
  if (q.phrases.length === 0) return true;
  const flat = (text.toLowerCase().match(WORD) ?? []).join(' ');
  return q.phrases.every((p) => ` ${flat} `.includes(` ${p} `));
}

/** [start, end) of every place in `line` where a word of `q` starts a word of the line (case aside). */
export function highlights(line: string, q: ParsedQuery): [number, number][] {
  const out: [number, number][] = [];
  const lower = line.toLowerCase();
  for (const m of lower.matchAll(WORD)) {
    const start = m.index;
    for (const w of q.words) {
      const whole = m[0] === w.text;
      if (whole || (w.prefix && m[0].startsWith(w.text))) {
        out.push([start, start + (whole ? m[0].length : w.text.length)]);
        break;
      }
    }
  }
  return out;
}
