// The worktree questions the New run dialog and the Changes dialog ask about a folder on another host: answered by
// that host's own core, where the repository is (docs/hosts.md "Worktrees on a host").
import { z } from 'zod';
import { absolutePathSchema } from '../words.js';
import { runRef } from './fields.js';
import { hostAliasSchema } from './host-alias.js';

/** A folder's repository, as `worktree.inspect` gives it (null: not in one). */
export const repoInspectionSchema = z
  .strictObject({
    repoRoot: z.string(),
    currentBranch: z.string().nullable(),
    headCommit: z.string(),
    /** Local branches, at most 200. */
    branches: z.array(z.string()),
    setup: z.strictObject({ command: z.array(z.string()), hash: z.string(), approved: z.boolean() }).nullable(),
  })
  .nullable();

export const hostWorktreeRequests = {
  /** `worktree.inspect` of a folder on that host, answered by its core (connecting first). */
  'hosts.inspectWorktree': () => ({
    params: z.strictObject({ host: hostAliasSchema, cwd: absolutePathSchema }),
    result: repoInspectionSchema,
  }),
  /** `worktree.approveSetup` on that host: the user consents to that repository's setup command running there. */
  'hosts.approveSetup': () => ({
    params: z.strictObject({ host: hostAliasSchema, repoRoot: absolutePathSchema, hash: z.string().max(200) }),
    result: z.strictObject({}),
  }),
  /**
   * The worktrees Baton created for the run's agents on this core's machine that hold uncommitted work: a core asks a
   * host's core this about its remote run before `run.delete {removeWorktrees}` stops anything.
   */
  'worktrees.uncommitted': () => ({
    params: z.strictObject({ run: runRef }),
    result: z.array(
      z.strictObject({ label: z.string(), worktreePath: z.string(), files: z.number().int().nonnegative() }),
    ),
  }),
} as const;
