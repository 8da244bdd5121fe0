// The vendors whose id Baton mints, as rows for minted-id-adapters.test.ts: where each keeps its sample store, the
// facts its adapter must show, and how a test writes into its store. Each row holds the values its own adapter test
// asserted before the cases became one table (docs/vendors.md §3–§5).
import { appendFile, cp, mkdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { VendorEnv } from '../../electron/core/vendors/adapter.js';
import { COPILOT_STORE } from '../../electron/core/vendors/copilot/store.js';
import { GEMINI_STORE, geminiChatFileName } from '../../electron/core/vendors/gemini/store.js';
import { QWEN_STORE, encodeQwenCwd } from '../../electron/core/vendors/qwen/store.js';
import type { Vendors } from '../../electron/core/vendors/registry.js';

const sample = (vendor: string) =>
  fileURLToPath(new URL(`../fixtures/vendor-samples/${vendor}/.${vendor}`, import.meta.url));

export interface MintedIdRow {
  vendor: 'copilot' | 'gemini' | 'qwen';
  sampleId: string;
  /** Copies the sample store into `tmp`; the environment and the store's folder. */
  setup(tmp: string): Promise<{ env: Record<string, string>; home: string }>;
  submitDelayMs: number;
  sessionErrorExitCode: number;
  resumeArgs(id: string): string[];
  /** Ids the pattern takes, and ids it refuses. */
  accepts: string[];
  refuses: string[];
  errorTexts: string[];
  notErrors: string[];
  /** `-n <run>/<label>` on a new session. */
  named: boolean;
  /** Sessions are per project (looked up in the cwd's folder), not global. */
  perProject: boolean;
  /** Ids that are not in the store or may never be looked up, beside the missing store. */
  notFound: (sampleId: string) => string[];
  invalidIds: (sampleId: string) => string[];
  freshArgs: string[];
  resumeUserArgs: string[];
  /** Writes a session of `id` in which something was said, for `cwd`. */
  writeConversation(home: string, id: string, cwd: string): Promise<void>;
  /** Before a same-id respawn: something the store may hold that is not a transcript. */
  beforeSameId?(home: string, id: string): Promise<void>;
  /** Written while following: must not confirm the id. */
  notConfirming?(home: string, id: string, cwd: string): Promise<void>;
  /** The sample's file the listing reads, and how a test makes it be read again. */
  sampleFile(home: string): string;
  reread(file: string, when: Date): Promise<void>;
  cacheSize(vendors: Vendors): number;
  /** Removes the sample; the environment of the resume; the warning it must give. */
  removeSample(home: string): Promise<void>;
  goneEnv(env: VendorEnv): VendorEnv;
  goneWarning(home: string): string;
  /** Where a vendor-chosen id that is missing was looked for. */
  lookedIn(home: string): string;
}

const upper = (id: string) => id.toUpperCase();
const newMtime = async (file: string, when: Date) => {
  const later = new Date(when.getTime() + 5000);
  await utimes(file, later, later);
};

const geminiHeader = (sessionId: string) =>
  JSON.stringify({
    sessionId,
    projectHash: 'x',
    startTime: '2026-11-25T21:47:05.000Z',
    lastUpdated: '2026-11-25T21:47:05.000Z',
    kind: 'main',
  });
const geminiUser = (text: string, id = 'm1') =>
  JSON.stringify({ id, timestamp: '2026-11-25T21:47:05.100Z', type: 'user', content: [{ text }] });

/** A project of the Gemini store for `cwd` (projects.json and its marker); its chats folder. */
export async function addGeminiProject(gdir: string, cwd: string, slug: string): Promise<string> {
  const projects = JSON.parse(await readFile(join(gdir, 'projects.json'), 'utf8')) as {
    projects: Record<string, string>;
  };
  projects.projects[cwd] = slug;
  await writeFile(join(gdir, 'projects.json'), JSON.stringify(projects));
  await mkdir(join(gdir, 'tmp', slug, 'chats'), { recursive: true });
  await writeFile(join(gdir, 'tmp', slug, '.project_root'), cwd);
  return join(gdir, 'tmp', slug, 'chats');
}

const qwenUser = (sessionId: string, cwd: string, text: string) =>
  JSON.stringify({
    uuid: 'u',
    parentUuid: null,
    sessionId,
    timestamp: 't',
    type: 'user',
    provenance: 'real_user',
    cwd,
    version: '0.24.4',
    message: { role: 'user', parts: [{ text }] },
  });

export const MINTED_ID_ROWS: MintedIdRow[] = [
  {
    vendor: 'copilot',
    sampleId: '5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9',
    async setup(tmp) {
      const home = join(tmp, 'copilot-home');
      await cp(sample('copilot'), home, { recursive: true });
      return { env: { HOME: join(tmp, 'home'), COPILOT_HOME: home, PATH: '/usr/bin:/bin' }, home };
    },
    submitDelayMs: 300,
    sessionErrorExitCode: 1,
    resumeArgs: (id) => [`--resume=${id}`],
    accepts: ['5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9'],
    // Resume takes prefixes; Baton stores and passes full ids only.
    refuses: [upper('5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9'), '5e6f7a8', 'task-42 remember', '--yolo'],
    errorTexts: [
      "Error: No session, task, or name matched '5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9'.",
      'The value is not a valid UUID, so a new session cannot be created.',
    ],
    notErrors: ['● OK, I will remember 5.'],
    named: true,
    perProject: false,
    notFound: (id) => [
      '00000000-0000-4000-8000-000000000000',
      '../session-state',
      '.session-operation-locks',
      upper(id),
    ],
    invalidIds: (id) => ['--yolo', '5e6f7a8', 'task-42 remember', upper(id), ''],
    freshArgs: ['--model', 'gpt-5.4', 'a b; rm -rf /'],
    resumeUserArgs: ['--model', 'x'],
    async writeConversation(home, id, cwd) {
      const dir = join(home, 'session-state', id);
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, 'workspace.yaml'), `id: ${id}\ncwd: ${cwd}\nuser_named: false\n`);
    },
    sampleFile: (home) => join(home, 'session-state', '5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9', 'events.jsonl'),
    reread: (file) => appendFile(file, '\n'),
    cacheSize: (vendors) => vendors.context.state(COPILOT_STORE).cacheSize,
    removeSample: (home) =>
      rm(join(home, 'session-state', '5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9'), { recursive: true }),
    goneEnv: (env) => ({ ...env, COPILOT_HOME: '' }),
    goneWarning: () =>
      'copilot: session 5e6f7a8b… is not in ~/.copilot/session-state any more; starting a fresh conversation in /home/u/proj',
    lookedIn: (home) => `${home}/session-state`,
  },
  {
    vendor: 'gemini',
    sampleId: '3b9e7c10-4d2f-4a61-8e5b-6c7d8e9f0a1b',
    async setup(tmp) {
      const home = join(tmp, 'ghome', '.gemini');
      await cp(sample('gemini'), home, { recursive: true });
      return { env: { HOME: join(tmp, 'home'), GEMINI_CLI_HOME: join(tmp, 'ghome'), PATH: '/usr/bin:/bin' }, home };
    },
    submitDelayMs: 800,
    sessionErrorExitCode: 42,
    resumeArgs: (id) => ['--resume', id],
    // Gemini takes any id; a leading "-" never.
    accepts: ['3b9e7c10-4d2f-4a61-8e5b-6c7d8e9f0a1b', 'not-a-uuid'],
    refuses: ['--yolo', '-x', 'a/b', 'a b', '', 'a'.repeat(129)],
    errorTexts: [
      'Error resuming session: Invalid session identifier "3b9e7c10-4d2f-4a61-8e5b-6c7d8e9f0a1b".\n  Searched for sessions in /home/u/.gemini/tmp/proj/chats.',
      'No previous sessions found for this project',
      'Error starting session: Session ID "3b9e7c10-4d2f-4a61-8e5b-6c7d8e9f0a1b" already exists. Use --resume to resume it, or provide a different ID.',
    ],
    notErrors: ['Type your message or @path/to/file'],
    named: false,
    perProject: true,
    notFound: () => ['00000000-0000-4000-8000-000000000000', '../../projects', '--resume'],
    invalidIds: () => ['--yolo', '-r', 'a/b', ''],
    freshArgs: ['-m', 'gemini-pro', 'a b; rm -rf /'],
    resumeUserArgs: ['-m', 'x'],
    async writeConversation(home, id, cwd) {
      const chats = await addGeminiProject(home, cwd, 'proj-1');
      await writeFile(join(chats, geminiChatFileName(id, new Date())), `${geminiHeader(id)}\n${geminiUser('hi')}\n`);
    },
    async notConfirming(home, id, cwd) {
      const chats = await addGeminiProject(home, cwd, 'proj-1');
      await writeFile(join(chats, geminiChatFileName(id, new Date())), `${geminiHeader(id)}\n`);
    },
    sampleFile: (home) => join(home, 'tmp/proj/chats/session-2026-11-25T21-47-3b9e7c10.jsonl'),
    reread: newMtime,
    cacheSize: (vendors) => vendors.context.state(GEMINI_STORE).cacheSize,
    removeSample: (home) => rm(join(home, 'tmp/proj/chats/session-2026-11-25T21-47-3b9e7c10.jsonl')),
    goneEnv: (env) => env,
    goneWarning: (home) =>
      `gemini: session 3b9e7c10… is not in ${home}/tmp/proj/chats any more; starting a fresh conversation in /home/u/proj`,
    lookedIn: (home) => `${home}/tmp/proj/chats`,
  },
  {
    vendor: 'qwen',
    sampleId: '9d8c7b6a-5f4e-4d3c-b2a1-0f9e8d7c6b5a',
    async setup(tmp) {
      const home = join(tmp, 'qwen-home');
      await cp(sample('qwen'), home, { recursive: true });
      return { env: { HOME: join(tmp, 'home'), QWEN_HOME: home, PATH: '/usr/bin:/bin' }, home };
    },
    submitDelayMs: 300,
    sessionErrorExitCode: 1,
    resumeArgs: (id) => ['--resume', id],
    accepts: ['9d8c7b6a-5f4e-4d3c-b2a1-0f9e8d7c6b5a'],
    refuses: [upper('9d8c7b6a-5f4e-4d3c-b2a1-0f9e8d7c6b5a'), 'my title', '--yolo'],
    errorTexts: [
      'No saved session found with ID 9d8c7b6a-5f4e-4d3c-b2a1-0f9e8d7c6b5a. Run `qwen --resume` without an ID to choose from existing sessions.',
      'No saved session found with title "nosuch".',
      'Error: Session Id 9d8c7b6a-5f4e-4d3c-b2a1-0f9e8d7c6b5a already exists (active or archived). Delete or unarchive it first.',
      'Invalid --session-id: "x". Must be a valid UUID (e.g., "123e4567-e89b-12d3-a456-426614174000").',
    ],
    notErrors: ['✦ The number is 5.'],
    named: false,
    perProject: true,
    notFound: (id) => ['00000000-0000-4000-8000-000000000000', '../../projects/x', upper(id)],
    invalidIds: (id) => ['--yolo', 'my title', upper(id), ''],
    // Never a positional prompt of Baton's own: in Qwen that is one-shot.
    freshArgs: ['--auth-type', 'openai', '-m', 'mock model'],
    resumeUserArgs: ['-m', 'x'],
    async writeConversation(home, id, cwd) {
      const dir = join(home, 'projects', encodeQwenCwd(cwd), 'chats');
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, `${id}.jsonl`), `${qwenUser(id, cwd, 'hi')}\n`);
    },
    // A runtime sidecar alone is no transcript.
    beforeSameId: (home, id) => writeFile(join(home, 'projects', '-home-u-proj', 'chats', `${id}.runtime.json`), '{}'),
    sampleFile: (home) => join(home, 'projects', '-home-u-proj', 'chats', '9d8c7b6a-5f4e-4d3c-b2a1-0f9e8d7c6b5a.jsonl'),
    reread: newMtime,
    cacheSize: (vendors) => vendors.context.state(QWEN_STORE).cacheSize,
    removeSample: (home) =>
      rm(join(home, 'projects', '-home-u-proj', 'chats', '9d8c7b6a-5f4e-4d3c-b2a1-0f9e8d7c6b5a.jsonl')),
    goneEnv: (env) => ({ ...env, QWEN_HOME: '' }),
    goneWarning: () =>
      'qwen: session 9d8c7b6a… is not in ~/.qwen/projects/-home-u-proj/chats any more; starting a fresh conversation in /home/u/proj',
    lookedIn: (home) => `${home}/projects/-home-u-proj/chats`,
  },
];
