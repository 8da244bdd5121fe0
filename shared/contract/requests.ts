// Every request a client may send, with its params and result schemas.
import { z } from 'zod';
import { LIMITS, absolutePathSchema, runNameSchema, vendorNameSchema } from '../words.js';
import { MAX_STREAM_ID } from './frames.js';
import { inputChannel } from './input-seq.js';
import {
  agentSpecSchema,
  agentViewSchema,
  attachResultSchema,
  runEventSchema,
  runSummarySchema,
  runViewSchema,
  screenSchema,
  snapshotViewSchema,
} from './agents.js';
import {
  coreInfoSchema,
  coreSettingsSchema,
  recoveryResultSchema,
  recoveryStateSchema,
  vendorInfoSchema,
} from './core.js';
import { agentId, runId, snapshotId, runRef, offset, terminalId, handleText } from './fields.js';
import { handlePreviewSchema, resumeCommandSchema, resumeOutcomeSchema } from './handles.js';
import { adoptSessionSchema, foundSessionSchema } from './sessions.js';
import { costRequests } from './cost.js';
import { searchRequests } from './search.js';
import { hostMapSchema, hostRequests } from './hosts.js';
import { hostAliasSchema } from './host-alias.js';
import { hostWorktreeRequests, repoInspectionSchema } from './host-worktrees.js';
import { portableRequests } from './portable.js';
import { attentionRequests } from './attention.js';
import { lazyTable } from './lazy-table.js';

const cols = z.number().int().min(2).max(1000);
const rows = z.number().int().min(1).max(500);

export const requests = lazyTable({
  'host.info': () => ({
    params: z.strictObject({}),
    result: z.strictObject({ version: z.string(), dataDir: z.string(), vendors: z.array(vendorInfoSchema) }),
  }),
  'run.list': () => ({
    /**
     * `runs`: only these runs (those an event named; a deleted one is left out of the answer). `limit`: only the
     * newest this many (a page's first screen, shown before the whole list of a large history is in).
     */
    params: z.strictObject({
      query: z.string().max(200).optional(),
      runs: z.array(runId).max(1000).optional(),
      limit: z.number().int().min(1).max(100_000).optional(),
      /** Only the runs after this one in the list's order (newest first): the next page of a list read in pages. */
      after: z.strictObject({ updatedAt: z.string().max(64), id: runId }).optional(),
      /**
       * `false`: the summaries leave out each agent's state (`states`), about half of their bytes, which a history of
       * 10,000 runs otherwise makes, sends and checks for nothing it shows. Left out: they carry them.
       */
      states: z.boolean().optional(),
    }),
    result: z.array(runSummarySchema),
  }),
  'run.get': () => ({ params: z.strictObject({ run: runRef }), result: runViewSchema }),
  'run.screens': () => ({
    params: z.strictObject({ run: runRef, live: z.boolean().optional() }),
    result: z.strictObject({ snapshotId: snapshotId.nullable(), screens: z.array(screenSchema) }),
  }),
  'run.events': () => ({ params: z.strictObject({ run: runRef }), result: z.array(runEventSchema) }),
  'run.start': () => ({
    params: z.strictObject({ name: runNameSchema, agents: z.array(agentSpecSchema).min(1).max(LIMITS.agentsPerRun) }),
    result: runViewSchema,
  }),
  'run.snapshot': () => ({ params: z.strictObject({ run: runRef }), result: snapshotViewSchema }),
  'run.rename': () => ({ params: z.strictObject({ run: runRef, name: runNameSchema }), result: runViewSchema }),
  'run.delete': () => ({
    params: z.strictObject({ run: runRef, removeWorktrees: z.boolean().optional() }),
    result: z.strictObject({ deleted: runId }),
  }),
  'run.stop': () => ({ params: z.strictObject({ run: runRef }), result: runViewSchema }),
  'run.handle': () => ({
    params: z.strictObject({ run: runRef, agent: z.string().max(LIMITS.labelMaxChars).optional() }),
    result: z.strictObject({ handle: z.string() }),
  }),
  /** Per agent, the command that resumes its session by hand ("copy as shell commands"). */
  'run.commands': () => ({
    params: z.strictObject({ run: runRef, agent: z.string().max(LIMITS.labelMaxChars).optional() }),
    result: z.array(resumeCommandSchema),
  }),
  'run.resume': () => ({
    params: z.strictObject({
      handle: handleText,
      /** For a caw handle, which carries no directory. */
      cwd: absolutePathSchema.optional(),
      /**
       * The shell agents the user confirmed, by their index in the handle (as handle.inspect lists them). A shell
       * agent runs a command in a directory the handle chose: one not listed is not started (nor added to the store
       * when it is new to it).
       */
      confirmShell: z
        .array(
          z
            .number()
            .int()
            .min(0)
            .max(LIMITS.agentsPerRun - 1),
        )
        .max(LIMITS.agentsPerRun)
        .optional(),
      /** A repository root that is missing here → another path; every agent of that repository follows. */
      repoMap: z.record(absolutePathSchema, absolutePathSchema).optional(),
      /** A host alias of the handle → the alias that reaches that host from here (docs/hosts.md). */
      hostMap: hostMapSchema.optional(),
    }),
    result: z.strictObject({ run: runViewSchema, outcomes: z.array(resumeOutcomeSchema) }),
  }),
  'handle.inspect': () => ({
    params: z.strictObject({
      handle: handleText,
      cwd: absolutePathSchema.optional(),
      repoMap: z.record(absolutePathSchema, absolutePathSchema).optional(),
      hostMap: hostMapSchema.optional(),
    }),
    result: handlePreviewSchema,
  }),
  'agent.add': () => ({ params: z.strictObject({ run: runRef, agent: agentSpecSchema }), result: runViewSchema }),
  'agent.stop': () => ({ params: z.strictObject({ agentId }), result: agentViewSchema }),
  /** A fresh conversation for an agent whose terminal has ended (Resume brings back the old one instead). */
  'agent.restart': () => ({ params: z.strictObject({ agentId }), result: runViewSchema }),
  'agent.write': () => ({
    params: z.strictObject({ agentId, data: z.string().max(1 << 20) }),
    result: z.strictObject({}),
  }),
  /** Types text as a user would, then Enter after the vendor's pause, so TUIs submit it. */
  'agent.send': () => ({
    params: z.strictObject({ agentId, text: z.string().max(1 << 16) }),
    result: z.strictObject({}),
  }),
  'agent.resize': () => ({ params: z.strictObject({ agentId, cols, rows }), result: z.strictObject({}) }),
  'agent.screen': () => ({ params: z.strictObject({ agentId }), result: screenSchema }),
  'agent.attach': () => ({
    params: z.strictObject({
      agentId,
      terminalId: terminalId.optional(),
      fromOffset: offset.optional(),
      /** Hidden panes get a smaller flow-control budget. */
      visible: z.boolean().optional(),
      /** 'core': another Baton core that keeps its own copy and acks on receipt (a remote agent's local side). */
      consumer: z.enum(['pane', 'core']).optional(),
      /** The id this client's binary output frames of the attach carry (one per attach, unique on the connection). */
      stream: z.number().int().min(1).max(MAX_STREAM_ID),
      /** At most this many lines of history above the screen in its resets (a first visit paints the screen first). */
      scrollback: z.number().int().min(0).max(100_000).optional(),
      /** Input frames on this stream are numbered (input-seq.ts); the reply says what the core already wrote. */
      inputChannel: inputChannel.optional(),
    }),
    result: attachResultSchema,
  }),
  'agent.detach': () => ({ params: z.strictObject({ agentId }), result: z.strictObject({}) }),
  /** What an agent's worktree changed against the commit it was made from (commits, staged, unstaged, untracked). */
  'agent.changes': () => ({
    params: z.strictObject({ agentId }),
    result: z.strictObject({
      branch: z.string(),
      baseCommit: z.string(),
      files: z.number().int(),
      insertions: z.number().int(),
      deletions: z.number().int(),
      stat: z.string(),
      untracked: z.array(z.string()),
      patch: z.string(),
      truncated: z.boolean(),
    }),
  }),
  /** Merges the agent's branch into the base branch its worktree was made from, in the main checkout. */
  'agent.merge': () => ({
    params: z.strictObject({ agentId }),
    result: z.strictObject({
      merged: z.boolean(),
      into: z.string(),
      conflicts: z.array(z.string()),
      message: z.string(),
    }),
  }),
  /** Removes the agent's worktree; `conflict` while it has uncommitted changes and force is not set. */
  'agent.removeWorktree': () => ({
    params: z.strictObject({ agentId, force: z.boolean().optional(), deleteBranch: z.boolean().optional() }),
    result: z.strictObject({ removed: z.boolean(), branchKept: z.boolean(), message: z.string() }),
  }),
  /** Is this directory in a git repository? Its branches and setup command, for the New run dialog (null: not). */
  'worktree.inspect': () => ({
    params: z.strictObject({ cwd: absolutePathSchema }),
    result: repoInspectionSchema,
  }),
  /** The user consents to that repository's setup command (by its hash) running in new worktrees. */
  'worktree.approveSetup': () => ({
    params: z.strictObject({ repoRoot: absolutePathSchema, hash: z.string() }),
    result: z.strictObject({}),
  }),
  /** Worktrees Baton created that no run owns any more. */
  'worktrees.orphans': () => ({
    params: z.strictObject({}),
    result: z.array(
      z.strictObject({
        worktreePath: z.string(),
        repoRoot: z.string(),
        branch: z.string(),
        dirty: z.boolean(),
        /** On a connected host (docs/hosts.md), listed by its core; absent: this machine. */
        host: hostAliasSchema.optional(),
      }),
    ),
  }),
  /** Removes the given worktrees, only those Baton created; per path what happened. `host`: that host's, by its core. */
  'worktrees.cleanup': () => ({
    params: z.strictObject({ paths: z.array(absolutePathSchema).max(500), host: hostAliasSchema.optional() }),
    result: z.array(z.strictObject({ worktreePath: z.string(), removed: z.boolean(), message: z.string() })),
  }),
  /** Conversations in the vendors' own stores on this machine, newest first (session import). */
  'sessions.list': () => ({
    params: z.strictObject({
      vendor: vendorNameSchema.optional(),
      query: z.string().max(200).optional(),
      limit: z.number().int().min(0).max(1000).optional(),
    }),
    result: z.strictObject({
      sessions: z.array(foundSessionSchema),
      /** How many matched before `limit`. */
      total: z.number().int().nonnegative(),
      scannedMs: z.number().nonnegative(),
    }),
  }),
  /** A new run resuming the chosen conversations, through the same validation and outcomes as run.resume. */
  'sessions.adopt': () => ({
    params: z.strictObject({
      name: runNameSchema,
      sessions: z.array(adoptSessionSchema).min(1).max(LIMITS.agentsPerRun),
    }),
    result: z.strictObject({ run: runViewSchema, outcomes: z.array(resumeOutcomeSchema) }),
  }),
  /** The core's own version and state: the protocol version handshake (see PROTOCOL_VERSION). */
  'core.info': () => ({ params: z.strictObject({}), result: coreInfoSchema }),
  /**
   * Snapshot every live run, stop every agent, then end the core. With `resumeOnStart` the live runs are recorded
   * first and the next core resumes them (a core restart). Kept stable across versions: an older core gets it.
   */
  'core.shutdown': () => ({
    params: z.strictObject({ resumeOnStart: z.boolean() }),
    result: z.strictObject({ liveRuns: z.number().int().nonnegative() }),
  }),
  'recovery.get': () => ({ params: z.strictObject({}), result: recoveryStateSchema }),
  /** Resume every interrupted run's agents that were running; per run, its outcomes. */
  'recovery.resume': () => ({ params: z.strictObject({}), result: recoveryResultSchema }),
  /** Forget the interrupted runs (they stay in the history) and the last resume's outcomes. */
  'recovery.dismiss': () => ({ params: z.strictObject({}), result: z.strictObject({}) }),
  'settings.get': () => ({ params: z.strictObject({}), result: coreSettingsSchema }),
  'settings.set': () => ({ params: coreSettingsSchema.unwrap().partial(), result: coreSettingsSchema }),
  ...costRequests,
  ...searchRequests,
  ...hostRequests,
  ...hostWorktreeRequests,
  ...portableRequests,
  ...attentionRequests,
});

export type Method = keyof typeof requests;
export type Params<M extends Method> = z.input<(typeof requests)[M]['params']>;
export type Result<M extends Method> = z.infer<(typeof requests)[M]['result']>;
/** Requests `K` answered by name, as the core's parts declare them: a missing or mistyped one does not compile. */
export type RequestTable<K extends Method> = { readonly [M in K]: (params: Params<M>) => Promise<Result<M>> };
