// Runs and their agents as clients see them: specs, views, screens, snapshots, history, terminal attach.
import { z } from 'zod';
import { LIMITS, absolutePathSchema, labelSchema, runNameSchema, vendorNameSchema } from '../words.js';
import { agentId, runId, snapshotId, offset, terminalId, isoTime } from './fields.js';
import { costTotalSchema } from './cost.js';
import { inputWritten } from './input-seq.js';
import { hostAliasSchema } from './host-alias.js';
import { agentAttentionSchema, agentStateSchema } from './attention.js';

export const agentSpecSchema = z.lazy(() =>
  z.strictObject({
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
    /**
     * The run name a new worktree's branch and folder are named after (default: its run's); a remote agent's, its
     * local run's.
     */
    worktreeName: runNameSchema.optional(),
    /** The host it runs on (an ssh alias or user@host[:port]; docs/hosts.md); left out: this machine. */
    host: hostAliasSchema.optional(),
  }),
);
export type AgentSpec = z.infer<typeof agentSpecSchema>;

export const sessionIdRecordSchema = z.lazy(() =>
  z.strictObject({
    id: z.string(),
    chosenBy: z.enum(['baton', 'vendor']),
    seenAt: isoTime,
    /** The vendor's own store has shown this id (a transcript or registry entry). */
    confirmed: z.boolean(),
  }),
);
export type SessionIdRecord = z.infer<typeof sessionIdRecordSchema>;

export const agentStatusSchema = z.enum(['starting', 'running', 'exited', 'stopped', 'failed']);

/** An agent's own git worktree: where it works, on which branch, made from which commit. */
export const worktreeInfoSchema = z.lazy(() =>
  z.strictObject({
    repoRoot: z.string(),
    worktreePath: z.string(),
    branch: z.string(),
    baseCommit: z.string(),
    /** Baton created this worktree (false: an existing one, used as it is, never removed by Baton). */
    created: z.boolean(),
  }),
);
export type WorktreeInfo = z.infer<typeof worktreeInfoSchema>;

export const agentViewSchema = z.lazy(() =>
  z.strictObject({
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
    /** The host it runs on (docs/hosts.md); absent: this machine. */
    host: hostAliasSchema.optional(),
    /** Whether it needs the user: working, waiting, asking, idle or exited (docs/attention.md). */
    attention: agentAttentionSchema,
  }),
);
export type AgentView = z.infer<typeof agentViewSchema>;

export const runViewSchema = z.lazy(() =>
  z.strictObject({
    id: runId,
    name: z.string(),
    createdAt: isoTime,
    updatedAt: isoTime,
    agents: z.array(agentViewSchema),
    lastSnapshot: z.strictObject({ id: snapshotId, at: isoTime }).nullable(),
  }),
);
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
   * found), `stale` (a transcript is gone: that agent would start fresh), `missing` (a directory is gone),
   * `checking` (not known yet: a `run.changed` follows once it is).
   */
  health: z.enum(['live', 'resumable', 'stale', 'missing', 'checking']),
  /** Tokens and USD of the run's agents so far (docs/cost.md); absent from an older core. */
  cost: costTotalSchema.optional(),
  /** How many of its agents wait for the user (waiting or asking; docs/attention.md). */
  needYou: z.number().int(),
  /**
   * Each agent's attention state, in the run's order; left out when the list was asked with `states: false` (the
   * history's rows show `needYou` only: these are about half of a summary's bytes).
   */
  states: z.array(z.strictObject({ agentId, label: z.string(), state: agentStateSchema })).optional(),
});
export type RunSummary = z.infer<typeof runSummarySchema>;

export const screenSchema = z.lazy(() =>
  z.strictObject({
    agentId,
    label: z.string(),
    cols: z.number().int(),
    rows: z.number().int(),
    /** Plain text of the screen and the scrollback tail. */
    text: z.string(),
    /** The mirror serialized with escape sequences, to restore into a terminal. */
    serialized: z.string(),
  }),
);
export type Screen = z.infer<typeof screenSchema>;

/** What a fork or an export of a snapshot needs to cut an agent's conversation and branch where they were then. */
export const forkMarkSchema = z.lazy(() =>
  z.strictObject({
    /** The length in bytes of the session's transcript file when the snapshot was taken. */
    transcriptBytes: z.number().int().nonnegative().optional(),
    /** The commit the agent's worktree had checked out (HEAD) when the snapshot was taken. */
    headCommit: z
      .string()
      .regex(/^[0-9a-f]{40}$/)
      .optional(),
  }),
);
export type ForkMark = z.infer<typeof forkMarkSchema>;

export const snapshotViewSchema = z.lazy(() =>
  z.strictObject({
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
        /** The agent's tokens and USD when the snapshot was taken (docs/cost.md). */
        cost: costTotalSchema.optional(),
        /**
         * Where a fork of this snapshot cuts: the transcript's length and the worktree's commit then
         * (docs/bundles.md).
         */
        fork: forkMarkSchema.optional(),
      }),
    ),
    /** The run's tokens and USD when the snapshot was taken. */
    cost: costTotalSchema.optional(),
  }),
);
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
  /** A fork was made of the run (docs/bundles.md), or the run was made from a bundle. */
  'forked',
]);
export type RunEventType = z.infer<typeof runEventTypeSchema>;

export const runEventSchema = z.lazy(() =>
  z.strictObject({
    at: isoTime,
    type: runEventTypeSchema,
    agentId: agentId.optional(),
    sessionId: z.string().optional(),
    snapshotId: snapshotId.optional(),
    exitCode: z.number().int().nullable().optional(),
    outcome: z.enum(['resumed', 'fresh', 'failed']).optional(),
    message: z.string().optional(),
  }),
);
export type RunEvent = z.infer<typeof runEventSchema>;

export const attachResultSchema = z.lazy(() =>
  z.discriminatedUnion('mode', [
    /**
     * The bytes from the asked `offset` on come as output frames (frames.ts), the ring's first, sent before this
     * reply.
     */
    z.strictObject({ mode: z.literal('bytes'), terminalId, offset, inputWritten: inputWritten.optional() }),
    /** The gap was older than the ring: start over from this screen; live output follows from `offset`. */
    z.strictObject({
      mode: z.literal('reset'),
      terminalId,
      offset,
      cols: z.number().int(),
      rows: z.number().int(),
      screen: z.string(),
      /** With an `inputChannel` in the attach: the highest input frame of that channel the core has written. */
      inputWritten: inputWritten.optional(),
    }),
  ]),
);
export type AttachResult = z.infer<typeof attachResultSchema>;
