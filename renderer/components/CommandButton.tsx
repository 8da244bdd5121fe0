// A button for one of the dashboard's commands: its label, enabled state, progress text and action all come from the
// command registry (docs/architecture.md §12), the same as the command's key and menu item.
import type { ReactNode } from 'react';
import type { CommandId } from '../../shared/commands.js';
import { command, commandEnabled, runCommand } from '../commands/registry.js';
import { useBaton } from '../state/store.js';

export interface CommandButtonProps {
  command: CommandId;
  className?: string;
  /** The toolbar's shorter label (`short` in the shared list) instead of the title. */
  short?: boolean;
  /** A symbol shown instead of the label (the top bar's "?"); the title stays its accessible name. */
  symbol?: ReactNode;
}

export function CommandButton({ command: id, className, short = false, symbol }: CommandButtonProps) {
  const c = command(id);
  const enabled = useBaton((s) => commandEnabled(id, s));
  const running = useBaton((s) => s.pending === id);
  const label = running && c.progress ? c.progress : short ? (c.short ?? c.title) : c.title;
  return (
    <button
      type="button"
      className={className}
      disabled={!enabled}
      aria-label={symbol === undefined ? undefined : c.title}
      onClick={() => runCommand(id)}
    >
      {symbol ?? label}
    </button>
  );
}
