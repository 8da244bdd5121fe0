// One agent's attention state machine (docs/attention.md §1). Signals of the vendor's own (hooks, notify, events)
// set any state; patterns over the screen set only the states the vendor does not signal itself, or replace a state
// that was itself inferred. `episode` grows each time the agent starts needing the user, so a client notifies once
// per turn however many times the same state is reported.
import { needsUser, type AgentAttention, type SignalSource } from '../../../shared/contract.js';
import type { SignalState, StateSignal } from './signals.js';

/** native: the vendor's own signal. screen: the adapter's patterns over the screen. input: the user's keys. */
export type SignalOrigin = 'native' | 'screen' | 'input';

export class AttentionMachine {
  private current: AgentAttention;
  /**
   * The user answered a dialog and no signal has confirmed the work since: a dialog that shows again is the same
   * question (the key did not answer it), so it counts no new episode.
   */
  private answered = false;
  /**
   * The user sent a prompt (Enter) while the agent waited or was idle, and no signal has told of the turn since: a
   * screen that shows the prompt again means the turn ran and ended between two looks (a quick answer).
   */
  private sent = false;

  constructor(
    readonly source: SignalSource,
    private readonly nativeStates: readonly SignalState[],
    at: string,
  ) {
    this.current = { state: 'idle', since: at, asks: null, inferred: source === 'screen', episode: 0, source };
  }

  get view(): AgentAttention {
    return { ...this.current };
  }

  /** Applies a signal; returns true when what clients see changed. */
  apply(signal: StateSignal, origin: SignalOrigin, at: string): boolean {
    const cur = this.current;
    if (cur.state === 'exited') return false;
    if (origin === 'screen' && !this.screenMayApply(signal.state)) return false;
    // Waiting again after waiting: a new turn when the vendor says a turn ended, or the screen shows the prompt again
    // after the user sent one (the turn ran between two looks).
    const turnEnded =
      signal.state === 'waiting' &&
      cur.state === 'waiting' &&
      ((origin === 'native' && signal.turnEnd === true) || (origin === 'screen' && this.sent));
    if (origin !== 'input') this.sent = false;
    // Any other news from the vendor or the screen (work, the turn's end) means the answer was taken.
    if (origin !== 'input' && signal.state !== 'asking') this.answered = false;
    const inferred = origin !== 'native';
    const asks = needsUser(signal.state) ? (signal.asks ?? (signal.state === cur.state ? cur.asks : null)) : null;
    if (signal.state === cur.state && !turnEnded) {
      // The same state again: a native report firms up an inferred one and may bring the text of what it asks.
      const firmer = cur.inferred && !inferred;
      if (!firmer && asks === cur.asks) return false;
      this.current = { ...cur, asks, inferred: inferred && cur.inferred };
      return true;
    }
    // A dialog that shows again right after a key did not take the answer: the same question, no new episode.
    const sameQuestion = this.answered && signal.state === 'asking';
    const newNeed = needsUser(signal.state) && (turnEnded || cur.state !== signal.state) && !sameQuestion;
    const episode = newNeed ? cur.episode + 1 : cur.episode;
    if (origin === 'input') this.answered = true;
    this.current = { ...cur, state: signal.state, since: at, asks, inferred, episode };
    return true;
  }

  /**
   * The user typed into the terminal. Any key in an approval dialog answers it (a digit, y, Enter): the agent works
   * again. A prompt sent while it waits changes nothing yet: the vendor's signal or its screen says when the turn
   * starts (an Enter on an empty prompt starts none).
   */
  input(data: string, at: string): boolean {
    const state = this.current.state;
    if (state === 'asking') return this.apply({ state: 'working' }, 'input', at);
    if ((state === 'waiting' || state === 'idle') && /[\r\n]/.test(data)) this.sent = true;
    return false;
  }

  /**
   * The state another core knows first-hand (a remote agent's host, whose hooks report there), taken as it is: its
   * turn count too, so a client notifies once per turn there. Its end is this side's terminal's to tell.
   */
  adopt(view: AgentAttention): boolean {
    if (this.current.state === 'exited' || view.state === 'exited') return false;
    this.answered = false;
    this.sent = false;
    const cur = this.current;
    const same =
      cur.state === view.state &&
      cur.since === view.since &&
      cur.asks === view.asks &&
      cur.inferred === view.inferred &&
      cur.episode === view.episode &&
      cur.source === view.source;
    if (same) return false;
    this.current = { ...view };
    return true;
  }

  exited(at: string): boolean {
    if (this.current.state === 'exited') return false;
    this.current = { ...this.current, state: 'exited', since: at, asks: null, inferred: false };
    return true;
  }

  /**
   * The screen sets only the states the vendor does not signal (its own signal would come too, and two reports of one
   * turn must not make two), with one exception: a dialog still on screen after a key that did not answer it. It
   * never says "waiting" of an agent that has had no turn: a prompt on screen at start is idle, not an answer,
   * unless the user has just sent one.
   */
  private screenMayApply(state: SignalState): boolean {
    if (state === 'waiting' && this.current.state === 'idle' && !this.sent) return false;
    if (!this.nativeStates.includes(state)) return true;
    return state === 'asking' && this.answered;
  }
}
