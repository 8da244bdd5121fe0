// What the mock model (mock-model.ts) answers, deterministically, from the whole conversation of a request: the
// words a test types and the replies it then expects on the screen and in the log.
export const REMEMBER = /remember the number (\d+)/i;
export const DONT_KNOW = 'I do not know any number.';
export const rememberReply = (n: string) => `OK, I will remember ${n}.`;
export const recallReply = (n: string) => `The number is ${n}.`;
/** "please run `cmd`" makes the mock call its shell tool (Claude's Bash) once; the tool's result is answered. */
export const TOOL_REQUEST = /please run `([^`]+)`/i;
export const toolReply = (cmd: string) => `Ran ${cmd}.`;
/** "take your time" in the last user message makes the mock wait this long before it answers: a turn a test can see. */
export const TAKE_TIME = /take your time/i;
export const TAKE_TIME_MS = 8000;

// ---------- the "model" ----------

export interface Answer {
  reply: string;
  fromHistory: boolean;
  lastNumber: string | null;
  historyNumber: string | null;
}

/** The deterministic answer to a conversation given as its user messages' texts, oldest first. */
export function answer(userTexts: readonly string[]): Answer {
  const last = userTexts.at(-1) ?? '';
  const lastNumber = REMEMBER.exec(last)?.[1] ?? null;
  let historyNumber: string | null = null;
  for (const t of userTexts.slice(0, -1)) {
    const m = REMEMBER.exec(t);
    if (m) historyNumber = m[1]!;
  }
  if (lastNumber !== null) return { reply: rememberReply(lastNumber), fromHistory: false, lastNumber, historyNumber };
  if (historyNumber !== null)
    return { reply: recallReply(historyNumber), fromHistory: true, lastNumber, historyNumber };
  return { reply: DONT_KNOW, fromHistory: false, lastNumber, historyNumber };
}
