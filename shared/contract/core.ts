// The core itself: the vendors it found, its version handshake, the recovery of interrupted runs, its settings.
import { z } from 'zod';
import { vendorNameSchema } from '../words.js';
import { runId, isoTime } from './fields.js';
import { resumeOutcomeSchema } from './handles.js';

export const vendorInfoSchema = z.lazy(() =>
  z.strictObject({
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
  }),
);
export type VendorInfo = z.infer<typeof vendorInfoSchema>;

/**
 * The version of this contract. A client compares it with the core's (`core.info`) on connect: a desktop app newer
 * than the background core it finds offers to restart that core (docs/architecture.md §2). 1 was the contract
 * before `core.*`, `recovery.*` and `settings.*`; a core that answers `core.info` with "unknown method" speaks 1.
 * 3 added worktrees (`agentView.worktree`, `worktree.*`, `worktrees.*`, `agent.changes|merge|removeWorktree`): a
 * core speaking 2 sends agent views without `worktree`, which this contract refuses. 4: terminal bytes as binary
 * frames (`agent.attach` takes a `stream`, and `consumer: "core"` for a core reading a remote core; no JSON `out`),
 * agent attention (`agentView.attention`, `agent.state`, `attention.*`), cost (`run.cost`, `cost.changed`), hosts
 * (`host` per agent, `hosts.*`), search (`search.*`), forks and bundles (`run.fork`, `bundle.*`). 5: `agent.attach`
 * takes a `scrollback` limit (a pane's catch-up carries its screen and only the newest history), `hosts.folders`
 * lists a host's folders; a core speaking 4 refuses an attach that names a limit. 6: worktrees on hosts
 * (`hosts.inspectWorktree`, `hosts.approveSetup`, `agentSpec.worktreeName`) and `run.list` of named `runs` or the
 * newest `limit` (a page re-lists only the runs an event names, and lists its first screen before the rest; a core
 * speaking 5 refuses both). 7: `run.list` pages (`after`, the last run read) and a run's health `checking` (a whole
 * list answers before every run is checked, and `run.changed` names each run once it is); forks keep each agent's host
 * (`run.fork` takes `agents` and `worktreeName`, asked of a host's core), `worktrees.uncommitted`, a resume preview's
 * worktree state `unknown` (its host cannot be reached), and leftover worktrees on hosts (`host` in
 * `worktrees.orphans` and `worktrees.cleanup`). 8: acknowledged input (`agent.attach` takes an `inputChannel` and
 * answers `inputWritten`; numbered input frames, kind 3; `inputAck` messages): a core speaking 7 refuses an attach
 * that names a channel. 9: `flow` messages, a task's visibility changes and acks in one (shared/flow-batch.ts); a
 * client sends them only to a core whose `core.info` says 9 or more.
 */
export const PROTOCOL_VERSION = 9;

export const coreInfoSchema = z.lazy(() =>
  z.strictObject({
    version: z.string(),
    protocolVersion: z.number().int().positive(),
    pid: z.number().int().positive(),
    startedAt: isoTime,
    liveAgents: z.number().int().nonnegative(),
  }),
);
export type CoreInfo = z.infer<typeof coreInfoSchema>;

/** What a resume of the interrupted runs did, per run: its agents' outcomes, or why the run could not be tried. */
export const recoveryResultSchema = z.lazy(() =>
  z.strictObject({
    at: isoTime,
    runs: z.array(
      z.strictObject({ runId, name: z.string(), outcomes: z.array(resumeOutcomeSchema), error: z.string().nullable() }),
    ),
  }),
);
export type RecoveryResult = z.infer<typeof recoveryResultSchema>;

export const recoveryStateSchema = z.lazy(() =>
  z.strictObject({
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
  }),
);
export type RecoveryState = z.infer<typeof recoveryStateSchema>;

/** Settings kept in the data directory (settings.json), shared by the core and the desktop app. */
export const coreSettingsSchema = z.lazy(() =>
  z.strictObject({
    /** What quitting the desktop app does with running agents; `ask` until the user ticks "Remember my choice". */
    quitAction: z.enum(['ask', 'keep', 'stop']),
    /** Resume the runs a killed core interrupted as soon as the next core starts. */
    resumeInterruptedOnStart: z.boolean(),
  }),
);
export type CoreSettings = z.infer<typeof coreSettingsSchema>;
