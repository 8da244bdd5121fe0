// The dashboard's commands (renderer/commands/, docs/architecture.md §12): the keys a person presses run the command
// the help overlay lists them for, plain keys stay with the terminal, and a command behaves the same from a key, a
// button or the menu (enabled or not, its progress, its failure). The store is the real one; the core is not needed.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { commandForKey, listenForCommandKeys, parseChord, type KeyPress } from '../../renderer/commands/keys.js';
import { helpRows } from '../../renderer/commands/help.js';
import { command, commandEnabled, runCommand } from '../../renderer/commands/registry.js';
import { useBaton } from '../../renderer/state/store.js';
import { COMMANDS, type CommandId } from '../../shared/commands.js';
import type { AgentView, RunView } from '../../shared/contract.js';

/** A key press as a US keyboard reports it for a chord written like the shared list's (`Alt+Shift+N`). */
function press(chord: string, extra: Partial<KeyPress> = {}): KeyPress {
  const parts = chord.split('+');
  const name = parts.pop()!;
  const symbols: Record<string, string> = { ']': 'BracketRight', '[': 'BracketLeft', '/': 'Slash' };
  const code = /^[A-Z]$/.test(name) ? `Key${name}` : /^[0-9]$/.test(name) ? `Digit${name}` : (symbols[name] ?? name);
  return {
    code,
    key: name,
    altKey: parts.includes('Alt'),
    shiftKey: parts.includes('Shift'),
    ctrlKey: parts.includes('Ctrl'),
    metaKey: false,
    ...extra,
  };
}

function agent(id: string, status: AgentView['status']): AgentView {
  return {
    id,
    label: id,
    vendor: 'shell',
    cwd: '/tmp',
    args: [],
    command: ['/bin/sh'],
    sessionId: null,
    sessionIds: [],
    status,
    exitCode: null,
    terminalId: status === 'running' ? `trm_${id}` : null,
    pid: null,
    warning: null,
    startedAt: null,
    worktree: null,
    attention: {
      state: 'idle',
      since: '2025-01-01T00:00:00.000Z',
      asks: null,
      inferred: false,
      episode: 0,
      source: 'none',
    },
  };
}

function selectRun(agents: AgentView[]): RunView {
  const run: RunView = {
    id: 'run_cmd',
    name: 'cmd',
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    agents,
    lastSnapshot: null,
  };
  useBaton.setState({ selectedRunId: run.id, runDetails: { [run.id]: run } });
  return run;
}

const initial = useBaton.getState();
beforeEach(() => useBaton.setState({ dialog: null, toasts: [], pending: null, selectedRunId: null, runDetails: {} }));
afterEach(() => useBaton.setState({ snapshot: initial.snapshot, stopRun: initial.stopRun }));

describe('the keys', () => {
  it('run the command the help overlay lists them for', () => {
    const bound = COMMANDS.flatMap((c) => (c.keys as readonly string[]).map((k) => [k, c.id] as const));
    expect(bound.length).toBeGreaterThanOrEqual(18);
    for (const [key, id] of bound) expect(commandForKey(press(key)), key).toBe(id);
  });

  it('leave plain keys, Shift, Ctrl+Shift and Cmd to the terminal', () => {
    const terminal = [
      press('N'),
      press('Shift+N'),
      press('Ctrl+R'),
      press('Ctrl+Shift+C'),
      press('Ctrl+Shift+V'),
      press('Alt+Shift+N', { metaKey: true }),
      press('Alt+0'),
      press('Alt+Shift+1'),
      press('Shift+F1'),
      press('Escape'),
    ];
    for (const p of terminal) expect(commandForKey(p), JSON.stringify(p)).toBeNull();
  });

  it('can never be bound to a key the terminal needs', () => {
    for (const chord of ['N', 'Shift+N', 'Ctrl+R', 'Ctrl+Shift+N', 'Enter', 'Alt+Meta+N'])
      expect(() => parseChord(chord), chord).toThrow();
  });

  it('match the physical key where Alt changes the character, and "/" wherever the layout puts it', () => {
    expect(commandForKey(press('Alt+Shift+N', { key: 'ˆ' }))).toBe('run.new'); // macOS: Alt+Shift+N types a symbol
    expect(commandForKey(press('Alt+1', { key: '¡' }))).toBe('pane.focus.1');
    expect(
      commandForKey({ code: 'Digit7', key: '/', ctrlKey: true, shiftKey: true, altKey: false, metaKey: false }),
    ).toBe('help.open'); // German
  });

  it('are taken from the terminal even when their command cannot run now; a held key repeats pane moves only', () => {
    const page = new EventTarget();
    const stop = listenForCommandKeys(page as unknown as Window);
    const keydown = (chord: string, repeat = false) => {
      const e = Object.assign(new Event('keydown', { cancelable: true }), press(chord), { repeat });
      page.dispatchEvent(e);
      return e.defaultPrevented;
    };
    expect(keydown('Alt+Shift+X')).toBe(true); // Stop, with no run selected: nothing to stop, the key still consumed
    expect(keydown('Alt+Shift+N', true)).toBe(true);
    expect(useBaton.getState().dialog).toBeNull();
    expect(keydown('Alt+Shift+N')).toBe(true);
    expect(useBaton.getState().dialog).toEqual({ kind: 'new-run' });
    expect(keydown('Alt+Shift+Q')).toBe(false);
    stop();
    useBaton.setState({ dialog: null });
    expect(keydown('F1')).toBe(false);
    expect(useBaton.getState().dialog).toBeNull();
    expect(COMMANDS.filter((c) => command(c.id).repeats).map((c) => c.id)).toEqual(['pane.next', 'pane.previous']);
  });
});

describe('the help overlay', () => {
  it('lists every command that has keys, once, with the keys that run it', () => {
    const rows = helpRows();
    const withKeys = COMMANDS.filter((c) => c.keys.length > 0).map((c) => c.id);
    expect(rows.flatMap((r) => r.ids)).toEqual(withKeys);
    const row = (title: string) => rows.find((r) => r.title === title);
    expect(row('New run')?.keys).toEqual(['Alt+Shift+N']);
    expect(row('Focus pane N')?.keys).toEqual(['Alt+1…9']);
    expect(row('Keyboard shortcuts')?.keys).toEqual(['F1', 'Ctrl+/']);
    // Keys each pane or dialog handles itself are listed too.
    expect(row('Close dialog')?.keys).toEqual(['Escape']);
    expect(row('Paste in a pane')?.keys).toEqual(['Ctrl+Shift+V']);
  });
});

describe('a command, from any key, button or menu item', () => {
  it('does nothing while it cannot run: no run, nothing running, no such pane', () => {
    const ran: CommandId[] = [];
    useBaton.setState({
      snapshot: async () => void ran.push('run.snapshot'),
      stopRun: async () => void ran.push('run.stop'),
    });
    expect(runCommand('run.snapshot')).toBe(false);
    selectRun([agent('a1', 'exited')]);
    expect(commandEnabled('run.stop', useBaton.getState())).toBe(false);
    expect(runCommand('run.stop')).toBe(false);
    expect(runCommand('pane.focus.2')).toBe(false);
    expect(ran).toEqual([]);
    expect(runCommand('run.snapshot')).toBe(true);
    expect(ran).toEqual(['run.snapshot']);
  });

  it('shows its progress while it runs, holds back the toolbar commands meanwhile, and says why it failed', async () => {
    selectRun([agent('a1', 'running')]);
    let finish: () => void = () => undefined;
    useBaton.setState({ snapshot: () => new Promise<void>((resolve) => (finish = resolve)) });
    expect(runCommand('run.snapshot')).toBe(true);
    expect(useBaton.getState().pending).toBe('run.snapshot');
    expect(command('run.snapshot').progress).toBe('Snapshotting…');
    expect(commandEnabled('run.stop', useBaton.getState())).toBe(false);
    expect(commandEnabled('run.new', useBaton.getState())).toBe(true);
    finish();
    await new Promise((r) => setTimeout(r, 0));
    expect(useBaton.getState().pending).toBeNull();
    expect(commandEnabled('run.stop', useBaton.getState())).toBe(true);

    useBaton.setState({ stopRun: () => Promise.reject(new Error('the core refused: run_cmd is gone')) });
    expect(runCommand('run.stop')).toBe(true);
    await new Promise((r) => setTimeout(r, 0));
    expect(useBaton.getState().pending).toBeNull();
    expect(useBaton.getState().toasts.at(-1)).toMatchObject({
      kind: 'error',
      text: 'the core refused: run_cmd is gone',
    });
  });
});
