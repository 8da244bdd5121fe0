// Copilot CLI's state, read from its screen (docs/attention.md, Copilot): its hooks are settings (user or
// repository files) and its own notifications go to the OS, so its permission dialog and its working line are
// patterns over the mirror's screen (inferred).
import { shortText, type AttentionFacts } from '../../attention/signals.js';

export const COPILOT_ATTENTION: AttentionFacts = {
  source: 'screen',
  nativeStates: [],
  screen: {
    asking: [{ pattern: /(Do you want to (?:run|allow|use|edit|create) [^?\n]*\?)/, asks: (m) => shortText(m[1]) }],
    working: [/Esc to cancel/i],
    waiting: [/\/ commands · \? help|Enter @ to mention files/],
    lines: 30,
  },
};
