// Qwen Code's state, read from its screen (docs/attention.md, Qwen): a fork of Gemini CLI whose hooks live in
// settings files only, which Baton never writes. Its screens differ from Gemini's (as 0.24.4 draws them against the
// mock model): the prompt box stays on screen while a turn runs (a user may steer it), so the footer under it tells
// work from waiting; the approval dialog names only the command's first word and sits above a spinner line.
import { shortText, type AttentionFacts, type ScreenPatterns } from '../../attention/signals.js';
import { GEMINI_SCREENS } from '../gemini/attention.js';

export const QWEN_SCREENS: ScreenPatterns = {
  asking: [
    // "? Shell touch compat.txt (Run touch compat.txt) ←", the command, "Allow execution of: 'touch'?", the options,
    // then "⠏ Waiting for user confirmation...": the whole dialog, so that it wins over the spinner line alone.
    {
      pattern:
        /\?\s+Shell\s+([^\n]+?)(?:\s+\([^\n]*\))?\s*←?[ \t]*\n(?:[^\n]*\n){0,12}?[^\n]*Allow execution of[^\n]*\?(?:(?:\n[^\n]*){0,8}?\n[^\n]*Waiting for user confirmation[^\n]*)?/,
      asks: (m) => shortText(`Allow execution of ${m[1]}?`),
    },
    ...GEMINI_SCREENS.asking,
  ],
  // The footer under the prompt box while a turn runs: "Enter to steer · Ctrl+Q to queue · …".
  working: [...GEMINI_SCREENS.working, /Enter to steer/],
  // The prompt box itself, between its two rules: after a turn it may hold a suggested next prompt (Qwen asks the
  // model for one) in place of its "Type your message" placeholder. During a turn the steering footer lies lower.
  waiting: [...GEMINI_SCREENS.waiting, /^─{20,}\n>[^\n]*\n─{20,}$/m],
  lines: GEMINI_SCREENS.lines,
};

export const QWEN_ATTENTION: AttentionFacts = { source: 'screen', nativeStates: [], screen: QWEN_SCREENS };
