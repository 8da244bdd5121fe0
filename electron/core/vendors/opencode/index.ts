// opencode (docs/vendors.md §6, §10, §11). The CLI takes no session id at spawn and creates its session at the first
// prompt, so Baton gives the TUI a port of its own (`--port <free port>`) and follow() asks the TUI's own server
// (follow.ts, server.ts). Resume: `opencode -s <id>` in the session's own directory (elsewhere the CLI hangs,
// docs/vendors.md §6); the core spawns in the agent's stored cwd, and planResume only resumes a session whose directory
// is that cwd.
import { SQL_JS } from '../kit/sqlite-image.js';
import { OpencodeUsage } from './usage.js';
import { OPENCODE_ATTENTION } from './attention.js';
import { createServer } from 'node:http';
import type { AgentContext, SpawnPlan, VendorDefinition, VendorEnv } from '../adapter.js';
import { cliBinary, resolveBin } from '../kit/bin.js';
import { followDeps } from '../kit/claims.js';
import { shortId } from '../kit/ids.js';
import { freshWarning, goneFrom, resumePlanning, savedIdProblem, spawnPlan } from '../kit/plans.js';
import { pathForms } from '../kit/store-fs.js';
import { OPENCODE_TIMINGS, followOpencode, validPort } from './follow.js';
import { OPENCODE_SESSION_ID, OPENCODE_STORE, displayDataDir } from './store.js';

const BIN = 'opencode';
const binary = cliBinary('opencode', BIN);

/** The vendor facts, as data. */
export const OPENCODE_FACTS = {
  sessionIdPattern: OPENCODE_SESSION_ID,
  submitDelayMs: 300,
  /** TUI `-s <missing id>`: `Error: Session not found: <id>`, exit 1 (docs/vendors.md §6). */
  resumeErrorTexts: [/Session not found/] as readonly RegExp[],
} as const;

/** A TCP port that is free on 127.0.0.1 now (listen on 0, read it, close). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

/** The port the user's own arguments give (`--port N` / `--port=N`), if any: then Baton does not add its own. */
function userPort(args: readonly string[]): number | null | undefined {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--port') return validPort(args[i + 1]);
    if (a.startsWith('--port=')) return validPort(a.slice('--port='.length));
  }
  return undefined;
}

async function withPort(
  ctx: AgentContext,
  head: string[],
  hints: Record<string, string>,
): Promise<{ argv: string[]; hints: Record<string, string> }> {
  const own = userPort(ctx.args);
  if (own !== undefined)
    return { argv: [...head, ...ctx.args], hints: own === null ? hints : { ...hints, port: String(own) } };
  const port = await freePort();
  return { argv: [...head, '--port', String(port), ...ctx.args], hints: { ...hints, port: String(port) } };
}

async function fresh(ctx: AgentContext, env: VendorEnv, why: string | null): Promise<SpawnPlan> {
  const { argv, hints } = await withPort(ctx, [resolveBin(binary, env)], {});
  return spawnPlan(argv, null, null, 'fresh', why === null ? null : freshWarning('opencode', why, ctx.cwd), hints);
}

export const opencode: VendorDefinition<'opencode'> = {
  vendor: 'opencode',
  create(vctx) {
    const deps = followDeps(vctx, 'opencode', OPENCODE_STORE, OPENCODE_TIMINGS);
    const { store } = deps;
    return {
      vendor: 'opencode',
      attention: OPENCODE_ATTENTION,
      displayName: 'opencode',
      // follow() tells sessions apart by this process's own event stream, so same-directory spawns need not queue.
      tellsConcurrentSessionsApart: true,
      sessionIdPattern: OPENCODE_FACTS.sessionIdPattern,
      submitDelayMs: OPENCODE_FACTS.submitDelayMs,
      resumeErrorTexts: OPENCODE_FACTS.resumeErrorTexts,
      ...binary,

      spawnFresh(ctx, env) {
        return fresh(ctx, env, null);
      },

      ...resumePlanning(async (ctx, prior, env) => {
        const id = prior.sessionId;
        const problem = savedIdProblem(id, OPENCODE_SESSION_ID, 'an opencode session id');
        if (problem) return { plan: await fresh(ctx, env, problem), found: false };
        const row = await store.find(id, env);
        // The same test as exists() (store.sessionIn): the session is this directory's.
        if (row && (await pathForms(ctx.cwd)).includes(row.directory)) {
          const { argv, hints } = await withPort(ctx, [resolveBin(binary, env), '-s', id], { sessionId: id });
          return { plan: spawnPlan(argv, id, prior.chosenBy, 'resumed', null, hints), found: true };
        }
        // Resumed from another directory the CLI calls the model and then hangs (docs/vendors.md §6): never do that.
        if (row)
          return {
            plan: await fresh(ctx, env, `session ${shortId(id)} belongs to ${row.directory}, not ${ctx.cwd}`),
            found: false,
          };
        return { plan: await fresh(ctx, env, goneFrom(id, displayDataDir(env))), found: false };
      }),

      exists: (sessionId, cwd, env) => store.sessionIn(sessionId, cwd, env),

      follow: (terminal, env, onSession) => followOpencode(deps, terminal, env, onSession),

      listSessions: (env) => store.list(env),

      resumeCommand(sessionId) {
        return [BIN, '-s', sessionId];
      },

      usage: new OpencodeUsage(vctx.state(SQL_JS)),
      // No planFork: `-s <id> --fork` (1.18.33) makes the copy, but the TUI then often takes the next prompt in yet
      // another new session (docs/bundles.md §7); and opencode keeps sessions in SQLite: no file to copy either.
    };
  },
};
