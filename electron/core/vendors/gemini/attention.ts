// Gemini CLI's state, read from its screen (docs/attention.md, Gemini): its hooks live only in settings files (the
// user's or the project's), which Baton never writes, so its confirmation dialogs and its working line are
// patterns over the mirror's screen, and the state says it is inferred. Qwen Code shares these screens.
import { shortText, type AttentionFacts, type ScreenPatterns } from '../../attention/signals.js';

export const GEMINI_SCREENS: ScreenPatterns = {
  asking: [
    { pattern: /Allow execution of:? ?'?([^'?\n]+)'?\??/, asks: (m) => shortText(`Allow execution of ${m[1]}?`) },
    { pattern: /Apply this change\?/, asks: () => 'Apply this change?' },
    { pattern: /Waiting for user confirmation/ },
  ],
  working: [/esc to cancel/i],
  waiting: [/Type your message/],
  lines: 30,
};

export const GEMINI_ATTENTION: AttentionFacts = { source: 'screen', nativeStates: [], screen: GEMINI_SCREENS };
