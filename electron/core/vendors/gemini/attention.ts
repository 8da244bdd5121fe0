// Gemini CLI's state, read from its screen (docs/attention.md, Gemini): its hooks live only in settings files (the
// user's or the project's), which Baton never writes, and the system-defaults file an environment variable can name
// is read only when root owns it and every directory above it, never a file of Baton's. So its confirmation dialogs
// and its working line are patterns over the mirror's screen, and the state says it is inferred. Qwen Code shares
// these screens.
import { shortText, type AttentionFacts, type ScreenPatterns } from '../../attention/signals.js';

export const GEMINI_SCREENS: ScreenPatterns = {
  asking: [
    // 0.61 names the tool in the question ("Allow execution of [Shell]?") and the command in the box's title line
    // above it ("? Shell  touch compat.txt"); first, so that on the same question it wins over the rule below.
    {
      pattern: /\?\s+Shell\s+([^\n│]*?)\s*│?[ \t]*\n(?:[^\n]*\n){0,12}?[^\n]*Allow execution of:? ?\[Shell\]\?/,
      asks: (m) => shortText(`Allow execution of ${m[1]}?`),
    },
    { pattern: /Allow execution of:? ?'?([^'?\n]+)'?\??/, asks: (m) => shortText(`Allow execution of ${m[1]}?`) },
    { pattern: /Apply this change\?/, asks: () => 'Apply this change?' },
    { pattern: /Waiting for user confirmation/ },
  ],
  working: [/esc to cancel/i],
  waiting: [/Type your message/],
  lines: 30,
  // 0.61 keeps its input box under "⠏ Thinking... (esc to cancel, 7s)" for the whole turn.
  promptStaysWhileWorking: true,
};

export const GEMINI_ATTENTION: AttentionFacts = { source: 'screen', nativeStates: [], screen: GEMINI_SCREENS };
