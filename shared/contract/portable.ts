// Fork a run, and carry a run to another machine in an encrypted bundle (docs/bundles.md).
import { z } from 'zod';
import { LIMITS, absolutePathSchema, labelSchema, runNameSchema, vendorNameSchema } from '../words.js';
import { runViewSchema } from './agents.js';
import { runRef, snapshotId } from './fields.js';
import { resumeOutcomeSchema } from './handles.js';

/**
 * The largest bundle (encrypted bytes) the core takes or gives over the contract: its base64 must fit one WebSocket
 * message of the web transport (4 MiB, transport/ws-endpoint.ts). The content is gzip'd, so this holds about ten
 * times as much transcript.
 */
export const BUNDLE_MAX_BYTES = 3_000_000;
/** A bundle travels as base64 inside a request or a reply. */
const bundleBase64 = z
  .string()
  .min(1)
  .max(Math.ceil(BUNDLE_MAX_BYTES / 3) * 4)
  .regex(/^[A-Za-z0-9+/]*={0,2}$/, { error: 'bundle is not base64' });
/** A passphrase travels only inside requests; it is never echoed back, logged or put in an error. */
const passphrase = z.string().min(8, { error: 'the passphrase must be at least 8 characters' }).max(1024);
/** Directories of the bundle's machine → directories here (the user picks them in the preview). */
const directoryMap = z.record(absolutePathSchema, absolutePathSchema);

/**
 * How a forked agent got its conversation: the vendor's own fork (`native`), a copy of the transcript under a new id
 * (`copy`), or none (`none`: a shell agent, an agent with no conversation yet, or a vendor that cannot fork; the
 * message says why). `from`: the conversation as it was at the snapshot, or as it is now.
 */
export const forkOutcomeSchema = z.lazy(() =>
  z.strictObject({
    ...resumeOutcomeSchema.unwrap().shape,
    method: z.enum(['native', 'copy', 'none']),
    from: z.enum(['snapshot', 'now']),
  }),
);
export type ForkOutcome = z.infer<typeof forkOutcomeSchema>;

export const bundlePreviewSchema = z.lazy(() =>
  z.strictObject({
    runName: z.string(),
    createdAt: z.string(),
    /** The snapshot the bundle was made of; null: the run as it was at export. */
    snapshotId: z.string().nullable(),
    agents: z.array(
      z.strictObject({
        label: z.string(),
        vendor: vendorNameSchema,
        /** The directory on the machine the bundle was made on. */
        cwd: z.string(),
        /** Where it goes here after the map; null when it is not mapped and does not exist here. */
        mappedCwd: z.string().nullable(),
        /** Why the agent cannot start in its directory here (missing, someone else's…); null when it can. */
        cwdProblem: z.string().nullable(),
        /** The bundle holds its conversation (false: it starts fresh; the reason is in `note`). */
        transcript: z.boolean(),
        /** The agent's own branch travels in the bundle. */
        branch: z.string().nullable(),
        note: z.string().nullable(),
      }),
    ),
    /** The distinct top directories of the bundle's agents, for the preview's mapping fields. */
    directories: z.array(z.strictObject({ from: z.string(), exists: z.boolean() })),
  }),
);
export type BundlePreview = z.infer<typeof bundlePreviewSchema>;

export const portableRequests = {
  /** A new run "<name> fork" whose agents continue copies of the run's conversations (now, or at a snapshot). */
  'run.fork': () => ({
    params: z.strictObject({
      run: runRef,
      snapshot: snapshotId.optional(),
      name: runNameSchema.optional(),
      /** Only the agents of these labels (default: all): a host's core forks the agents it runs for a run here. */
      agents: z.array(labelSchema).min(1).max(LIMITS.agentsPerRun).optional(),
      /** The run name new worktrees are named after (default: the fork's): on a host, the fork's name here. */
      worktreeName: runNameSchema.optional(),
    }),
    result: z.strictObject({ run: runViewSchema, outcomes: z.array(forkOutcomeSchema).max(LIMITS.agentsPerRun) }),
  }),
  /** The run (or one snapshot of it) as one encrypted bundle. */
  'bundle.export': () => ({
    params: z.strictObject({ run: runRef, snapshot: snapshotId.optional(), passphrase }),
    result: z.strictObject({
      bundle: bundleBase64,
      fileName: z.string(),
      agents: z.array(
        z.strictObject({
          label: z.string(),
          vendor: vendorNameSchema,
          transcript: z.boolean(),
          note: z.string().nullable(),
        }),
      ),
    }),
  }),
  /** Decrypts and validates a bundle, and says what importing it with `map` would do; writes nothing. */
  'bundle.inspect': () => ({
    params: z.strictObject({ bundle: bundleBase64, passphrase, map: directoryMap.optional() }),
    result: bundlePreviewSchema,
  }),
  /** Places the bundle's transcripts and branches here (all or nothing), then resumes them as a new run. */
  'bundle.import': () => ({
    params: z.strictObject({
      bundle: bundleBase64,
      passphrase,
      map: directoryMap.optional(),
      name: runNameSchema.optional(),
    }),
    result: z.strictObject({ run: runViewSchema, outcomes: z.array(resumeOutcomeSchema).max(LIMITS.agentsPerRun) }),
  }),
} as const;
