// The dashboard's commands as every surface names them: an id, a title and the keys (docs/architecture.md §12).
// The renderer's registry (renderer/commands/registry.ts) adds when each is enabled and what it does; the desktop
// menu (electron/app/menu.ts) builds its items and accelerators from this same list, and the help overlay is
// generated from it, so the menu, the overlay, the shortcuts and the buttons cannot drift apart.
// No imports: the preload bundle inlines it with shared/bridge-contract.ts.

export interface CommandSpec {
  readonly id: string;
  /** What the help overlay, the menu and a button's accessible name say. */
  readonly title: string;
  /** A shorter label where a toolbar has little room; the title elsewhere. */
  readonly short?: string;
  /**
   * Key chords in Electron's accelerator syntax (`Alt+Shift+N`, `F1`, `Ctrl+/`); the first is the one the menu
   * shows. Alt+Shift, Alt+digit and F1 only: plain keys always reach the terminal (§12), and Ctrl+Shift belongs to
   * the browser and the terminal's copy and paste.
   */
  readonly keys: readonly string[];
  /** It asks for more before it acts (a dialog with a form): the menu adds an ellipsis. */
  readonly asks?: boolean;
  /** One of a numbered series the help overlay shows as a single row under this title. */
  readonly series?: string;
}

export const COMMANDS = [
  { id: 'run.new', title: 'New run', keys: ['Alt+Shift+N'], asks: true },
  { id: 'run.snapshot', title: 'Snapshot', keys: ['Alt+Shift+S'] },
  { id: 'handle.copy', title: 'Copy handle', keys: ['Alt+Shift+H'] },
  { id: 'resume.open', title: 'Resume from handle', keys: ['Alt+Shift+R'], asks: true },
  { id: 'run.stop', title: 'Stop run', short: 'Stop', keys: ['Alt+Shift+X'] },
  { id: 'run.fork', title: 'Fork run', short: 'Fork', keys: [], asks: true },
  { id: 'run.export', title: 'Export run', short: 'Export', keys: [], asks: true },
  { id: 'bundle.import', title: 'Import bundle', short: 'Import', keys: [], asks: true },
  { id: 'layout.toggle', title: 'Grid / tabs', keys: ['Alt+Shift+L'] },
  { id: 'pane.focus.1', title: 'Focus pane 1', keys: ['Alt+1'], series: 'Focus pane N' },
  { id: 'pane.focus.2', title: 'Focus pane 2', keys: ['Alt+2'], series: 'Focus pane N' },
  { id: 'pane.focus.3', title: 'Focus pane 3', keys: ['Alt+3'], series: 'Focus pane N' },
  { id: 'pane.focus.4', title: 'Focus pane 4', keys: ['Alt+4'], series: 'Focus pane N' },
  { id: 'pane.focus.5', title: 'Focus pane 5', keys: ['Alt+5'], series: 'Focus pane N' },
  { id: 'pane.focus.6', title: 'Focus pane 6', keys: ['Alt+6'], series: 'Focus pane N' },
  { id: 'pane.focus.7', title: 'Focus pane 7', keys: ['Alt+7'], series: 'Focus pane N' },
  { id: 'pane.focus.8', title: 'Focus pane 8', keys: ['Alt+8'], series: 'Focus pane N' },
  { id: 'pane.focus.9', title: 'Focus pane 9', keys: ['Alt+9'], series: 'Focus pane N' },
  { id: 'pane.next', title: 'Next pane', keys: ['Alt+Shift+]'] },
  { id: 'pane.previous', title: 'Previous pane', keys: ['Alt+Shift+['] },
  { id: 'pane.search', title: 'Search in the focused pane', keys: ['Alt+Shift+F'] },
  { id: 'attention.next', title: 'Next agent that needs me', short: 'Next needing me', keys: ['Alt+Shift+A'] },
  { id: 'sessions.open', title: 'Sessions on this machine', keys: [] },
  { id: 'search.open', title: 'Search every conversation', short: 'Search', keys: ['Alt+Shift+G'] },
  { id: 'worktrees.cleanup', title: 'Leftover worktrees', keys: [], asks: true },
  { id: 'hosts.open', title: 'Hosts', keys: [] },
  { id: 'help.open', title: 'Keyboard shortcuts', keys: ['F1', 'Ctrl+/'] },
] as const satisfies readonly CommandSpec[];

export type CommandId = (typeof COMMANDS)[number]['id'];

export const COMMAND_IDS: readonly CommandId[] = COMMANDS.map((c) => c.id);

/**
 * Keys the help overlay lists that are not commands: each is handled where it acts (a pane's xterm copies and
 * pastes, each dialog closes itself), since what they act on is that pane or that dialog.
 */
export const KEYS_HANDLED_IN_PLACE: readonly { keys: readonly string[]; title: string }[] = [
  { keys: ['Ctrl+Shift+C'], title: 'Copy the selection in a pane' },
  { keys: ['Ctrl+Shift+V'], title: 'Paste in a pane' },
  { keys: ['Escape'], title: 'Close dialog' },
];

export function isCommandId(value: unknown): value is CommandId {
  return typeof value === 'string' && (COMMAND_IDS as readonly string[]).includes(value);
}

export function commandSpec(id: CommandId): CommandSpec {
  const spec: CommandSpec | undefined = COMMANDS.find((c) => c.id === id);
  if (!spec) throw new Error(`unknown command ${id}`);
  return spec;
}

/** The menu's label: the title, with an ellipsis when the command asks for more before it acts. */
export function menuLabel(spec: CommandSpec): string {
  return spec.asks ? `${spec.title}…` : spec.title;
}
