// Search across every transcript on this machine (docs/search.md): the `search.*` requests and the index's progress.
import { z } from 'zod';
import { LIMITS, absolutePathSchema, labelSchema, runNameSchema, vendorNameSchema } from '../words.js';
import { runViewSchema } from './agents.js';
import { agentId, runId, runRef } from './fields.js';
import { resumeOutcomeSchema } from './handles.js';

/** Where the index is: building (done of total files), or current. */
export const searchStatusSchema = z.lazy(() =>
  z.strictObject({
    state: z.enum(['starting', 'indexing', 'ready', 'failed']),
    /** Files read in this pass, of those that changed. */
    done: z.number().int().nonnegative(),
    total: z.number().int().nonnegative(),
    /** Transcripts and messages the index holds. */
    files: z.number().int().nonnegative(),
    messages: z.number().int().nonnegative(),
    /** The index's size on disk, in bytes (0 before its first save). */
    indexBytes: z.number().int().nonnegative(),
    /** ISO time the last pass ended; null before the first. */
    refreshedAt: z.string().nullable(),
    /** Why the index could not be built (failed only). */
    error: z.string().nullable(),
  }),
);
export type SearchStatus = z.infer<typeof searchStatusSchema>;

/** The Baton run and agent holding a conversation; null when it was started outside Baton. */
const holderSchema = z.strictObject({ runId, runName: z.string(), agentId, label: z.string() }).nullable();

/** One line of a matching message: `match` gives [start, end) of each highlighted word; none on a context line. */
export const searchLineSchema = z.lazy(() =>
  z.strictObject({
    text: z.string(),
    match: z.array(z.tuple([z.number().int(), z.number().int()])),
  }),
);
export type SearchLine = z.infer<typeof searchLineSchema>;

export const searchHitSchema = z.lazy(() =>
  z.strictObject({
    /** The message's id in the index: `search.transcript` opens the conversation at it. */
    messageId: z.number().int().nonnegative(),
    role: z.enum(['user', 'assistant']),
    time: z.string().nullable(),
    lines: z.array(searchLineSchema),
  }),
);
export type SearchHit = z.infer<typeof searchHitSchema>;

export const searchResultSchema = z.lazy(() =>
  z.strictObject({
    vendor: vendorNameSchema,
    sessionId: z.string(),
    cwd: z.string().nullable(),
    /** ISO time of the transcript's last change. */
    lastActivity: z.string(),
    holder: holderSchema,
    hits: z.array(searchHitSchema),
    /** Matching messages of this transcript not shown in `hits`. */
    moreHits: z.number().int().nonnegative(),
  }),
);
export type SearchResult = z.infer<typeof searchResultSchema>;

export const transcriptMessageSchema = z.lazy(() =>
  z.strictObject({
    messageId: z.number().int().nonnegative().nullable(),
    role: z.enum(['user', 'assistant']),
    text: z.string(),
    time: z.string().nullable(),
  }),
);
export type TranscriptMessage = z.infer<typeof transcriptMessageSchema>;

const sessionRef = { vendor: vendorNameSchema, sessionId: z.string().min(1).max(256) };

export const searchRequests = {
  /** Conversations holding every word, newest first, one result per transcript. */
  'search.query': () => ({
    params: z.strictObject({
      text: z.string().min(1).max(500),
      vendor: vendorNameSchema.optional(),
      run: runRef.optional(),
      /** Only conversations in this directory or below it. */
      dir: absolutePathSchema.optional(),
      limit: z.number().int().min(1).max(200).optional(),
    }),
    result: z.strictObject({
      results: z.array(searchResultSchema),
      /** Transcripts that matched (results holds the newest `limit`). */
      total: z.number().int().nonnegative(),
      /** More messages matched than one query reads: only the newest were grouped. */
      capped: z.boolean(),
      status: searchStatusSchema,
    }),
  }),
  /** A conversation's user and assistant messages; `focus` is the index in `messages` of `messageId`. */
  'search.transcript': () => ({
    params: z.strictObject({ ...sessionRef, messageId: z.number().int().nonnegative().optional() }),
    result: z.strictObject({
      vendor: vendorNameSchema,
      sessionId: z.string(),
      cwd: z.string().nullable(),
      holder: holderSchema,
      messages: z.array(transcriptMessageSchema),
      focus: z.number().int().nonnegative().nullable(),
      /** Messages left out at the start (a very long conversation is cut around the focus). */
      skipped: z.number().int().nonnegative(),
    }),
  }),
  'search.status': () => ({ params: z.strictObject({}), result: searchStatusSchema }),
  /** Reads what changed in the vendors' stores now (the index also does so on its own), and waits for it. */
  'search.refresh': () => ({ params: z.strictObject({}), result: searchStatusSchema }),
  /**
   * Resumes a conversation found by search: in a new run named `newRun`, or as a new agent of the run `into`. A
   * conversation a run already holds is refused (resume that run instead).
   */
  'search.resume': () => ({
    params: z.strictObject({
      ...sessionRef,
      cwd: absolutePathSchema,
      label: labelSchema.optional(),
      into: z.union([z.strictObject({ newRun: runNameSchema }), z.strictObject({ run: runRef })]),
    }),
    result: z.strictObject({ run: runViewSchema, outcomes: z.array(resumeOutcomeSchema).max(LIMITS.agentsPerRun) }),
  }),
} as const;

export const searchEvents = {
  /** The index's progress (at most a few times a second while it builds, and when a pass ends). */
  'search.progress': () => searchStatusSchema,
} as const;
