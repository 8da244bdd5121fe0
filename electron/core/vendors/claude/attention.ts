// Claude Code's state from its own hooks (docs/attention.md, Claude): Baton passes them for this session only with
// `--settings <json>` (an extra settings layer; the user's settings files are never written). Each hook runs
// `baton hook claude`, which reads the hook's JSON from standard input.
import { z } from 'zod';
import { shellWord } from '../kit/attention.js';
import { shortText, type AttentionFacts, type HookReport, type StateSignal } from '../../attention/signals.js';

/** The hook events Baton listens to, and the state each one means (Notification depends on what it says). */
const EVENT_STATES = {
  SessionStart: 'idle',
  UserPromptSubmit: 'working',
  PreToolUse: 'working',
  PostToolUse: 'working',
  Stop: 'waiting',
  Notification: null,
} as const;

/** Only the fields Baton reads; each is typed strictly, the rest of Claude's JSON is dropped unread. */
const hookInputSchema = z.object({
  hook_event_name: z.enum(Object.keys(EVENT_STATES) as [keyof typeof EVENT_STATES, ...(keyof typeof EVENT_STATES)[]]),
  message: z.string().max(4000).optional(),
  notification_type: z.string().max(100).optional(),
  source: z.string().max(100).optional(),
});

/** Notification: a permission prompt asks; "waiting for your input" only repeats the Stop that came before. */
function notification(message: string | undefined, type: string | undefined): StateSignal | null {
  if (type === 'permission_prompt' || (type === undefined && /permission/i.test(message ?? '')))
    return { state: 'asking', asks: shortText(message) };
  return null;
}

export function parseClaudeReport(report: HookReport): StateSignal | null {
  const input = hookInputSchema.safeParse(report.stdin);
  if (!input.success) return null;
  const { hook_event_name: event, message, notification_type: type } = input.data;
  if (event === 'Notification') return notification(message, type);
  const state = EVENT_STATES[event];
  return state === 'waiting' ? { state, turnEnd: true } : { state };
}

export const CLAUDE_ATTENTION: AttentionFacts = {
  source: 'hooks',
  nativeStates: ['idle', 'working', 'waiting', 'asking'],
  wire({ launcher }) {
    // Claude runs a hook as a shell command string. It is built only from constant parts and the absolute paths of
    // Baton's own runtime and script, each quoted as one shell word: never from a run name, a label, a handle or
    // anything else a user or a handle controls, so nothing can inject a command.
    const command = [...launcher.map(shellWord), 'claude'].join(' ');
    const hook = [{ hooks: [{ type: 'command', command, timeout: 10 }] }];
    const hooks = Object.fromEntries(Object.keys(EVENT_STATES).map((event) => [event, hook]));
    return ['--settings', JSON.stringify({ hooks })];
  },
  parseReport: parseClaudeReport,
  // Used only to correct a state Baton itself guessed (an answer typed into a dialog): the hooks say the rest.
  screen: {
    asking: [{ pattern: /Do you want to (?:proceed|make this edit to [^?\n]+|create [^?\n]+)\?/ }],
    working: [/esc to interrupt/i],
    waiting: [/^\s*❯ (?!\d\.)/m],
    lines: 30,
  },
};
