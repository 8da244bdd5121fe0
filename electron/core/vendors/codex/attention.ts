// Codex's state (docs/attention.md, Codex): its `notify` program, passed for this session only with
// `-c notify=[…]` (an argv array, no shell), says when a turn is complete; its approval dialogs and its working
// line are read from the screen (inferred), since notify says nothing of them.
import { z } from 'zod';
import { tomlStrings } from '../kit/attention.js';
import { shortText, type AttentionFacts, type HookReport, type StateSignal } from '../../attention/signals.js';

/** Codex passes one JSON argument; Baton reads its type and the last message, strictly typed, and drops the rest. */
const notifySchema = z.object({
  type: z.string().max(100),
  'last-assistant-message': z.string().max(100_000).nullable().optional(),
});

export function parseCodexReport(report: HookReport): StateSignal | null {
  const n = notifySchema.safeParse(report.arg);
  if (!n.success) return null;
  if (n.data.type === 'agent-turn-complete')
    return { state: 'waiting', asks: shortText(n.data['last-assistant-message']), turnEnd: true };
  return null;
}

export const CODEX_ATTENTION: AttentionFacts = {
  source: 'notify',
  nativeStates: ['waiting'],
  wire: ({ launcher }) => ['-c', `notify=${tomlStrings([...launcher, 'codex'])}`],
  parseReport: parseCodexReport,
  screen: {
    asking: [
      {
        pattern:
          /Would you like to (run the following command|make the following edits|apply [^?\n]+)\?(?:\s*\n\s*\$?\s*([^\n]+))?/,
        asks: (m) => shortText(m[2] ? `${m[1]}: ${m[2]}` : m[1]),
      },
      { pattern: /Allow command\?/ },
    ],
    working: [/esc to interrupt/i],
    waiting: [/^\s*› (?!\d\.)/m],
    lines: 30,
  },
};
