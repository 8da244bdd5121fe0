// Checks on what a user or a handle asks for, done before anything is spawned or written.
import { realpath, stat } from 'node:fs/promises';
import { LIMITS } from '../../../shared/words.js';
import { invalid } from './errors.js';

/** The directory an agent will run in, as its real path; refused when it is not an existing directory. */
export async function checkedDirectory(cwd: string, field: string): Promise<string> {
  try {
    const info = await stat(cwd);
    if (!info.isDirectory()) throw invalid('is not a directory', field);
    return await realpath(cwd);
  } catch (err) {
    if (err instanceof Error && err.name === 'BatonError') throw err;
    // The path itself is not echoed: it may come from a handle, which is a secret.
    throw invalid('directory does not exist', field);
  }
}

/** A label unique within its run: an explicit clash is an error, a derived one gets a number. */
export function uniqueLabel(wanted: string, taken: readonly string[], field: string, explicit: boolean): string {
  if (!taken.includes(wanted)) return wanted;
  if (explicit) throw invalid('label is already used by another agent of this run', field);
  for (let n = 2; ; n++) {
    const candidate = `${wanted.slice(0, LIMITS.labelMaxChars - String(n).length - 1)}-${n}`;
    if (!taken.includes(candidate)) return candidate;
  }
}

/** A run name not yet taken: `demo`, `demo (2)`, … */
export function uniqueRunName(wanted: string, isTaken: (name: string) => boolean): string {
  if (!isTaken(wanted)) return wanted;
  for (let n = 2; ; n++) {
    const suffix = ` (${n})`;
    const candidate = `${wanted.slice(0, LIMITS.nameMaxChars - suffix.length)}${suffix}`;
    if (!isTaken(candidate)) return candidate;
  }
}
