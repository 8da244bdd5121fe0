// What Gemini CLI 0.61's screen shows of its input box (docs/input-ready.md, measured with the real CLI). Resumed, it
// draws its box, then, once its client is up, clears the screen, draws the conversation with "Resuming session..."
// instead of the box, and drops the keys it reads until the box is back. Its placeholder shows only in an empty box.
import type { InputScreens } from '../adapter.js';

export const GEMINI_INPUT: InputScreens = {
  restoring: [/Resuming session\.\.\./],
  emptyBox: [/Type your message or @path\/to\/file/],
};
