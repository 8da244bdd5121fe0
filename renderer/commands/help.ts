// The help overlay's table, generated from the shared command list (docs/architecture.md §12): every command that
// has keys, in the list's order, so the overlay lists exactly what the key listener binds and the menu shows.
import { COMMANDS, KEYS_HANDLED_IN_PLACE, type CommandId, type CommandSpec } from '../../shared/commands.js';

export interface HelpRow {
  /** The commands the row stands for (several for a numbered series); none for keys handled in place. */
  ids: CommandId[];
  /** Each shown as one key chord, "or" between them. */
  keys: string[];
  title: string;
}

/** `Alt+1` … `Alt+9` as `Alt+1…9`: the first chord and the last one's key. */
const seriesKeys = (first: string, last: string) => `${first}…${last.split('+').pop() ?? last}`;

export function helpRows(): HelpRow[] {
  const rows: HelpRow[] = [];
  let series: { name: string; row: HelpRow; first: string } | null = null;
  for (const c of COMMANDS) {
    const spec: CommandSpec = c;
    const [first, ...more] = spec.keys;
    if (first === undefined) continue;
    if (spec.series && series?.name === spec.series) {
      series.row.ids.push(c.id);
      series.row.keys = [seriesKeys(series.first, first)];
      continue;
    }
    const row: HelpRow = { ids: [c.id], keys: [first, ...more], title: spec.series ?? c.title };
    series = spec.series ? { name: spec.series, row, first } : null;
    rows.push(row);
  }
  for (const k of KEYS_HANDLED_IN_PLACE) rows.push({ ids: [], keys: [...k.keys], title: k.title });
  return rows;
}
