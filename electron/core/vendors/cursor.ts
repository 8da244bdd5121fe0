// Cursor CLI (`cursor-agent`; vendors.md §7, §10). EVERY fact here is [reported]: the CLI installs only from
// cursor.com, which is unreachable where Baton was built, so this adapter was tested against a stand-in
// (test/fakes/cursor-agent.mjs) and its support stays unverified until someone checks it against the real CLI.
//
// The CLI chooses chat ids, but will make one before it starts: `cursor-agent create-chat` prints a new chat's
// UUID, and `cursor-agent --resume <id>` opens (and later reopens) exactly that chat. So the id is known before the
// TUI starts, chosen by the vendor. Ids are never invented: reports disagree on what the CLI does with an unknown one.
//
// planResume never runs create-chat: the core also plans resumes for the handle preview, which must start no
// process and write nothing. A fresh fallback therefore starts the CLI without `--resume`, and follow() discovers the
// new chat as the one new folder under the workspace's md5, claimed by no other agent (vendors.md §11).
import { execFile } from 'node:child_process';
import type { AgentContext, LiveTerminal, PriorSession, SessionObservation, SpawnPlan, VendorAdapter, VendorEnv } from './adapter.js';
import { cliBinary, freshWarning, goneFrom, savedIdProblem, spawnPlan } from './common.js';
import { repeat } from './poll.js';
import { CURSOR_CHAT_ID, chatFolderExists, displayChatsDir, findChatStore, listCursorChats, workspaceChats } from './cursor-store.js';

const BIN_ENV = 'BATON_CURSOR_BIN';
const DEFAULT_BIN = 'cursor-agent';

/** Shown wherever Cursor can be picked or is running (see the report of the issue that added it). */
export const CURSOR_SUPPORT_NOTE =
  'Cursor CLI support is experimental: Baton has been tested only against a stand-in that follows Cursor\'s published behaviour, not against the real cursor-agent. Tell us if something does not work.';

/** The vendor facts, as data. All [reported]. */
export const CURSOR_FACTS = {
  sessionIdPattern: CURSOR_CHAT_ID,
  submitDelayMs: 300,
  /**
   * What the CLI is reported to print for a chat it does not have (patterns used by nexu-io/open-design; vendors.md
   * §7 notes conflicting reports). The core only applies them to a resume that exits non-zero within seconds.
   */
  resumeErrorTexts: [/chat not found/i, /no chat found/i, /could not find chat/i] as readonly RegExp[],
} as const;

/** Timings; mutable so tests can shorten them. */
export const CURSOR_FOLLOW = {
  /** How long `create-chat` may take. */
  createChatTimeoutMs: 15_000,
  intervalMs: 500,
  /** A chat folder born this much before the spawn still counts as new (timestamp granularity). */
  clockSlackMs: 1000,
};

/** Chat ids given to an agent, with the follower that owns each: a discovered chat never goes to two agents. */
const claimed = new Map<string, symbol>();

const { facts: binary, of: binOf } = cliBinary(BIN_ENV, DEFAULT_BIN);

/** Baton's environment for a helper command, as a terminal would get it (never Baton's own token). */
function childEnv(env: VendorEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && !k.startsWith('BATON_TOKEN')) out[k] = v;
  return out;
}

const UUID_ANYWHERE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** The chat id in `create-chat`'s output: exactly one distinct UUID, or null. */
export function parseCreateChatOutput(stdout: string): string | null {
  const plain = stdout.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
  const ids = new Set(plain.match(UUID_ANYWHERE) ?? []);
  if (ids.size !== 1) return null;
  const [id] = ids;
  return id && CURSOR_CHAT_ID.test(id) ? id : null;
}

const firstLine = (s: string): string => (s.split('\n').find((l) => l.trim() !== '') ?? '').trim().slice(0, 200);

/** Runs `<bin> create-chat` in `cwd` (argv, no shell) and returns the new chat's id, or throws a clear Error. */
export function createChat(bin: string, cwd: string, env: VendorEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      bin,
      ['create-chat'],
      { cwd, env: childEnv(env), timeout: CURSOR_FOLLOW.createChatTimeoutMs, maxBuffer: 1024 * 1024, windowsHide: true },
      (err, stdout, stderr) => {
        const out = String(stdout);
        if (err) {
          const e = err as NodeJS.ErrnoException & { killed?: boolean; code?: unknown };
          if (e.code === 'ENOENT') {
            return reject(new Error(`Cursor CLI was not found (looked for '${bin}' on PATH); install it or set ${BIN_ENV}`));
          }
          if (e.killed) {
            return reject(new Error(`'${bin} create-chat' did not answer within ${CURSOR_FOLLOW.createChatTimeoutMs / 1000} s, so no chat was created`));
          }
          const why = firstLine(String(stderr)) || firstLine(out) || `exit code ${String(e.code)}`;
          return reject(new Error(`'${bin} create-chat' failed, so no chat was created: ${why}`));
        }
        const id = parseCreateChatOutput(out);
        if (!id) return reject(new Error(`'${bin} create-chat' did not print one chat id, so Baton cannot know which chat the agent has`));
        resolve(id);
      },
    );
  });
}

function resumePlan(ctx: AgentContext, env: VendorEnv, id: string, chosenBy: PriorSession['chosenBy'], outcome: SpawnPlan['outcome']): SpawnPlan {
  return spawnPlan([binOf(env), '--resume', id, ...ctx.args], id, chosenBy, outcome, null, { sessionId: id });
}

/** A fresh CLI without an id: follow() discovers the chat it creates. Only for resume fallbacks (see the header). */
function freshUnknown(ctx: AgentContext, env: VendorEnv, why: string): SpawnPlan {
  return spawnPlan([binOf(env), ...ctx.args], null, null, 'fresh', freshWarning('cursor', why, ctx.cwd), {});
}

export const cursorAdapter: VendorAdapter = {
  vendor: 'cursor',
  displayName: 'Cursor CLI (unverified)',
  supportNote: CURSOR_SUPPORT_NOTE,
  sessionIdPattern: CURSOR_FACTS.sessionIdPattern,
  submitDelayMs: CURSOR_FACTS.submitDelayMs,
  resumeErrorTexts: CURSOR_FACTS.resumeErrorTexts,
  ...binary,

  async spawnFresh(ctx, env) {
    const id = await createChat(binOf(env), ctx.cwd, env);
    return resumePlan(ctx, env, id, 'vendor', 'fresh');
  },

  async planResume(ctx: AgentContext, prior: PriorSession, env: VendorEnv): Promise<SpawnPlan> {
    const id = prior.sessionId;
    const problem = savedIdProblem(id, CURSOR_CHAT_ID, 'a Cursor chat id', 'chat');
    if (problem) return freshUnknown(ctx, env, problem);
    if ((await findChatStore(id, ctx.cwd, env)) !== null) return resumePlan(ctx, env, id, prior.chosenBy, 'resumed');
    // create-chat made the folder but nothing was said yet: the same chat opens again, empty, as it was.
    if ((await chatFolderExists(id, ctx.cwd, env)) && !prior.confirmed) return resumePlan(ctx, env, id, prior.chosenBy, 'resumed');
    return freshUnknown(ctx, env, goneFrom(id, displayChatsDir(env), 'chat'));
  },

  async exists(sessionId, cwd, env) {
    return (await findChatStore(sessionId, cwd, env)) !== null;
  },

  follow(terminal: LiveTerminal, env: VendorEnv, onSession: (seen: SessionObservation) => void): () => void {
    return followCursor(terminal, env, onSession);
  },

  listSessions(env) {
    return listCursorChats(env);
  },

  resumeCommand(sessionId) {
    return [DEFAULT_BIN, '--resume', sessionId];
  },
};

/**
 * With an id (create-chat or resume): reports it at once, then confirms it when its store.db appears. Without one
 * (a fresh fallback): waits for exactly one new chat folder of this workspace that no other agent claimed.
 */
function followCursor(terminal: LiveTerminal, env: VendorEnv, onSession: (seen: SessionObservation) => void): () => void {
  const me = Symbol('cursor follower');
  const hinted = terminal.hints.sessionId && CURSOR_CHAT_ID.test(terminal.hints.sessionId) ? terminal.hints.sessionId : null;
  let current: string | null = hinted;
  if (hinted) claimed.set(hinted, me);
  let confirmed = false;
  let reported: SessionObservation | null = null;
  let stopped = false;

  const discover = async (): Promise<string | null> => {
    const fits: string[] = [];
    for (const [id, born] of await workspaceChats(terminal.cwd, env)) {
      if (born < terminal.spawnedAt - CURSOR_FOLLOW.clockSlackMs) continue;
      const owner = claimed.get(id);
      if (owner !== undefined && owner !== me) continue;
      fits.push(id);
    }
    return fits.length === 1 ? fits[0]! : null;
  };

  const poll = async () => {
    if (current === null) {
      const only = await discover();
      if (stopped || only === null) return;
      const owner = claimed.get(only);
      if (owner !== undefined && owner !== me) return;
      claimed.set(only, me);
      current = only;
    }
    if (!confirmed && (await findChatStore(current, terminal.cwd, env)) !== null) confirmed = true;
    if (stopped) return;
    if (!reported || reported.sessionId !== current || reported.confirmed !== confirmed) {
      reported = { sessionId: current, confirmed };
      onSession({ ...reported });
    }
  };

  const stopPolling = repeat(poll, () => CURSOR_FOLLOW.intervalMs, () => stopped || confirmed);
  return () => {
    stopped = true;
    stopPolling();
  };
}
