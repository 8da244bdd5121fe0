// What a handle would bring back, and what a resume did, per agent.
import { z } from 'zod';
import { vendorNameSchema } from '../words.js';
import { agentId, runId } from './fields.js';
import { hostAliasSchema } from './host-alias.js';

/**
 * `cwd-unsafe`: the directory is someone else's or others can write it (the reason is in `cwdProblem`). `remote`: the
 * agent runs on another host, whose core checks its directory and conversation when it starts (docs/hosts.md).
 */
export const sessionCheckSchema = z.enum(['found', 'missing', 'cwd-missing', 'cwd-unsafe', 'no-session', 'remote']);
export type SessionCheck = z.infer<typeof sessionCheckSchema>;

export const handlePreviewSchema = z.lazy(() =>
  z.strictObject({
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
        /**
         * Why the agent cannot start there (missing, someone else's, writable by others; never the path); null when
         * it can.
         */
        cwdProblem: z.string().nullable(),
        /** No run in this store has used this directory: the handle chose it. */
        newDirectory: z.boolean(),
        sessionId: z.string().nullable(),
        check: sessionCheckSchema,
        /** What resume will run, as argv (never through a shell). */
        command: z.array(z.string()),
        /**
         * The agent's worktree: still there (`existing`), re-created from its branch (`recreate`), or `failed` (why);
         * `unknown`: on a host that cannot be asked now (its core decides at resume).
         */
        worktree: z
          .strictObject({
            branch: z.string(),
            state: z.enum(['existing', 'recreate', 'failed', 'unknown']),
            reason: z.string().nullable(),
          })
          .nullable(),
        /** The host it will run on (after the resume's hostMap); absent: this machine. */
        host: hostAliasSchema.optional(),
      }),
    ),
  }),
);
export type HandlePreview = z.infer<typeof handlePreviewSchema>;

export const resumeOutcomeSchema = z.lazy(() =>
  z.strictObject({
    agentId,
    label: z.string(),
    vendor: vendorNameSchema,
    outcome: z.enum(['resumed', 'fresh', 'failed']),
    sessionId: z.string().nullable(),
    message: z.string().nullable(),
  }),
);
export type ResumeOutcome = z.infer<typeof resumeOutcomeSchema>;

export const resumeCommandSchema = z.lazy(() =>
  z.strictObject({
    agentId,
    label: z.string(),
    vendor: vendorNameSchema,
    cwd: z.string(),
    /** The vendor's resume command as argv; a client quotes it for display or copying. */
    argv: z.array(z.string()),
  }),
);
export type ResumeCommand = z.infer<typeof resumeCommandSchema>;
