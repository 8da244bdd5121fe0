// The vendors whose session id Baton mints (Claude, Gemini, Copilot, Qwen; docs/vendors.md §10): each starts its CLI with
// `<session-id flag> <new UUIDv4>`, resumes with its resume flag, and knows from its own store whether anything was
// said. Their adapters differ only in data (flags, texts, delays) and in their store reader, so one definition
// helper builds all four: a vendor folder then holds its facts, its store reader and, for Claude, its own follower.
import type { VendorName } from '../../../../shared/words.js';
import type {
  FoundSession,
  PriorSession,
  SessionIndex,
  SpawnPlan,
  VendorAdapter,
  VendorDefinition,
  VendorEnv,
  AgentContext,
  TranscriptFiles,
} from '../adapter.js';
import { cliBinary, resolveBin } from './bin.js';
import type { StateSlot, VendorContext } from './context.js';
import { newSessionId } from './ids.js';
import { freshWarning, goneFrom, neverSaid, resumePlanning, savedIdProblem, spawnPlan } from './plans.js';
import { followHintedId } from './poll.js';
import type { VendorUsage } from './usage.js';

/** What a store holds of an id: a conversation, a session in which nothing was said yet, or nothing. */
export type Held = 'conversation' | 'started' | 'none';

/** A minted-id vendor's store reader, one per vendor context (its caches live in it). */
export interface MintedIdStore {
  /** The store confirms the id (docs/vendors.md §10 "confirmed by"): exists(), the follower's confirmation, health. */
  exists(sessionId: string, cwd: string, env: VendorEnv): Promise<boolean>;
  /** What the store holds of the id, for resume planning. Default: 'conversation' when exists(), else 'none'. */
  held?(sessionId: string, cwd: string, env: VendorEnv): Promise<Held>;
  /**
   * exists() confirms an id `held` calls 'started' as well (Copilot: the folder its TUI writes at start), so a resume
   * plan can say what exists() would without reading the store again (docs/architecture.md §5).
   */
  readonly confirmsStarted?: boolean;
  /** Every session the store holds, in one pass (`VendorAdapter.indexSessions`); absent: `exists` per session. */
  index?(env: VendorEnv): Promise<SessionIndex | null>;
  /** Where the store keeps `cwd`'s sessions, as the user would write it: named when a session is gone. */
  where(cwd: string, env: VendorEnv): Promise<string>;
  /** Conversations for import (docs/architecture.md §9 `listSessions`). */
  list(env: VendorEnv): Promise<FoundSession[]>;
}

/** A minted-id vendor, as data plus its store reader. */
export interface MintedIdFacts<S extends MintedIdStore = MintedIdStore, V extends VendorName = VendorName> {
  readonly vendor: V;
  readonly displayName: string;
  /** The binary's name on PATH; `BATON_<VENDOR>_BIN` overrides it. */
  readonly bin: string;
  /** How a message names an id of this vendor ("a Gemini session id"). */
  readonly idName: string;
  readonly sessionIdPattern: RegExp;
  /** Starts a session under the id Baton gives it. */
  readonly sessionIdFlag: string;
  /** Resumes a conversation; a flag ending in "=" takes the id in the same argument (`--resume=<id>`). */
  readonly resumeFlag: string;
  /** Names a new session `<run>/<label>`, so the vendor's own pickers show it. */
  readonly nameFlag?: string;
  /** Pause between typing a prompt and Enter (docs/vendors.md §14). */
  readonly submitDelayMs: number;
  /** What the CLI prints when it cannot resume an id, and the exit code it then gives. */
  readonly resumeErrorTexts: readonly RegExp[];
  readonly sessionErrorExitCode: number;
  /**
   * How a session the store holds, with nothing said in it (`held` = 'started'), is reopened: with the resume flag
   * or with the session-id flag (unnamed), and whether only while Baton never saw it confirmed. Without this, such
   * a session is treated as absent.
   */
  readonly reopenStarted?: { readonly with: 'resume' | 'session-id'; readonly onlyIfNeverSaid: boolean };
  /** The store reader of a vendor context. */
  readonly store: StateSlot<S>;
  /**
   * A follower of the vendor's own (Claude: its live registry, which also sees /clear). Without one, follow() polls
   * the store for the id the plan's hints carry, so every plan then carries its id as a hint.
   */
  readonly follow?: (ctx: VendorContext, store: S) => VendorAdapter['follow'];
  /** The usage reader of a vendor context (docs/cost.md). */
  readonly usage?: (ctx: VendorContext, store: S) => VendorUsage;
  /**
   * The vendor's own fork: this flag with the resume flag starts a new session, under the id given with the
   * session-id flag, that continues a copy of the resumed one (Claude's `--fork-session`). Absent: forks copy the
   * transcript (docs/bundles.md §1).
   */
  readonly forkFlag?: string;
  /** The vendor's transcripts as files Baton can copy (docs/bundles.md §2). */
  readonly transcripts?: (store: S) => TranscriptFiles;
}

/** The registry's definition of a minted-id vendor. */
export function defineMintedIdVendor<S extends MintedIdStore, V extends VendorName>(
  facts: MintedIdFacts<S, V>,
): VendorDefinition<V> {
  return { vendor: facts.vendor, create: (ctx) => mintedIdAdapter(facts, ctx) };
}

function mintedIdAdapter<S extends MintedIdStore, V extends VendorName>(
  f: MintedIdFacts<S, V>,
  ctx: VendorContext,
): VendorAdapter {
  const store = ctx.state(f.store);
  const binary = cliBinary(f.vendor, f.bin);
  const hinted = f.follow === undefined;
  const plan = (
    argv: string[],
    sessionId: string,
    chosenBy: PriorSession['chosenBy'],
    outcome: SpawnPlan['outcome'],
    warning: string | null = null,
  ) => spawnPlan(argv, sessionId, chosenBy, outcome, warning, hinted ? { sessionId } : undefined);
  const resumeArgs = (id: string) => (f.resumeFlag.endsWith('=') ? [`${f.resumeFlag}${id}`] : [f.resumeFlag, id]);
  /** The argv that starts a session under `id`, named unless `named` is false. */
  const start = (a: AgentContext, env: VendorEnv, id: string, named = true) => [
    resolveBin(binary, env),
    f.sessionIdFlag,
    id,
    ...(named && f.nameFlag ? [f.nameFlag, `${a.runName}/${a.label}`] : []),
    ...a.args,
  ];
  const resume = (a: AgentContext, env: VendorEnv, prior: PriorSession) =>
    plan(
      [resolveBin(binary, env), ...resumeArgs(prior.sessionId), ...a.args],
      prior.sessionId,
      prior.chosenBy,
      'resumed',
    );
  const fresh = (a: AgentContext, env: VendorEnv, warning: string | null) => {
    const id = newSessionId();
    return plan(start(a, env, id), id, 'baton', 'fresh', warning);
  };
  /** The native fork: resume the source with the fork flag, under an id Baton mints (so it needs no discovery). */
  const forkPlanner =
    (forkFlag: string): NonNullable<VendorAdapter['planFork']> =>
    async (a, sourceId, env) => {
      const id = newSessionId();
      const argv = [resolveBin(binary, env), ...resumeArgs(sourceId), forkFlag, ...start(a, env, id).slice(1)];
      return plan(argv, id, 'baton', 'resumed');
    };
  const held = (id: string, cwd: string, env: VendorEnv): Promise<Held> =>
    store.held ? store.held(id, cwd, env) : store.exists(id, cwd, env).then((yes) => (yes ? 'conversation' : 'none'));
  /** The plan for what the store holds of the prior id (read once, by the caller). */
  const planHeld = async (a: AgentContext, env: VendorEnv, prior: PriorSession, what: Held): Promise<SpawnPlan> => {
    const id = prior.sessionId;
    if (what === 'conversation') return resume(a, env, prior);
    const reopen = f.reopenStarted;
    if (what === 'started' && reopen && (neverSaid(prior) || !reopen.onlyIfNeverSaid)) {
      return reopen.with === 'resume'
        ? resume(a, env, prior)
        : plan(start(a, env, id, false), id, prior.chosenBy, 'resumed');
    }
    // The CLI writes its transcript only at the first prompt: nothing was said, so the same id starts afresh.
    if (neverSaid(prior)) return plan(start(a, env, id), id, 'baton', 'resumed');
    return fresh(a, env, freshWarning(f.vendor, goneFrom(id, await store.where(a.cwd, env)), a.cwd));
  };

  return {
    vendor: f.vendor,
    displayName: f.displayName,
    sessionIdPattern: f.sessionIdPattern,
    submitDelayMs: f.submitDelayMs,
    resumeErrorTexts: f.resumeErrorTexts,
    ...binary,

    async spawnFresh(a, env) {
      return fresh(a, env, null);
    },

    ...resumePlanning(async (a, prior, env) => {
      const problem = savedIdProblem(prior.sessionId, f.sessionIdPattern, f.idName);
      if (problem) return { plan: fresh(a, env, freshWarning(f.vendor, problem, a.cwd)), found: false };
      const what = await held(prior.sessionId, a.cwd, env);
      return {
        plan: await planHeld(a, env, prior, what),
        found: what === 'conversation' || (what === 'started' && store.confirmsStarted === true),
      };
    }),

    exists: (sessionId, cwd, env) => store.exists(sessionId, cwd, env),
    ...(store.index ? { indexSessions: store.index.bind(store) } : {}),

    follow: f.follow
      ? f.follow(ctx, store)
      : (terminal, env, onSession) =>
          followHintedId(terminal, f.sessionIdPattern, (id) => store.exists(id, terminal.cwd, env), onSession),

    listSessions: (env) => store.list(env),

    resumeCommand: (sessionId) => [f.bin, ...resumeArgs(sessionId)],

    ...(f.usage ? { usage: f.usage(ctx, store) } : {}),
    ...(f.forkFlag !== undefined ? { planFork: forkPlanner(f.forkFlag) } : {}),
    ...(f.transcripts ? { transcripts: f.transcripts(store) } : {}),
  };
}
