// Reading the JSON Lines transcripts most vendors write (docs/vendors.md §1–§5): lines that may be torn (a head cut them,
// the CLI is writing them), and message content given either as text or as a list of blocks.

/** The value of each non-blank line of `text`, in order; undefined for a line that does not parse (torn, cut). */
export function* jsonLines(text: string): Generator<unknown> {
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    try {
      yield JSON.parse(line) as unknown;
    } catch {
      yield undefined;
    }
  }
}

/** A JSON object (not null, not an array). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The text of message content: the string itself, or the `text` of the blocks whose `type` `accepts` takes, joined
 * by newlines. Null when there is none. Vendors differ only in which blocks count: Claude only `text` blocks, Cursor
 * also untyped ones, Codex, Gemini and Qwen any block that has a text.
 */
export function textOf(content: unknown, accepts: (type: unknown) => boolean = () => true): string | null {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return null;
  const texts: string[] = [];
  for (const b of content) if (isRecord(b) && typeof b.text === 'string' && accepts(b.type)) texts.push(b.text);
  return texts.length > 0 ? texts.join('\n') : null;
}
