// Cursor CLI (`cursor-agent`; docs/vendors.md §7, §10). EVERY fact here is [reported]: the CLI installs only from
// cursor.com, which is unreachable where Baton was built, so this adapter was tested against a stand-in
// (test/fakes/cursor-agent.mjs) and its support stays unverified until someone checks it against the real CLI.
//
// The CLI chooses chat ids, but will make one before it starts: `cursor-agent create-chat` prints a new chat's
// UUID, and `cursor-agent --resume <id>` opens (and later reopens) exactly that chat. So the id is known before the
// TUI starts, chosen by the vendor. Ids are never invented: reports disagree on what the CLI does with an unknown one.
//
// planResume never runs create-chat: the core also plans resumes for the handle preview, which must start no
// process and write nothing. A fresh fallback therefore starts the CLI without `--resume`, and follow() discovers the
// new chat as the one new folder under the workspace's md5, claimed by no other agent (docs/vendors.md §11).
import { cursorUsage } from './usage.js';
import { CURSOR_ATTENTION } from './attention.js';
import type { AgentContext, PriorSession, SpawnPlan, VendorDefinition, VendorEnv } from '../adapter.js';
import { cliBinary, resolveBin } from '../kit/bin.js';
import { followDeps } from '../kit/claims.js';
import { freshWarning, goneFrom, resumePlanning, savedIdProblem, spawnPlan } from '../kit/plans.js';
import { createChat } from './create-chat.js';
import { CURSOR_TIMINGS, followCursor } from './follow.js';
import { CURSOR_CHAT_ID, CURSOR_STORE, chatFolderExists, displayChatsDir, findChatStore } from './store.js';

const BIN = 'cursor-agent';
const binary = cliBinary('cursor', BIN);

/** Shown wherever Cursor can be picked or is running (see the report of the issue that added it). */
export const CURSOR_SUPPORT_NOTE =
  "Cursor CLI support is experimental: Baton has been tested only against a stand-in that follows Cursor's published behaviour, not against the real cursor-agent. Tell us if something does not work.";

/** The vendor facts, as data. All [reported]. */
export const CURSOR_FACTS = {
  sessionIdPattern: CURSOR_CHAT_ID,
  submitDelayMs: 300,
  /**
   * What the CLI is reported to print for a chat it does not have (patterns used by nexu-io/open-design; docs/vendors.md
   * §7 notes conflicting reports). The core only applies them to a resume that exits non-zero within seconds.
   */
  resumeErrorTexts: [/chat not found/i, /no chat found/i, /could not find chat/i] as readonly RegExp[],
} as const;

function resumePlan(
  ctx: AgentContext,
  env: VendorEnv,
  id: string,
  chosenBy: PriorSession['chosenBy'],
  outcome: SpawnPlan['outcome'],
): SpawnPlan {
  return spawnPlan([resolveBin(binary, env), '--resume', id, ...ctx.args], id, chosenBy, outcome, null, {
    sessionId: id,
  });
}

/** A fresh CLI without an id: follow() discovers the chat it creates. Only for resume fallbacks (see the header). */
function freshUnknown(ctx: AgentContext, env: VendorEnv, why: string): SpawnPlan {
  return spawnPlan(
    [resolveBin(binary, env), ...ctx.args],
    null,
    null,
    'fresh',
    freshWarning('cursor', why, ctx.cwd),
    {},
  );
}

export const cursor: VendorDefinition<'cursor'> = {
  vendor: 'cursor',
  create(vctx) {
    const deps = followDeps(vctx, 'cursor', CURSOR_STORE, CURSOR_TIMINGS);
    const { store, timings } = deps;
    return {
      vendor: 'cursor',
      attention: CURSOR_ATTENTION,
      displayName: 'Cursor CLI (unverified)',
      supportNote: CURSOR_SUPPORT_NOTE,
      sessionIdPattern: CURSOR_FACTS.sessionIdPattern,
      submitDelayMs: CURSOR_FACTS.submitDelayMs,
      resumeErrorTexts: CURSOR_FACTS.resumeErrorTexts,
      ...binary,

      async spawnFresh(ctx, env) {
        const id = await createChat(resolveBin(binary, env), ctx.cwd, env, {
          binEnvVar: binary.binEnvVar,
          timeoutMs: timings.createChatTimeoutMs,
        });
        return resumePlan(ctx, env, id, 'vendor', 'fresh');
      },

      ...resumePlanning(async (ctx, prior, env) => {
        const id = prior.sessionId;
        const problem = savedIdProblem(id, CURSOR_CHAT_ID, 'a Cursor chat id', 'chat');
        if (problem) return { plan: freshUnknown(ctx, env, problem), found: false };
        if ((await findChatStore(id, ctx.cwd, env)) !== null)
          return { plan: resumePlan(ctx, env, id, prior.chosenBy, 'resumed'), found: true };
        // create-chat made the folder but nothing was said yet: the same chat opens again, empty, as it was.
        if ((await chatFolderExists(id, ctx.cwd, env)) && !prior.confirmed)
          return { plan: resumePlan(ctx, env, id, prior.chosenBy, 'resumed'), found: false };
        return { plan: freshUnknown(ctx, env, goneFrom(id, displayChatsDir(env), 'chat')), found: false };
      }),

      async exists(sessionId, cwd, env) {
        return (await findChatStore(sessionId, cwd, env)) !== null;
      },

      follow: (terminal, env, onSession) => followCursor(deps, terminal, env, onSession),

      listSessions: (env) => store.list(env),

      resumeCommand(sessionId) {
        return [BIN, '--resume', sessionId];
      },

      usage: cursorUsage,
    };
  },
};
