// Cursor CLI's state, read from its screen (docs/attention.md, Cursor): it shows no hook or notify option in its
// help, so its approval prompt and its working line are patterns over the mirror's screen (inferred).
import { shortText, type AttentionFacts } from '../../attention/signals.js';

export const CURSOR_ATTENTION: AttentionFacts = {
  source: 'screen',
  nativeStates: [],
  screen: {
    asking: [{ pattern: /(Run this command\?|Allow [^?\n]*\?)/, asks: (m) => shortText(m[1]) }],
    working: [/Generating|Running…/],
    waiting: [/Plan, search, build anything|Add a follow-up/],
    lines: 30,
  },
};
