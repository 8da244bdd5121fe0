// The one contract between the core host and every client (renderer, CLI, tests), whatever the transport.
// Every message is validated against these schemas on both ends.
import { z } from 'zod';
import {
  AGENT_ID,
  LIMITS,
  RUN_ID,
  SNAPSHOT_ID,
  absolutePathSchema,
  labelSchema,
  runNameSchema,
  vendorNameSchema,
} from './words.js';

const agentId = z.string().regex(AGENT_ID, { error: 'agentId is not a Baton agent id' });
const runId = z.string().regex(RUN_ID);
const snapshotId = z.string().regex(SNAPSHOT_ID);
/** A run named by its id or its name. */
const runRef = z.string().min(1).max(LIMITS.nameMaxChars);
const offset = z.number().int().nonnegative();
const terminalId = z.string().regex(/^trm_[0-9a-z]{16}$/);
const isoTime = z.string();
/** The handle text travels only inside requests; it is a secret, never echoed back. */
const handleText = z.string().min(1).max(LIMITS.handleMaxBytes * 2);

// ---------- data ----------

export const agentSpecSchema = z.strictObject({
  vendor: vendorNameSchema,
  label: labelSchema.optional(),
  cwd: absolutePathSchema,
  /** The user's own extra arguments (a model, a permission mode). Kept in the manifest, never in a handle. */
  args: z.array(z.string().max(LIMITS.extraArgMaxChars)).max(LIMITS.extraArgs).optional(),
  /** Shell agents only: the command to run instead of the user's shell, as argv. */
  command: z.array(z.string().max(LIMITS.extraArgMaxChars)).min(1).max(LIMITS.extraArgs).optional(),
  /**
   * Where the agent works: `new` (a git worktree of its own, made for it), `none` (in `cwd` itself), an existing
   * branch checked out in a new worktree, or an existing worktree used as it is. Omitted = 'none' in the API; the
   * New run dialog's default is 'new' when the directory is inside a git repository (docs/worktrees.md).
   */
  worktree: z
    .union([
      z.literal('new'),
      z.literal('none'),
      z.strictObject({ existingBranch: z.string().min(1).max(200) }),
      z.strictObject({ existingWorktree: absolutePathSchema }),
    ])
    .optional(),
  /** A base branch or commit for a new worktree; default: the repository's current HEAD. */
  base: z.string().min(1).max(200).optional(),
});
export type AgentSpec = z.infer<typeof agentSpecSchema>;

export const sessionIdRecordSchema = z.strictObject({
  id: z.string(),
  chosenBy: z.enum(['baton', 'vendor']),
  seenAt: isoTime,
  /** The vendor's own store has shown this id (a transcript or registry entry). */
  confirmed: z.boolean(),
});
export type SessionIdRecord = z.infer<typeof sessionIdRecordSchema>;

export const agentStatusSchema = z.enum(['starting', 'running', 'exited', 'stopped', 'failed']);

/** An agent's own git worktree: where it works, on which branch, made from which commit. */
export const worktreeInfoSchema = z.strictObject({
  repoRoot: z.string(),
  worktreePath: z.string(),
  branch: z.string(),
  baseCommit: z.string(),
  /** Baton created this worktree (false: an existing one, used as it is, never removed by Baton). */
  created: z.boolean(),
});
export type WorktreeInfo = z.infer<typeof worktreeInfoSchema>;

export const agentViewSchema = z.strictObject({
  id: agentId,
  label: z.string(),
  vendor: vendorNameSchema,
  cwd: z.string(),
  args: z.array(z.string()),
  command: z.array(z.string()).nullable(),
  sessionId: z.string().nullable(),
  sessionIds: z.array(sessionIdRecordSchema),
  status: agentStatusSchema,
  exitCode: z.number().int().nullable(),
  terminalId: terminalId.nullable(),
  pid: z.number().int().nullable(),
  /** The last warning shown for this agent (a fresh fallback, say), in the user's words. */
  warning: z.string().nullable(),
  startedAt: isoTime.nullable(),
  /** The agent's own git worktree; null when it works in its directory as it is. */
  worktree: worktreeInfoSchema.nullable(),
});
export type AgentView = z.infer<typeof agentViewSchema>;

export const runViewSchema = z.strictObject({
  id: runId,
  name: z.string(),
  createdAt: isoTime,
  updatedAt: isoTime,
  agents: z.array(agentViewSchema),
  lastSnapshot: z.strictObject({ id: snapshotId, at: isoTime }).nullable(),
});
export type RunView = z.infer<typeof runViewSchema>;

export const runSummarySchema = z.strictObject({
  id: runId,
  name: z.string(),
  createdAt: isoTime,
  updatedAt: isoTime,
  agentCount: z.number().int(),
  liveAgents: z.number().int(),
  vendors: z.array(vendorNameSchema),
  lastSnapshotAt: isoTime.nullable(),
  /**
   * Whether a resume would bring every agent back: `live` (agents running), `resumable` (every vendor session
   * found), `stale` (a transcript is gone: that agent would start fresh), `missing` (a directory is gone).
   */
  health: z.enum(['live', 'resumable', 'stale', 'missing']),
});
export type RunSummary = z.infer<typeof runSummarySchema>;

export const screenSchema = z.strictObject({
  agentId,
  label: z.string(),
  cols: z.number().int(),
  rows: z.number().int(),
  /** Plain text of the screen and the scrollback tail. */
  text: z.string(),
  /** The mirror serialized with escape sequences, to restore into a terminal. */
  serialized: z.string(),
});
export type Screen = z.infer<typeof screenSchema>;

export const snapshotViewSchema = z.strictObject({
  id: snapshotId,
  at: isoTime,
  reason: z.enum(['user', 'exit', 'periodic', 'quit', 'resume']),
  agents: z.array(
    z.strictObject({
      agentId,
      label: z.string(),
      vendor: vendorNameSchema,
      cwd: z.string(),
      sessionId: z.string().nullable(),
      status: agentStatusSchema,
      /** The agent's worktree when the snapshot was taken (absent: none, or a snapshot from before worktrees). */
      worktree: worktreeInfoSchema.nullable().optional(),
    }),
  ),
});
export type SnapshotView = z.infer<typeof snapshotViewSchema>;

export const runEventTypeSchema = z.enum([
  'started',
  'agent-added',
  'agent-started',
  'session-id',
  'snapshot',
  'resumed',
  'fresh-fallback',
  'agent-failed',
  'exited',
  'stopped',
  'renamed',
]);
export type RunEventType = z.infer<typeof runEventTypeSchema>;

export const runEventSchema = z.strictObject({
  at: isoTime,
  type: runEventTypeSchema,
  agentId: agentId.optional(),
  sessionId: z.string().optional(),
  snapshotId: snapshotId.optional(),
  exitCode: z.number().int().nullable().optional(),
  outcome: z.enum(['resumed', 'fresh', 'failed']).optional(),
  message: z.string().optional(),
});
export type RunEvent = z.infer<typeof runEventSchema>;

/** `cwd-unsafe`: the directory is someone else's or others can write it (the reason is in `cwdProblem`). */
export const sessionCheckSchema = z.enum(['found', 'missing', 'cwd-missing', 'cwd-unsafe', 'no-session']);
export type SessionCheck = z.infer<typeof sessionCheckSchema>;

export const handlePreviewSchema = z.strictObject({
  kind: z.enum(['run', 'agent', 'caw']),
  runName: z.string(),
  runId: runId.nullable(),
  /** The store already holds this run: its history and screens come back with it. */
  knownRun: z.boolean(),
  /** A caw handle carries no directory: the user must give one. */
  needsCwd: z.boolean(),
  agents: z.array(
    z.strictObject({
      label: z.string(),
      vendor: vendorNameSchema,
      /** Where the agent will really run: for an agent the store knows, its recorded directory, not the handle's. */
      cwd: z.string().nullable(),
      /** Why the agent cannot start there (missing, someone else's, writable by others; never the path); null when it can. */
      cwdProblem: z.string().nullable(),
      /** No run in this store has used this directory: the handle chose it. */
      newDirectory: z.boolean(),
      sessionId: z.string().nullable(),
      check: sessionCheckSchema,
      /** What resume will run, as argv (never through a shell). */
      command: z.array(z.string()),
      /** The agent's worktree: still there (`existing`), re-created from its branch (`recreate`), or `failed` (why). */
      worktree: z
        .strictObject({ branch: z.string(), state: z.enum(['existing', 'recreate', 'failed']), reason: z.string().nullable() })
        .nullable(),
    }),
  ),
});
export type HandlePreview = z.infer<typeof handlePreviewSchema>;

export const resumeOutcomeSchema = z.strictObject({
  agentId,
  label: z.string(),
  vendor: vendorNameSchema,
  outcome: z.enum(['resumed', 'fresh', 'failed']),
  sessionId: z.string().nullable(),
  message: z.string().nullable(),
});
export type ResumeOutcome = z.infer<typeof resumeOutcomeSchema>;

/** A conversation found in a vendor's own store (started outside Baton, or by it), for import into a run. */
export const foundSessionSchema = z.strictObject({
  vendor: vendorNameSchema,
  sessionId: z.string(),
  /** As the transcript records it; null when the store does not say (the session cannot be adopted without one). */
  cwd: z.string().nullable(),
  title: z.string().nullable(),
  firstPrompt: z.string().nullable(),
  lastActivity: z.iso.datetime(),
  /** A Baton run already holds this session id. */
  adoptedBy: z.strictObject({ runId, runName: z.string() }).nullable(),
});
export type FoundSession = z.infer<typeof foundSessionSchema>;

/** One session to adopt into a new run. */
export const adoptSessionSchema = z.strictObject({
  vendor: vendorNameSchema,
  sessionId: z.string().min(1).max(256),
  cwd: absolutePathSchema,
  label: labelSchema.optional(),
});
export type AdoptSession = z.infer<typeof adoptSessionSchema>;

export const vendorInfoSchema = z.strictObject({
  vendor: vendorNameSchema,
  displayName: z.string(),
  bin: z.string().nullable(),
  found: z.boolean(),
  /** What `<bin> --version` printed (first line), when it answered. */
  version: z.string().nullable(),
  /** The override variable, e.g. BATON_CLAUDE_BIN, to tell users how to point Baton at a binary. */
  binEnvVar: z.string(),
  /** A limit of this vendor's support to show wherever it is offered (Cursor: unverified here). */
  note: z.string().nullable(),
});
export type VendorInfo = z.infer<typeof vendorInfoSchema>;

export const resumeCommandSchema = z.strictObject({
  agentId,
  label: z.string(),
  vendor: vendorNameSchema,
  cwd: z.string(),
  /** The vendor's resume command as argv; a client quotes it for display or copying. */
  argv: z.array(z.string()),
});
export type ResumeCommand = z.infer<typeof resumeCommandSchema>;

export const attachResultSchema = z.discriminatedUnion('mode', [
  /** The bytes from the asked offset up to `offset + len(data)`; live output follows from there. */
  z.strictObject({ mode: z.literal('bytes'), terminalId, offset, data: z.string() }),
  /** The gap was older than the ring: start over from this screen; live output follows from `offset`. */
  z.strictObject({
    mode: z.literal('reset'),
    terminalId,
    offset,
    cols: z.number().int(),
    rows: z.number().int(),
    screen: z.string(),
  }),
]);
export type AttachResult = z.infer<typeof attachResultSchema>;

/**
 * The version of this contract. A client compares it with the core's (`core.info`) on connect: a desktop app newer
 * than the background core it finds offers to restart that core (docs/architecture.md §2). 1 was the contract
 * before `core.*`, `recovery.*` and `settings.*`; a core that answers `core.info` with "unknown method" speaks 1.
 * 3 added worktrees (`agentView.worktree`, `worktree.*`, `worktrees.*`, `agent.changes|merge|removeWorktree`): a
 * core speaking 2 sends agent views without `worktree`, which this contract refuses.
 */
export const PROTOCOL_VERSION = 3;

export const coreInfoSchema = z.strictObject({
  version: z.string(),
  protocolVersion: z.number().int().positive(),
  pid: z.number().int().positive(),
  startedAt: isoTime,
  liveAgents: z.number().int().nonnegative(),
});
export type CoreInfo = z.infer<typeof coreInfoSchema>;

/** What a resume of the interrupted runs did, per run: its agents' outcomes, or why the run could not be tried. */
export const recoveryResultSchema = z.strictObject({
  at: isoTime,
  runs: z.array(z.strictObject({ runId, name: z.string(), outcomes: z.array(resumeOutcomeSchema), error: z.string().nullable() })),
});
export type RecoveryResult = z.infer<typeof recoveryResultSchema>;

export const recoveryStateSchema = z.strictObject({
  /**
   * Runs whose agents were running when the core last ended without stopping them (`crash`: killed, a reboot) or
   * that a core restart stopped to bring back (`restart`). Null when there is nothing to resume.
   */
  interrupted: z
    .strictObject({
      reason: z.enum(['crash', 'restart']),
      at: isoTime,
      runs: z.array(z.strictObject({ runId, name: z.string(), agents: z.number().int().nonnegative() })),
    })
    .nullable(),
  /** A resume of them is under way (`recovery.changed` follows when it ends). */
  resuming: z.boolean(),
  /** The last such resume since this core started, until dismissed. */
  last: recoveryResultSchema.nullable(),
});
export type RecoveryState = z.infer<typeof recoveryStateSchema>;

/** Settings kept in the data directory (settings.json), shared by the core and the desktop app. */
export const coreSettingsSchema = z.strictObject({
  /** What quitting the desktop app does with running agents; `ask` until the user ticks "Remember my choice". */
  quitAction: z.enum(['ask', 'keep', 'stop']),
  /** Resume the runs a killed core interrupted as soon as the next core starts. */
  resumeInterruptedOnStart: z.boolean(),
});
export type CoreSettings = z.infer<typeof coreSettingsSchema>;

// ---------- requests ----------

const cols = z.number().int().min(2).max(1000);
const rows = z.number().int().min(1).max(500);

export const requests = {
  'host.info': {
    params: z.strictObject({}),
    result: z.strictObject({ version: z.string(), dataDir: z.string(), vendors: z.array(vendorInfoSchema) }),
  },
  'run.list': {
    params: z.strictObject({ query: z.string().max(200).optional() }),
    result: z.array(runSummarySchema),
  },
  'run.get': { params: z.strictObject({ run: runRef }), result: runViewSchema },
  'run.screens': {
    params: z.strictObject({ run: runRef, live: z.boolean().optional() }),
    result: z.strictObject({ snapshotId: snapshotId.nullable(), screens: z.array(screenSchema) }),
  },
  'run.events': { params: z.strictObject({ run: runRef }), result: z.array(runEventSchema) },
  'run.start': {
    params: z.strictObject({ name: runNameSchema, agents: z.array(agentSpecSchema).min(1).max(LIMITS.agentsPerRun) }),
    result: runViewSchema,
  },
  'run.snapshot': { params: z.strictObject({ run: runRef }), result: snapshotViewSchema },
  'run.rename': { params: z.strictObject({ run: runRef, name: runNameSchema }), result: runViewSchema },
  'run.delete': {
    params: z.strictObject({ run: runRef, removeWorktrees: z.boolean().optional() }),
    result: z.strictObject({ deleted: runId }),
  },
  'run.stop': { params: z.strictObject({ run: runRef }), result: runViewSchema },
  'run.handle': {
    params: z.strictObject({ run: runRef, agent: z.string().max(LIMITS.labelMaxChars).optional() }),
    result: z.strictObject({ handle: z.string() }),
  },
  /** Per agent, the command that resumes its session by hand ("copy as shell commands"). */
  'run.commands': {
    params: z.strictObject({ run: runRef, agent: z.string().max(LIMITS.labelMaxChars).optional() }),
    result: z.array(resumeCommandSchema),
  },
  'run.resume': {
    params: z.strictObject({
      handle: handleText,
      /** For a caw handle, which carries no directory. */
      cwd: absolutePathSchema.optional(),
      /**
       * The shell agents the user confirmed, by their index in the handle (as handle.inspect lists them). A shell
       * agent runs a command in a directory the handle chose: one not listed is not started (nor added to the store
       * when it is new to it).
       */
      confirmShell: z.array(z.number().int().min(0).max(LIMITS.agentsPerRun - 1)).max(LIMITS.agentsPerRun).optional(),
      /** A repository root that is missing here → another path; every agent of that repository follows. */
      repoMap: z.record(absolutePathSchema, absolutePathSchema).optional(),
    }),
    result: z.strictObject({ run: runViewSchema, outcomes: z.array(resumeOutcomeSchema) }),
  },
  'handle.inspect': {
    params: z.strictObject({
      handle: handleText,
      cwd: absolutePathSchema.optional(),
      repoMap: z.record(absolutePathSchema, absolutePathSchema).optional(),
    }),
    result: handlePreviewSchema,
  },
  'agent.add': { params: z.strictObject({ run: runRef, agent: agentSpecSchema }), result: runViewSchema },
  'agent.stop': { params: z.strictObject({ agentId }), result: agentViewSchema },
  /** A fresh conversation for an agent whose terminal has ended (Resume brings back the old one instead). */
  'agent.restart': { params: z.strictObject({ agentId }), result: runViewSchema },
  'agent.write': { params: z.strictObject({ agentId, data: z.string().max(1 << 20) }), result: z.strictObject({}) },
  /** Types text as a user would, then Enter after the vendor's pause, so TUIs submit it. */
  'agent.send': { params: z.strictObject({ agentId, text: z.string().max(1 << 16) }), result: z.strictObject({}) },
  'agent.resize': { params: z.strictObject({ agentId, cols, rows }), result: z.strictObject({}) },
  'agent.screen': { params: z.strictObject({ agentId }), result: screenSchema },
  'agent.attach': {
    params: z.strictObject({
      agentId,
      terminalId: terminalId.optional(),
      fromOffset: offset.optional(),
      /** Hidden panes get a smaller flow-control budget. */
      visible: z.boolean().optional(),
    }),
    result: attachResultSchema,
  },
  'agent.detach': { params: z.strictObject({ agentId }), result: z.strictObject({}) },
  /** What an agent's worktree changed against the commit it was made from (commits, staged, unstaged, untracked). */
  'agent.changes': {
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
  },
  /** Merges the agent's branch into the base branch its worktree was made from, in the main checkout. */
  'agent.merge': {
    params: z.strictObject({ agentId }),
    result: z.strictObject({ merged: z.boolean(), into: z.string(), conflicts: z.array(z.string()), message: z.string() }),
  },
  /** Removes the agent's worktree; `conflict` while it has uncommitted changes and force is not set. */
  'agent.removeWorktree': {
    params: z.strictObject({ agentId, force: z.boolean().optional(), deleteBranch: z.boolean().optional() }),
    result: z.strictObject({ removed: z.boolean(), branchKept: z.boolean(), message: z.string() }),
  },
  /** Is this directory in a git repository? Its branches and setup command, for the New run dialog (null: not). */
  'worktree.inspect': {
    params: z.strictObject({ cwd: absolutePathSchema }),
    result: z
      .strictObject({
        repoRoot: z.string(),
        currentBranch: z.string().nullable(),
        headCommit: z.string(),
        /** Local branches, at most 200. */
        branches: z.array(z.string()),
        setup: z.strictObject({ command: z.array(z.string()), hash: z.string(), approved: z.boolean() }).nullable(),
      })
      .nullable(),
  },
  /** The user consents to that repository's setup command (by its hash) running in new worktrees. */
  'worktree.approveSetup': {
    params: z.strictObject({ repoRoot: absolutePathSchema, hash: z.string() }),
    result: z.strictObject({}),
  },
  /** Worktrees Baton created that no run owns any more. */
  'worktrees.orphans': {
    params: z.strictObject({}),
    result: z.array(z.strictObject({ worktreePath: z.string(), repoRoot: z.string(), branch: z.string(), dirty: z.boolean() })),
  },
  /** Removes the given worktrees, only those Baton created; per path what happened. */
  'worktrees.cleanup': {
    params: z.strictObject({ paths: z.array(absolutePathSchema).max(500) }),
    result: z.array(z.strictObject({ worktreePath: z.string(), removed: z.boolean(), message: z.string() })),
  },
  /** Conversations in the vendors' own stores on this machine, newest first (session import). */
  'sessions.list': {
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
  },
  /** A new run resuming the chosen conversations, through the same validation and outcomes as run.resume. */
  'sessions.adopt': {
    params: z.strictObject({ name: runNameSchema, sessions: z.array(adoptSessionSchema).min(1).max(LIMITS.agentsPerRun) }),
    result: z.strictObject({ run: runViewSchema, outcomes: z.array(resumeOutcomeSchema) }),
  },
  /** The core's own version and state: the protocol version handshake (see PROTOCOL_VERSION). */
  'core.info': { params: z.strictObject({}), result: coreInfoSchema },
  /**
   * Snapshot every live run, stop every agent, then end the core. With `resumeOnStart` the live runs are recorded
   * first and the next core resumes them (a core restart). Kept stable across versions: an older core gets it.
   */
  'core.shutdown': { params: z.strictObject({ resumeOnStart: z.boolean() }), result: z.strictObject({ liveRuns: z.number().int().nonnegative() }) },
  'recovery.get': { params: z.strictObject({}), result: recoveryStateSchema },
  /** Resume every interrupted run's agents that were running; per run, its outcomes. */
  'recovery.resume': { params: z.strictObject({}), result: recoveryResultSchema },
  /** Forget the interrupted runs (they stay in the history) and the last resume's outcomes. */
  'recovery.dismiss': { params: z.strictObject({}), result: z.strictObject({}) },
  'settings.get': { params: z.strictObject({}), result: coreSettingsSchema },
  'settings.set': { params: coreSettingsSchema.partial(), result: coreSettingsSchema },
} as const;

export type Method = keyof typeof requests;
export type Params<M extends Method> = z.input<(typeof requests)[M]['params']>;
export type Result<M extends Method> = z.infer<(typeof requests)[M]['result']>;
/** Requests `K` answered by name, as the core's parts declare them: a missing or mistyped one does not compile. */
export type RequestTable<K extends Method> = { readonly [M in K]: (params: Params<M>) => Promise<Result<M>> };

// ---------- events ----------

export const events = {
  'run.changed': z.strictObject({ runId, deleted: z.boolean().optional() }),
  'agent.status': z.strictObject({
    runId,
    agentId,
    status: agentStatusSchema,
    terminalId: terminalId.nullable(),
    exitCode: z.number().int().nullable(),
  }),
  'agent.session': z.strictObject({ runId, agentId, sessionId: z.string() }),
  'agent.warning': z.strictObject({ runId, agentId, message: z.string() }),
  /** The number of files an agent's worktree changed is now `files` (watched while the agent is live). */
  'agent.changes': z.strictObject({ runId, agentId, files: z.number().int() }),
  /** The interrupted runs, or a resume of them, changed: ask `recovery.get`. */
  'recovery.changed': z.strictObject({}),
} as const;
export type EventName = keyof typeof events;
export type EventPayload<E extends EventName> = z.infer<(typeof events)[E]>;

// ---------- wire messages ----------

export const errorCodeSchema = z.enum(['invalid', 'not-found', 'conflict', 'failed', 'unauthorized', 'internal']);
export type ErrorCode = z.infer<typeof errorCodeSchema>;
export const wireErrorSchema = z.strictObject({
  code: errorCodeSchema,
  message: z.string(),
  /** The offending field, e.g. `agents[1].sessionId`. */
  field: z.string().optional(),
});
export type WireError = z.infer<typeof wireErrorSchema>;

const requestId = z.number().int().nonnegative();

export const clientMessageSchema = z.discriminatedUnion('t', [
  z.strictObject({ t: z.literal('req'), id: requestId, method: z.string().max(64), params: z.unknown() }),
  /** The client has written everything below `offset` of this terminal into its view. */
  z.strictObject({ t: z.literal('ack'), agentId, terminalId, offset }),
]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;

export const serverMessageSchema = z.union([
  z.strictObject({ t: z.literal('res'), id: requestId, ok: z.literal(true), result: z.unknown() }),
  z.strictObject({ t: z.literal('res'), id: requestId, ok: z.literal(false), error: wireErrorSchema }),
  z.strictObject({ t: z.literal('evt'), name: z.string(), payload: z.unknown() }),
  /** Terminal output: base64 of the bytes at [offset, offset + n). */
  z.strictObject({ t: z.literal('out'), agentId, terminalId, offset, data: z.string() }),
  /** The client fell out of the ring: replace the view with this screen; output continues from `offset`. */
  z.strictObject({
    t: z.literal('reset'),
    agentId,
    terminalId,
    offset,
    cols: z.number().int(),
    rows: z.number().int(),
    screen: z.string(),
  }),
]);
export type ServerMessage = z.infer<typeof serverMessageSchema>;

/** A request failed: carries the wire error so callers can show the field and rule. */
export class BatonError extends Error {
  readonly code: ErrorCode;
  readonly field: string | undefined;
  constructor(error: WireError) {
    super(error.message);
    this.name = 'BatonError';
    this.code = error.code;
    this.field = error.field;
  }
  toWire(): WireError {
    return this.field === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, field: this.field };
  }
}

/** Turns a zod failure into one field-level error that names the field and rule, never the value. */
export function describeIssue(error: z.ZodError, prefix = ''): WireError {
  const issue = error.issues[0];
  if (!issue) return { code: 'invalid', message: 'invalid input' };
  const field = formatPath(prefix, issue.path);
  const rule = issue.code === 'unrecognized_keys' ? `unknown field${issue.keys.length > 1 ? 's' : ''}` : issue.message;
  return { code: 'invalid', message: field ? `${field}: ${rule}` : rule, ...(field ? { field } : {}) };
}

function formatPath(prefix: string, path: readonly PropertyKey[]): string {
  let out = prefix;
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}
