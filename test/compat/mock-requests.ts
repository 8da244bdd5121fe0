// The mock model reading each API's request (Anthropic Messages, OpenAI Responses, Chat Completions, Gemini): the
// user texts of the conversation, the system text, and a value that fills a Gemini JSON schema.
export type Json = Record<string, unknown>;
export const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Text of an Anthropic / Chat Completions / Responses `content` (string or blocks), without tool results. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter(isObj)
    .filter(
      (b) =>
        b.type === 'text' ||
        b.type === 'input_text' ||
        b.type === 'output_text' ||
        (b.type === undefined && typeof b.text === 'string'),
    )
    .map((b) => str(b.text))
    .join('\n');
}

/** User messages of an Anthropic Messages or Chat Completions request (tool results skipped). */
export function roleMessages(messages: unknown): string[] {
  if (!Array.isArray(messages)) return [];
  return messages
    .filter(isObj)
    .filter((m) => m.role === 'user')
    .map((m) => contentText(m.content))
    .filter((t) => t.trim() !== '');
}

/** User messages of a Responses request: `input` is a string or items; only `message` items of role user. */
export function responsesUserTexts(input: unknown): string[] {
  if (typeof input === 'string') return [input];
  if (!Array.isArray(input)) return [];
  return input
    .filter(isObj)
    .filter((i) => (i.type === 'message' || i.type === undefined) && i.role === 'user')
    .map((i) => contentText(i.content))
    .filter((t) => t.trim() !== '');
}

/** User turns of a Gemini request: text parts that are not thoughts (function responses skipped). */
export function geminiUserTexts(contents: unknown): string[] {
  if (!Array.isArray(contents)) return [];
  return contents
    .filter(isObj)
    .filter((c) => c.role === 'user' || c.role === undefined)
    .map((c) =>
      (Array.isArray(c.parts) ? c.parts : [])
        .filter(isObj)
        .filter((p) => typeof p.text === 'string' && p.thought !== true)
        .map((p) => str(p.text))
        .join('\n'),
    )
    .filter((t) => t.trim() !== '');
}

export function systemText(system: unknown): string {
  if (typeof system === 'string') return system;
  if (Array.isArray(system)) return contentText(system);
  if (isObj(system) && Array.isArray(system.parts))
    return system.parts
      .filter(isObj)
      .map((p) => str(p.text))
      .join('\n');
  return '';
}

// ---------- Gemini JSON schema filling ----------

/** A value that satisfies a (Gemini, UPPERCASE-typed, or JSON Schema) schema; the router classifier gets its shape. */
export function fillSchema(schema: unknown, key = ''): unknown {
  if (!isObj(schema)) return 'mock';
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  const anyOf = (schema.anyOf ?? schema.oneOf) as unknown;
  if (Array.isArray(anyOf) && anyOf.length > 0) return fillSchema(anyOf[0], key);
  let type = schema.type;
  if (Array.isArray(type)) type = type.find((t) => t !== 'null' && t !== 'NULL') ?? type[0];
  const t = String(type ?? (schema.properties ? 'object' : 'string')).toLowerCase();
  switch (t) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const props = isObj(schema.properties) ? schema.properties : {};
      for (const [k, v] of Object.entries(props)) out[k] = fillSchema(v, k);
      return out;
    }
    case 'array':
      return [];
    case 'boolean':
      return false;
    case 'number':
    case 'integer': {
      // The router classifier's score: low means "simple" (a flash model), which is all a mock needs.
      const min = typeof schema.minimum === 'number' ? schema.minimum : 1;
      return key === 'complexity_score' ? Math.max(min, 10) : Math.max(min, 1);
    }
    default:
      if (key === 'next_speaker') return 'user';
      if (key === 'complexity_reasoning' || key === 'reasoning') return 'A short question; a simple reply will do.';
      return 'mock';
  }
}
