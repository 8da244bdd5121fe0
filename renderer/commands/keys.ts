// The dashboard's keys (docs/architecture.md §12): one window listener that turns a chord of the shared command
// list into its command. Bound in the capture phase so the keys work while a terminal has focus; only Alt chords,
// function keys and Ctrl with a symbol are allowed, so plain keys and Ctrl+letter always reach the terminal. Not
// Ctrl+Shift: browsers keep some of those (Ctrl+Shift+N opens a private window) and terminals use Ctrl+Shift+C / V
// to copy and paste. Escape is handled by each dialog, not here.
import { COMMANDS, type CommandId } from '../../shared/commands.js';
import { command, runCommand } from './registry.js';

/** The parts of a key event a chord is matched on. */
export type KeyPress = Pick<KeyboardEvent, 'code' | 'key' | 'altKey' | 'shiftKey' | 'ctrlKey' | 'metaKey'>;

interface Chord {
  alt: boolean;
  shift: boolean;
  ctrl: boolean;
  /** The physical key (`KeyboardEvent.code`). */
  code: string;
  /** The character or key name that matches as well, where the physical key differs between layouts. */
  key: string | null;
  /** Whether Shift may be down or not: a symbol some layouts type with Shift (Ctrl+/ is Ctrl+Shift+7 in German). */
  anyShift: boolean;
}

// Letters, digits and brackets match by physical key, since Alt and Shift change the character they type (on
// macOS Alt+Shift+N types a symbol); F-keys and '/' also match by the key the event names.
const BRACKETS: Readonly<Record<string, string>> = { ']': 'BracketRight', '[': 'BracketLeft' };
const SYMBOLS: Readonly<Record<string, string>> = { '/': 'Slash' };

/** A chord in the shared list's syntax (`Alt+Shift+N`, `Alt+1`, `F1`, `Ctrl+/`); throws for one the page cannot take. */
export function parseChord(text: string): Chord {
  const parts = text.split('+');
  const name = parts.pop() ?? '';
  const mods = new Set(parts);
  for (const m of mods)
    if (m !== 'Alt' && m !== 'Shift' && m !== 'Ctrl') throw new Error(`key ${text}: unknown modifier ${m}`);
  const base = { alt: mods.has('Alt'), shift: mods.has('Shift'), ctrl: mods.has('Ctrl'), key: null, anyShift: false };
  const fKey = /^F([1-9]|1[0-2])$/.test(name);
  if (!fKey && !base.alt && !(base.ctrl && name in SYMBOLS))
    throw new Error(`key ${text}: it would take a key from the terminal`);
  if (base.ctrl && base.shift)
    throw new Error(`key ${text}: Ctrl+Shift belongs to the browser and the terminal's copy and paste`);
  if (/^[A-Z]$/.test(name)) return { ...base, code: `Key${name}` };
  if (/^[0-9]$/.test(name)) return { ...base, code: `Digit${name}` };
  if (fKey) return { ...base, code: name, key: name };
  const bracket = BRACKETS[name];
  if (bracket) return { ...base, code: bracket };
  const symbol = SYMBOLS[name];
  if (symbol) return { ...base, code: symbol, key: name, anyShift: !base.shift };
  throw new Error(`key ${text}: no such key in the dashboard's chords`);
}

function matches(chord: Chord, e: KeyPress): boolean {
  if (e.metaKey || e.altKey !== chord.alt || e.ctrlKey !== chord.ctrl) return false;
  if (!chord.anyShift && e.shiftKey !== chord.shift) return false;
  return e.code === chord.code || (chord.key !== null && e.key === chord.key);
}

/** Every chord of every command, parsed once when the page loads: a bad chord in the list fails at once. */
const BINDINGS: readonly { chord: Chord; id: CommandId }[] = COMMANDS.flatMap((c) =>
  c.keys.map((k) => ({ chord: parseChord(k), id: c.id })),
);

/** The command a key press stands for, or null: the press then goes on to the page or the terminal. */
export function commandForKey(e: KeyPress): CommandId | null {
  return BINDINGS.find((b) => matches(b.chord, e))?.id ?? null;
}

/** The one keydown listener: a command's chord is taken from the terminal and runs the command. Returns its removal. */
export function listenForCommandKeys(
  target: Pick<Window, 'addEventListener' | 'removeEventListener'> = window,
): () => void {
  const onKeyDown = (e: KeyboardEvent) => {
    const id = commandForKey(e);
    if (!id) return;
    e.preventDefault();
    e.stopPropagation();
    // Holding a key repeats pane moves only; a held Alt+Shift+N opens one dialog.
    if (e.repeat && !command(id).repeats) return;
    runCommand(id);
  };
  target.addEventListener('keydown', onKeyDown, { capture: true });
  return () => target.removeEventListener('keydown', onKeyDown, { capture: true });
}
