// Codex's state (docs/attention.md, Codex): its `notify` program, passed for this session only with
// `-c notify=[…]` (an argv array, no shell), says when a turn is complete; its approval dialogs and its working
// line are read from the screen (inferred), since notify says nothing of them.
import { z } from 'zod';
import { tomlStrings } from '../kit/attention.js';
import { shortText, type AttentionFacts, type HookReport, type StateSignal } from '../../attention/signals.js';

/**
 * Codex passes one JSON argument; Baton reads its type, the turn's input and the last message, strictly typed, and
 * drops the rest.
 */
const notifySchema = z.object({
  type: z.string().max(100),
  // The report's line is at most 256 KiB; an odd input list only loses the internal-turn check, never the report.
  'input-messages': z.array(z.string()).optional().catch(undefined),
  'last-assistant-message': z.string().max(100_000).nullable().optional(),
});

/**
 * Turns Codex runs for itself on a thread of their own, whose completion it notifies like the user's (0.169): the
 * title of a new task ("Generate a concise, single-line task title … User prompt:\n<the user's prompt>"). Their
 * report says nothing of the user's turn, which may still run or wait for an approval.
 */
const INTERNAL_TURNS: readonly RegExp[] = [/^Generate a [^\n]*\btitle\b[\s\S]*\nUser prompt:\n/];

export function parseCodexReport(report: HookReport): StateSignal | null {
  const n = notifySchema.safeParse(report.arg);
  if (!n.success) return null;
  const input = n.data['input-messages'];
  if (input?.length === 1 && INTERNAL_TURNS.some((p) => p.test(input[0]!))) return null;
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
        // 0.169 puts "Environment: local" and "Reason: <the model's justification>" between the question and the
        // command's `$ ` line.
        pattern:
          /Would you like to (run the following command|make the following edits|apply [^?\n]+)\?(?:(?:\n(?!\s*\$ )[^\n]*){0,6}\n\s*\$ ([^\n]+))?/,
        asks: (m) => shortText(m[2] ? `${m[1]}: ${m[2]}` : m[1]),
      },
      { pattern: /Allow command\?/ },
    ],
    // 0.169 keeps its composer ("› Ask Codex to do anything") under the working line while a turn runs: the working
    // line with the composer below it is work, though the composer alone is a waiting prompt.
    working: [/esc to interrupt[^\n]*(?:\n[^\n]*){0,8}?\n\s*›[ \t]/i, /esc to interrupt/i],
    waiting: [/^\s*› (?!\d\.)/m],
    lines: 30,
  },
};
