// What a vendor adapter tells the attention core (docs/attention.md): where its states come from, how a spawn is made
// to report them, how its reports read, and, where it has no signal of its own, its screens as data.
import type { AgentState, SignalSource } from '../../../shared/contract.js';

/** A state a signal reports. `exited` comes from the terminal, never from a signal. */
export type SignalState = Exclude<AgentState, 'exited'>;

export interface StateSignal {
  state: SignalState;
  /** What the agent asks (a permission prompt's text, say), when the signal carries it. */
  asks?: string | null;
  /**
   * The report marks the end of a turn (Claude's Stop, Codex's agent-turn-complete, opencode's session.idle): a new
   * turn even when the agent was already waiting (a vendor with no signal for the turn's start).
   */
  turnEnd?: boolean;
}

/** How a spawn reaches `baton hook`: the argv that runs it (the runtime and the CLI's script), never user data. */
export interface HookWiring {
  /** argv[0..] of the command that runs `baton` (e.g. [node, …/cli/main.js]); absolute paths Baton chose. */
  readonly launcher: readonly string[];
}

/** A report as `baton hook <vendor>` hands it on: the vendor's JSON from standard input and from its last argument. */
export interface HookReport {
  stdin: unknown;
  arg: unknown;
}

/** One approval dialog or prompt of a vendor's TUI, as a pattern over the screen text (its last lines). */
export interface ScreenRule {
  pattern: RegExp;
  /** The text of what it asks, from the match (null: the rule only tells the state). */
  asks?: (match: RegExpExecArray) => string | null;
}

/** A vendor's screens as data: a dialog that asks, what shows while it works, what shows while its prompt waits. */
export interface ScreenPatterns {
  asking: readonly ScreenRule[];
  working: readonly RegExp[];
  waiting: readonly RegExp[];
  /** How many of the screen's last lines are read (the dialogs and the prompt box are at the bottom). */
  lines: number;
  /**
   * The prompt box stays drawn under the working line while a turn runs (Gemini 0.61): a working line anywhere in the
   * tail then means work, though the prompt is lower. The TUI takes that line away when the turn ends.
   */
  promptStaysWhileWorking?: boolean;
}

export interface AttentionFacts {
  /** Where this vendor's states come from first (docs/attention.md, per vendor). */
  readonly source: SignalSource;
  /** The states the vendor's own signal reports; screen patterns never override these, they fill in the others. */
  readonly nativeStates: readonly SignalState[];
  /** Extra argv words (after the binary) that make this spawn report to Baton; per session, never a settings file. */
  wire?(hook: HookWiring): string[];
  /** A report of this vendor's hook, read strictly: a state, or null (ignored). Never throws. */
  parseReport?(report: HookReport): StateSignal | null;
  /** Patterns over the mirror's screen for the states the vendor does not signal. */
  readonly screen?: ScreenPatterns;
  /**
   * A signal channel the adapter follows itself (opencode's event stream): calls `onSignal` per change. `hints` are
   * the spawn plan's (a port Baton chose). Returns a function that stops it.
   */
  watch?(
    hints: Readonly<Record<string, string>>,
    env: Readonly<Record<string, string | undefined>>,
    onSignal: (s: StateSignal) => void,
  ): () => void;
}

/** A vendor with nothing to say about its state (shell): idle until it exits. */
export const NO_ATTENTION: AttentionFacts = { source: 'none', nativeStates: [] };

/** Trims a vendor's text to one short line for a notification ("what it asks"). */
export function shortText(text: string | null | undefined, max = 200): string | null {
  if (typeof text !== 'string') return null;
  const one = text
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (one === '') return null;
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}
