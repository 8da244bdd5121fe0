// The dashboard's one command registry (docs/architecture.md §12): the shared list's ids, titles and keys
// (shared/commands.ts) with, for each, when it is enabled and what it does. The key bindings (keys.ts), the help
// overlay (help.ts), the buttons (components/CommandButton.tsx) and the desktop menu (a command id over the bridge,
// api/electron-bridge.ts) all run commands through `runCommand`, so a command behaves the same from everywhere.
import { COMMANDS, type CommandId, type CommandSpec } from '../../shared/commands.js';
import { selectedRun, useBaton, type Store } from '../state/store.js';
import { focusAgent, focusedAgent, moveFocus } from './focus.js';
import { goToNextNeeding, anyoneNeeding } from '../attention/next.js';

interface Behaviour {
  /** Whether the command can run now, from the store's state alone; a button shows it enabled or not. */
  when(s: Store): boolean;
  /** Carries it out with the store's state at that moment; a rejection is shown as an error toast. */
  run(s: Store): void | Promise<void>;
  /** What its button says while it runs; the command is the store's `pending` one meanwhile. */
  progress?: string;
  /** Holding its key repeats it (moving between panes); any other command runs once per press. */
  repeats?: boolean;
}

export interface Command extends CommandSpec, Behaviour {
  readonly id: CommandId;
}

type PaneFocusId = Extract<CommandId, `pane.focus.${string}`>;
const isPaneFocus = (id: CommandId): id is PaneFocusId => id.startsWith('pane.focus.');

const always = () => true;
const hasRun = (s: Store) => s.selectedRunId !== null;
/** One progress-showing command at a time, as the toolbar always had it (a snapshot while stopping, say). */
const idle = (s: Store) => s.pending === null;
const liveAgents = (s: Store) =>
  selectedRun(s)?.agents.filter((a) => a.terminalId !== null && a.status === 'running').length ?? 0;
/** Runs `fn` on the selected run, if there is one. */
const onRun = (fn: (runId: string, s: Store) => Promise<void>) => (s: Store) =>
  s.selectedRunId ? fn(s.selectedRunId, s) : undefined;

const FIXED: Record<Exclude<CommandId, PaneFocusId>, Behaviour> = {
  'run.new': { when: always, run: (s) => s.openDialog({ kind: 'new-run' }) },
  'run.snapshot': {
    when: (s) => hasRun(s) && idle(s),
    run: onRun((id, s) => s.snapshot(id)),
    progress: 'Snapshotting…',
  },
  'handle.copy': { when: hasRun, run: onRun((id, s) => s.copyHandle(id)) },
  'resume.open': { when: always, run: (s) => s.openDialog({ kind: 'resume' }) },
  'run.stop': {
    when: (s) => idle(s) && liveAgents(s) > 0,
    run: onRun((id, s) => s.stopRun(id)),
    progress: 'Stopping…',
  },
  'layout.toggle': {
    when: (s) => selectedRun(s) !== undefined,
    run: (s) => {
      const run = selectedRun(s);
      if (run) s.setLayout(run.id, (s.layouts[run.id] ?? 'grid') === 'grid' ? 'tabs' : 'grid');
    },
  },
  'pane.next': { when: (s) => (selectedRun(s)?.agents.length ?? 0) > 0, run: (s) => moveFocus(s, 1), repeats: true },
  'pane.previous': {
    when: (s) => (selectedRun(s)?.agents.length ?? 0) > 0,
    run: (s) => moveFocus(s, -1),
    repeats: true,
  },
  'pane.search': {
    when: (s) => selectedRun(s) !== undefined,
    run: (s) => s.setSearchAgent(focusedAgent() ?? selectedRun(s)?.agents[0]?.id ?? null),
  },
  'run.fork': { when: hasRun, run: onRun(async (runId, s) => s.openDialog({ kind: 'fork', runId })) },
  'run.export': { when: hasRun, run: onRun(async (runId, s) => s.openDialog({ kind: 'export', runId })) },
  'bundle.import': { when: always, run: (s) => s.openDialog({ kind: 'import' }) },
  'attention.next': { when: anyoneNeeding, run: goToNextNeeding },
  'sessions.open': { when: always, run: (s) => s.openDialog({ kind: 'sessions' }) },
  'search.open': { when: always, run: (s) => s.openDialog({ kind: 'search' }) },
  'worktrees.cleanup': { when: always, run: (s) => s.openDialog({ kind: 'worktrees' }) },
  'hosts.open': { when: always, run: (s) => s.openDialog({ kind: 'hosts' }) },
  'help.open': { when: always, run: (s) => s.openDialog({ kind: 'help' }) },
};

/** Alt+N: the selected run's Nth pane, when it has one. */
function focusPaneN(id: PaneFocusId): Behaviour {
  const index = Number(id.slice('pane.focus.'.length)) - 1;
  return {
    when: (s) => selectedRun(s)?.agents[index] !== undefined,
    run: (s) => {
      const agent = selectedRun(s)?.agents[index];
      if (agent) focusAgent(s, agent.id);
    },
  };
}

const REGISTRY: ReadonlyMap<CommandId, Command> = new Map(
  COMMANDS.map((spec): [CommandId, Command] => [
    spec.id,
    { ...spec, ...(isPaneFocus(spec.id) ? focusPaneN(spec.id) : FIXED[spec.id]) },
  ]),
);

export function command(id: CommandId): Command {
  const found = REGISTRY.get(id);
  if (!found) throw new Error(`unknown command ${id}`);
  return found;
}

export function commandEnabled(id: CommandId, s: Store): boolean {
  return command(id).when(s);
}

/**
 * Runs the command if it is enabled now; false when it was not. Failures become an error toast, and a command with
 * a progress text is the store's `pending` one until it settles, whichever surface started it.
 */
export function runCommand(id: CommandId): boolean {
  const c = command(id);
  const s = useBaton.getState();
  if (!c.when(s)) return false;
  const failed = (err: unknown) => useBaton.getState().toast('error', err instanceof Error ? err.message : String(err));
  let result: void | Promise<void>;
  try {
    result = c.run(s);
  } catch (err) {
    failed(err);
    return true;
  }
  if (result) {
    if (c.progress) s.setPending(id);
    void result.catch(failed).finally(() => {
      if (useBaton.getState().pending === id) useBaton.getState().setPending(null);
    });
  }
  return true;
}
