// The fake model every fake vendor CLI answers with: it remembers "remember the number N" and says the number
// when asked later. Deterministic, no API. Node builtins only.

const REMEMBER = /remember the number (\d+)/i;

/** The answer to the last of `texts` (the user's messages, oldest first). */
export function answerFor(texts) {
  const last = texts[texts.length - 1] ?? '';
  const now = REMEMBER.exec(last);
  if (now) return `OK, I will remember ${now[1]}.`;
  for (let i = texts.length - 2; i >= 0; i--) {
    const m = REMEMBER.exec(texts[i]);
    if (m) return `The number is ${m[1]}.`;
  }
  return 'I do not know any number.';
}

/** The answer to a conversation of turns `{role, text}`: only the user's turns count. */
export function answerTurns(turns) {
  return answerFor(turns.filter((t) => t.role === 'user').map((t) => t.text));
}

/** The model "thinking": waits `ms` (nothing when 0). */
export async function think(ms) {
  if (ms > 0) await new Promise((r) => setTimeout(r, ms));
}
