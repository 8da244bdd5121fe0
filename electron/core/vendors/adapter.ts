// The interface every vendor adapter implements (docs/architecture.md §9). Vendor facts live in each vendor's own folder.
import type { VendorName, ResumeOutcomeKind, SessionIdChooser } from '../../../shared/words.js';
import type { BinaryFacts } from './kit/bin.js';
import type { VendorContext } from './kit/context.js';
import type { VendorUsage } from './kit/usage.js';
import type { AttentionFacts } from '../attention/signals.js';

/** What an adapter knows about the agent it starts. */
export interface AgentContext {
  runName: string;
  label: string;
  /** Absolute, existing directory (already validated). */
  cwd: string;
  /** The user's own extra arguments, appended after the adapter's. */
  args: readonly string[];
  /** Shell agents only: the command to run instead of the user's shell. */
  command: readonly string[] | null;
}

/** The environment the core runs in; vendor stores are found from it (HOME, CLAUDE_CONFIG_DIR, …). */
export type VendorEnv = Readonly<Record<string, string | undefined>>;

/** What to run, and what Baton will know about the session when it runs. */
export interface SpawnPlan {
  argv: string[];
  /** Extra environment for this agent only (never from a handle). */
  env: Record<string, string>;
  /** The vendor session id, when known before spawn (chosen by Baton or resumed). */
  sessionId: string | null;
  chosenBy: SessionIdChooser | null;
  /** For resume plans: what the user will be told happened. */
  outcome: ResumeOutcomeKind;
  /** Shown in the pane and the run's events when not null (a fresh fallback, say). */
  warning: string | null;
  /** What `follow` needs to know about this spawn (a port Baton chose, say). Never from a handle. */
  hints?: Record<string, string>;
}

/** A resume plan with what the vendor's store showed of the prior id while it was planned. */
export interface CheckedResumePlan {
  plan: SpawnPlan;
  /** What `exists` would have answered for the prior id and cwd then (false when the id could not be looked up). */
  found: boolean;
}

/** The session an agent had, as the store or a handle remembers it. */
export interface PriorSession {
  sessionId: string;
  /** Baton chose the id at spawn. */
  chosenBy: SessionIdChooser;
  /** The vendor's store was seen to hold a transcript for it at some point. */
  confirmed: boolean;
}

export interface LiveTerminal {
  /** The PTY child's pid (the CLI itself, or its wrapper). */
  pid: number;
  cwd: string;
  /** The spawn plan's hints. */
  hints: Readonly<Record<string, string>>;
  /** When the terminal was spawned (ms since epoch): discovery only accepts sessions newer than this. */
  spawnedAt: number;
}

/** A conversation found in a vendor's own store, for import into a run. */
export interface FoundSession {
  sessionId: string;
  cwd: string | null;
  title: string | null;
  firstPrompt: string | null;
  /** ISO time of the last activity. */
  lastActivity: string;
}

export interface SessionObservation {
  sessionId: string;
  /** The vendor's store holds a transcript for this id. */
  confirmed: boolean;
}

/** The sessions a vendor's store held when it was read (`VendorAdapter.indexSessions`). */
export interface SessionIndex {
  has(sessionId: string, cwd: string): boolean;
}

/** Screen patterns (over the mirror's last `attention.screen.lines` lines) that say whether the CLI takes typed keys. */
export interface InputScreens {
  /**
   * Shown while the CLI restores a resumed session, when it drops what it reads. Its prompt box, drawn before the
   * restore begins, counts for a resumed agent only once this has shown and gone.
   */
  readonly restoring: readonly RegExp[];
  /** Shown only while the input box is empty (a placeholder): a text typed and never drawn under it was dropped. */
  readonly emptyBox: readonly RegExp[];
}

export interface VendorAdapter extends BinaryFacts {
  readonly vendor: VendorName;
  readonly displayName: string;
  /** Strict shape of this vendor's session ids; null when the vendor has no sessions (shell). */
  readonly sessionIdPattern: RegExp | null;
  /** Pause between typing a prompt and pressing Enter, so the TUI does not take it as a paste. */
  readonly submitDelayMs: number;
  /** Texts the CLI prints when asked to resume an id it does not have (it then exits non-zero). */
  readonly resumeErrorTexts: readonly RegExp[];
  /** What its screen shows of its input box, for `agent.send` (docs/input-ready.md); absent: nothing known. */
  readonly input?: InputScreens;
  /**
   * Discovery can tell two new sessions in one directory apart (opencode's per-process event stream), so
   * spawns need not wait for each other's id. Default: they wait (docs/architecture.md §9, discovery gate).
   */
  readonly tellsConcurrentSessionsApart?: boolean;
  /** Shown wherever the vendor is offered, when its support is limited (Cursor: unverified here). */
  readonly supportNote?: string;
  /**
   * How its agent's state is known (docs/attention.md): the vendor's own signal (hooks, notify, events) and how a
   * spawn is wired to it, or its screens as patterns. Absent: the agent is idle until it exits.
   */
  readonly attention?: AttentionFacts;

  /**
   * argv + env for a fresh conversation. argv[0] is the binary as given (resolved by the caller). May be
   * async where the id is created before the CLI starts (Cursor's create-chat, an opencode server session).
   */
  spawnFresh(ctx: AgentContext, env: VendorEnv): Promise<SpawnPlan>;
  /** Plan the resume of a prior session: resume it, respawn it under the same id, or start fresh with a warning. */
  planResume(ctx: AgentContext, prior: PriorSession, env: VendorEnv): Promise<SpawnPlan>;
  /**
   * The same plan, with what the store showed of the prior id while planning it: the core's resume reads each agent's
   * store once and reuses that for its checks and the launch (docs/architecture.md §5). `kit/plans.ts` `resumePlanning`
   * gives an adapter both entries from one planner.
   */
  planResumeChecked(ctx: AgentContext, prior: PriorSession, env: VendorEnv): Promise<CheckedResumePlan>;
  /** Whether the vendor still has this session's transcript, read from its store without starting the CLI. */
  exists(sessionId: string, cwd: string, env: VendorEnv): Promise<boolean>;
  /**
   * Every session the store holds now, read in one pass: for checking many runs at once (run.list's health,
   * docs/performance.md "Core"), where `exists` per session would read the store once each. Its `has` answers exactly
   * what `exists` would have answered when the pass was made. Absent, or null (the store cannot be listed): callers
   * ask `exists` per session.
   */
  indexSessions?(env: VendorEnv): Promise<SessionIndex | null>;
  /**
   * Watch a live terminal for its session id (discovery, confirmation, and changes such as Claude's /clear).
   * Calls `onSession` whenever the id or its confirmation changes. Returns a function that stops watching.
   */
  follow(terminal: LiveTerminal, env: VendorEnv, onSession: (seen: SessionObservation) => void): () => void;
  /** Conversations in the vendor's own store (for import); cheap and incremental on large stores. */
  listSessions?(env: VendorEnv): Promise<FoundSession[]>;
  /** The argv that resumes a session by hand (preview, "copy as shell commands"), argv[0] being the bin name. */
  resumeCommand(sessionId: string): string[];
  /** Token usage and recorded cost of a session, read from the vendor's own transcripts (docs/cost.md). None: no model. */
  readonly usage?: VendorUsage;
  /**
   * The vendor's own fork of a session as it is now (docs/bundles.md §1): a plan whose CLI starts a new session that
   * continues a copy of `sourceId` in `ctx.cwd`, leaving the source untouched. Absent: the vendor has none Baton can
   * follow, and a fork copies the transcript (`transcripts`) instead.
   */
  planFork?(ctx: AgentContext, sourceId: string, env: VendorEnv): Promise<SpawnPlan>;
  /** The vendor keeps a session in one file Baton can copy (fork by copy, a fork cut at a snapshot, bundles). */
  readonly transcripts?: TranscriptFiles;
}

/** What one line of a transcript holds for search (docs/search.md §2): a message's text, its time, the directory. */
export interface TranscriptLine {
  role?: 'user' | 'assistant';
  text?: string;
  /** ISO time of the message, when the line says. */
  time?: string;
  /** The conversation's directory, when the line says. */
  cwd?: string;
  /** The session id, when the file's name does not give it (Gemini). */
  sessionId?: string;
}

/** One transcript file of a vendor's store. */
export interface TranscriptFile {
  path: string;
  /** Null when only the file's lines say it. */
  sessionId: string | null;
  /** Null when only the file's lines say it. */
  cwd: string | null;
}

/**
 * A vendor's transcripts, for search across every conversation (docs/search.md). Pure functions of the store's files,
 * so the search worker thread can use them without an adapter: JSON Lines files that grow by appending.
 */
export interface TranscriptSource {
  /** Every transcript file of the store. */
  files(env: VendorEnv): Promise<TranscriptFile[]>;
  /** What one parsed line holds; null for a line that is neither a message nor a fact about the conversation. */
  line(value: unknown): TranscriptLine | null;
  /**
   * The folder holding every transcript, and how many folder levels below it a transcript lies (claude:
   * `projects/<p>/x.jsonl` is 1): search watches that tree for changes instead of stat'ing every file each time.
   */
  watchRoot?(env: VendorEnv): { dir: string; depth: number };
}

/** How a copied transcript's lines change for their new session id and directory. */
export interface TranscriptRemap {
  fromId: string;
  toId: string;
  fromCwd: string;
  toCwd: string;
}

/** A vendor's session transcript as one file (JSON Lines), and where this machine's CLI looks for one. */
export interface TranscriptFiles {
  /** The transcript of `sessionId` now, or null when the store holds none. */
  locate(sessionId: string, cwd: string, env: VendorEnv): Promise<string | null>;
  /** Where this machine's CLI finds a session `sessionId` working in `cwd` (the file to write; folders may be missing). */
  placeFor(sessionId: string, cwd: string, env: VendorEnv): Promise<string>;
  /** A new session id of the vendor's shape, for a copy. */
  newId(): string;
  /** Per line, after the id and directory were replaced wherever they appear whole: what else keys on them. */
  rewrite?(record: Record<string, unknown>, remap: TranscriptRemap): void;
  /** After the copy is in place: what the CLI needs to find it (Gemini's projects.json entry for a new directory). */
  register?(sessionId: string, cwd: string, env: VendorEnv): Promise<void>;
}

/**
 * A vendor as the registry lists it: its name and how its adapter is made over a core's vendor context (the claims,
 * caches and timings that core's adapters share). Each vendor folder's index.ts exports one.
 */
export interface VendorDefinition<V extends VendorName = VendorName> {
  readonly vendor: V;
  create(ctx: VendorContext): VendorAdapter;
  /** Its transcripts for search; absent where the store is not JSON Lines (docs/search.md §2). */
  readonly searchText?: TranscriptSource;
}
