// Copilot CLI's state, read from its screen (docs/attention.md, Copilot): its hooks are settings (user or
// repository files) and its own notifications go to the OS, so its permission dialog and its working line are
// patterns over the mirror's screen (inferred).
import { shortText, type AttentionFacts } from '../../attention/signals.js';

export const COPILOT_ATTENTION: AttentionFacts = {
  source: 'screen',
  nativeStates: [],
  screen: {
    asking: [
      // 1.0.102 shows the command in a box above the question ("│ │ touch compat.txt │ │"); first, so that on the
      // same question it wins over the rule below.
      {
        pattern: /│ │ ([^│\n]*?)\s*│ │[^\n]*\n(?:[^\n]*\n){0,8}?[^\n]*Do you want to run this command\?/,
        asks: (m) => shortText(`Do you want to run ${m[1]}?`),
      },
      { pattern: /(Do you want to (?:run|allow|use|edit|create) [^?\n]*\?)/, asks: (m) => shortText(m[1]) },
    ],
    // 1.0.102's status line under the prompt box while a turn runs ("◎ Working esc esc edit prompt"). Case matters:
    // its dialog's own footer says "esc to cancel", which is no work.
    working: [/^\s*\S\s+Working\b/m, /Esc to cancel/],
    waiting: [/\/ commands · \? help|Enter @ to mention files/],
    lines: 30,
  },
};
