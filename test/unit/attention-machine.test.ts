// The attention state machine (electron/core/attention/machine.ts): which signals set which state, when a new episode
// (one notification) begins, and how screen guesses and the user's keys combine with the vendor's own signals.
import { describe, expect, it } from 'vitest';
import { AttentionMachine } from '../../electron/core/attention/machine.js';

let clock = 0;
const at = () => new Date(Date.UTC(2026, 0, 1, 0, 0, clock++)).toISOString();

describe('AttentionMachine', () => {
  it('with hooks for everything: idle → working → waiting, one episode per turn, repeats change nothing', () => {
    const m = new AttentionMachine('hooks', ['idle', 'working', 'waiting', 'asking'], at());
    expect(m.view).toMatchObject({ state: 'idle', episode: 0, inferred: false });
    expect(m.apply({ state: 'working' }, 'native', at())).toBe(true);
    expect(m.apply({ state: 'waiting' }, 'native', at())).toBe(true);
    expect(m.view).toMatchObject({ state: 'waiting', episode: 1 });
    // The same Stop again, or Claude's "waiting for your input" reminder: no change, no new episode.
    expect(m.apply({ state: 'waiting' }, 'native', at())).toBe(false);
    expect(m.view.episode).toBe(1);
    m.apply({ state: 'working' }, 'native', at());
    m.apply({ state: 'asking', asks: 'Claude needs your permission to use Bash' }, 'native', at());
    expect(m.view).toMatchObject({ state: 'asking', episode: 2, asks: 'Claude needs your permission to use Bash' });
  });

  it('a key in an approval dialog answers it: working at once; the dialog showing again is the same question', () => {
    const m = new AttentionMachine('hooks', ['idle', 'working', 'waiting', 'asking'], at());
    m.apply({ state: 'asking', asks: 'q' }, 'native', at());
    expect(m.input('1', at())).toBe(true);
    expect(m.view).toMatchObject({ state: 'working', inferred: true, episode: 1 });
    // The screen still shows the dialog (the key was not taken): asking again, but not a new episode.
    m.apply({ state: 'asking' }, 'screen', at());
    expect(m.view).toMatchObject({ state: 'asking', episode: 1 });
    // Answered for real; the vendor confirms the work; the turn ends: a new episode.
    m.input('1', at());
    m.apply({ state: 'working' }, 'native', at());
    m.apply({ state: 'waiting' }, 'native', at());
    expect(m.view).toMatchObject({ state: 'waiting', episode: 2, inferred: false });
  });

  it('the screen never overrides a state the vendor signals, only a state that was itself inferred', () => {
    const m = new AttentionMachine('notify', ['waiting'], at());
    m.apply({ state: 'working' }, 'screen', at());
    expect(m.view).toMatchObject({ state: 'working', inferred: true });
    m.apply({ state: 'waiting' }, 'native', at());
    expect(m.view).toMatchObject({ state: 'waiting', inferred: false, episode: 1 });
    // The prompt on screen says waiting: already known natively, nothing changes.
    expect(m.apply({ state: 'waiting' }, 'screen', at())).toBe(false);
    // A dialog is the screen's to read for Codex (notify says nothing of it).
    m.apply({ state: 'asking', asks: 'run: pwd' }, 'screen', at());
    expect(m.view).toMatchObject({ state: 'asking', inferred: true, episode: 2 });
  });

  it('screen only: a prompt on screen at start is idle, not an answer; after a prompt is sent it is the turn’s end', () => {
    const m = new AttentionMachine('screen', [], at());
    expect(m.apply({ state: 'waiting' }, 'screen', at())).toBe(false);
    expect(m.view.state).toBe('idle');
    // An Enter while idle: the next prompt seen is the end of a (quick) turn.
    expect(m.input('\r', at())).toBe(false);
    m.apply({ state: 'waiting' }, 'screen', at());
    expect(m.view).toMatchObject({ state: 'waiting', inferred: true, episode: 1 });
    // Waiting, another prompt sent and answered between two looks: a new turn, a new episode.
    m.input('\r', at());
    m.apply({ state: 'waiting' }, 'screen', at());
    expect(m.view.episode).toBe(2);
    // Without a prompt sent, the same screen again is nothing new.
    expect(m.apply({ state: 'waiting' }, 'screen', at())).toBe(false);
    expect(m.view.episode).toBe(2);
  });

  it('a vendor that only signals turn ends (Codex notify): each agent-turn-complete is a new turn', () => {
    const m = new AttentionMachine('notify', ['waiting'], at());
    m.apply({ state: 'waiting', turnEnd: true }, 'native', at());
    m.apply({ state: 'waiting', turnEnd: true }, 'native', at());
    expect(m.view).toMatchObject({ state: 'waiting', episode: 2 });
    // A repeat that is no turn's end (opencode's status idle after its session.idle): nothing new.
    expect(m.apply({ state: 'waiting' }, 'native', at())).toBe(false);
    expect(m.view.episode).toBe(2);
  });

  it('a native report firms up an inferred state and brings what it asks; exited is final', () => {
    const m = new AttentionMachine('notify', ['waiting'], at());
    m.input('\r', at());
    m.apply({ state: 'working' }, 'screen', at());
    m.apply({ state: 'waiting', asks: 'Done.' }, 'native', at());
    expect(m.view).toMatchObject({ state: 'waiting', asks: 'Done.', inferred: false });
    expect(m.exited(at())).toBe(true);
    expect(m.apply({ state: 'working' }, 'native', at())).toBe(false);
    expect(m.view).toMatchObject({ state: 'exited', asks: null });
  });
});
