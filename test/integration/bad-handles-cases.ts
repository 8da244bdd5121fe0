// The bad handles bad-handles.test.ts sends: each a valid handle with one field broken, the field the refusal must
// name, and the values its message must not echo.
import { b64u, handleOf, freshBody, sessionId, type HandleBody } from './bad-handles-server.js';
import { newAgentId } from '../helpers/handle-ids.js';

export interface Case {
  name: string;
  handle: () => string;
  field: string;
  message: RegExp;
  /** Values from the handle that must appear in no error message (a function when they need the session id). */
  offending: string[] | (() => string[]);
  /** A missing directory is a finding of the preview, not an error: inspect answers with `cwd-missing`. */
  inspect?: 'cwd-missing';
}

const mutate = (change: (b: HandleBody) => void) => () => {
  const b = structuredClone(freshBody);
  change(b);
  return handleOf(b);
};
const agent0 = (change: (a: HandleBody['agents'][number]) => void) => mutate((b) => change(b.agents[0]!));

const UUID_SHAPED = '7f3c2a1e-5b4d-4e6f-9a8b-0c1d2e3f4a5b';
export const cases: Case[] = [
  {
    name: 'malformed base64',
    handle: () => 'baton1.***',
    field: 'handle',
    message: /handle is not valid base64url/,
    offending: ['***'],
  },
  {
    name: 'malformed JSON inside the base64',
    handle: () => `baton1.${b64u('{"v":1,')}`,
    field: 'handle',
    message: /handle is not valid JSON/,
    offending: ['{"v":1,'],
  },
  {
    name: 'unknown version in the prefix (baton2.)',
    handle: () => 'baton2.xxx',
    field: 'handle',
    message: /version 2 is not supported/,
    offending: ['xxx'],
  },
  {
    name: 'unknown version in the JSON ("v":2)',
    handle: mutate((b) => (b.v = 2)),
    field: 'v',
    message: /version is not supported/,
    offending: [],
  },
  {
    name: 'unknown vendor "evil"',
    handle: agent0((a) => (a.vendor = 'evil')),
    field: 'agents[0].vendor',
    message: /unknown vendor/,
    offending: ['evil'],
  },
  {
    name: 'session id with a leading dash (-rf)',
    handle: agent0((a) => (a.sessionId = '-rf')),
    field: 'agents[0].sessionId',
    message: /does not match the claude session id format/,
    offending: ['-rf'],
  },
  {
    name: 'session id with whitespace inside',
    handle: agent0((a) => (a.sessionId = `${sessionId.slice(0, 8)} ${sessionId.slice(9)}`)),
    field: 'agents[0].sessionId',
    message: /does not match the claude session id format/,
    offending: () => [`${sessionId.slice(0, 8)} `],
  },
  {
    name: 'session id with a trailing newline',
    handle: agent0((a) => (a.sessionId = `${sessionId}\n`)),
    field: 'agents[0].sessionId',
    message: /does not match the claude session id format/,
    offending: () => [`${sessionId}\n`],
  },
  {
    name: 'session id $(reboot)',
    handle: agent0((a) => (a.sessionId = '$(reboot)')),
    field: 'agents[0].sessionId',
    message: /does not match the claude session id format/,
    offending: ['$(reboot)', 'reboot'],
  },
  {
    name: 'relative cwd (proj)',
    handle: agent0((a) => (a.cwd = 'proj')),
    field: 'agents[0].cwd',
    message: /cwd must be an absolute path/,
    offending: ['proj'],
  },
  {
    name: 'non-existent cwd (/nonexistent/dir)',
    handle: agent0((a) => (a.cwd = '/nonexistent/dir')),
    field: 'agents[0].cwd',
    message: /directory does not exist/,
    offending: ['/nonexistent/dir', 'nonexistent'],
    inspect: 'cwd-missing',
  },
  {
    name: 'oversize handle (> 64 KiB)',
    handle: mutate((b) => (b['padding'] = 'x'.repeat(50_000))),
    field: 'handle',
    message: /larger than 64 KiB/,
    offending: ['xxxxxxxx'],
  },
  {
    name: '33 agents',
    handle: mutate((b) => {
      const a = b.agents[0]!;
      b.agents = Array.from({ length: 33 }, (_, i) => ({ ...a, id: newAgentId(), label: `agent-${i}` }));
    }),
    field: 'agents',
    message: /at most 32 agents/,
    offending: [],
  },
  {
    name: 'shell metacharacters in vendor (claude;rm -rf /)',
    handle: agent0((a) => (a.vendor = 'claude;rm -rf /')),
    field: 'agents[0].vendor',
    message: /unknown vendor/,
    offending: ['claude;rm -rf /', 'rm -rf'],
  },
  {
    name: 'shell metacharacters in session id (…;id)',
    handle: agent0((a) => (a.sessionId = `${UUID_SHAPED};id`)),
    field: 'agents[0].sessionId',
    message: /does not match the claude session id format/,
    offending: [`${UUID_SHAPED};id`, UUID_SHAPED],
  },
  {
    name: 'shell metacharacters in a non-existent cwd (/tmp/$(touch pwned))',
    handle: agent0((a) => (a.cwd = '/tmp/$(touch pwned)')),
    field: 'agents[0].cwd',
    message: /directory does not exist/,
    offending: ['/tmp/$(touch pwned)', 'pwned'],
    inspect: 'cwd-missing',
  },
  {
    name: 'BEL in the run name',
    handle: mutate((b) => (b.run.name = 'bad\u0007name')),
    field: 'run.name',
    message: /run name must not contain control characters/,
    offending: ['bad\u0007name', '\u0007'],
  },
  {
    name: 'newline in the run name',
    handle: mutate((b) => (b.run.name = 'bad\nname')),
    field: 'run.name',
    message: /run name must not contain control characters/,
    offending: ['bad\nname'],
  },
  {
    name: 'BEL in the label',
    handle: agent0((a) => (a.label = 'bad\u0007label')),
    field: 'agents[0].label',
    message: /label must not contain control characters/,
    offending: ['bad\u0007label', '\u0007'],
  },
  {
    name: 'newline in the label',
    handle: agent0((a) => (a.label = 'bad\nlabel')),
    field: 'agents[0].label',
    message: /label must not contain control characters/,
    offending: ['bad\nlabel'],
  },
  // Unicode format characters (category Cf) are invisible or reorder what is shown: a label or path could read
  // as another (docs/architecture.md §10).
  {
    name: 'a right-to-left override (U+202E) in the label',
    handle: agent0((a) => (a.label = 'plan\u202Egnp.exe')),
    field: 'agents[0].label',
    message: /label must not contain invisible formatting characters/,
    offending: ['plan\u202Egnp.exe', '\u202E'],
  },
  {
    name: 'a zero-width space (U+200B) in the run name',
    handle: mutate((b) => (b.run.name = 'de\u200Bmo')),
    field: 'run.name',
    message: /run name must not contain invisible formatting characters/,
    offending: ['de\u200Bmo', '\u200B'],
  },
  {
    name: 'a byte order mark (U+FEFF) in the label',
    handle: agent0((a) => (a.label = '\uFEFFplanner')),
    field: 'agents[0].label',
    message: /label must not contain invisible formatting characters/,
    offending: ['\uFEFFplanner', '\uFEFF'],
  },
  {
    name: 'a tag character (U+E0041, category Cf) in the label',
    handle: agent0((a) => (a.label = 'planner\u{E0041}')),
    field: 'agents[0].label',
    message: /label must not contain invisible formatting characters/,
    offending: ['planner\u{E0041}'],
  },
  {
    name: 'a left-to-right isolate (U+2066) in the cwd',
    handle: agent0((a) => (a.cwd = '/home/\u2066victim\u2069/proj')),
    field: 'agents[0].cwd',
    message: /cwd must not contain invisible formatting characters/,
    offending: ['/home/\u2066victim\u2069/proj', 'victim'],
  },
  {
    name: 'run name of 101 characters',
    handle: mutate((b) => (b.run.name = 'n'.repeat(101))),
    field: 'run.name',
    message: /run name must be at most 100 characters/,
    offending: ['n'.repeat(101)],
  },
  {
    name: 'label of 101 characters',
    handle: agent0((a) => (a.label = 'l'.repeat(101))),
    field: 'agents[0].label',
    message: /label must be at most 100 characters/,
    offending: ['l'.repeat(101)],
  },
];
