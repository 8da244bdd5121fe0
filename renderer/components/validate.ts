// The New run / Rename rules as the user sees them, from the shared schemas the core enforces too.
import type { z } from 'zod';
import { absolutePathSchema, labelSchema, runNameSchema } from '../../shared/words.js';

function firstIssue(schema: z.ZodType, value: string, from: string, to: string): string | null {
  const result = schema.safeParse(value);
  if (result.success) return null;
  const message = result.error.issues[0]?.message ?? 'is not valid';
  return message.startsWith(from) ? `${to}${message.slice(from.length)}` : message;
}

export const RUN_NAME_RULE =
  'Required, at most 100 characters, no control or invisible formatting characters, no edge spaces, not used by another run.';
export const CWD_RULE =
  'An absolute path on the Baton host, like /home/you/project: a directory of yours that no one else can write.';
export const LABEL_RULE = 'Optional; unique within this run.';

export function validateRunName(name: string, takenNames: readonly string[]): string | null {
  const rule = firstIssue(runNameSchema, name, 'run name', 'Run name');
  if (rule) return rule;
  if (takenNames.includes(name)) return `A run named “${name}” already exists`;
  return null;
}

export function validateCwd(cwd: string): string | null {
  if (cwd !== '' && !cwd.startsWith('/')) return 'Working directory must be an absolute path (start with /)';
  return firstIssue(absolutePathSchema, cwd, 'cwd', 'Working directory');
}

/** An empty label is fine: the core names the agent after its vendor. */
export function validateLabel(label: string, otherLabels: readonly string[]): string | null {
  if (label === '') return null;
  const rule = firstIssue(labelSchema, label, 'label', 'Label');
  if (rule) return rule;
  if (otherLabels.includes(label)) return `Another agent in this run is labelled “${label}”`;
  return null;
}

/** A unique run name: the directory's base name, else `run-<n>`. */
export function suggestRunName(cwd: string, takenNames: readonly string[]): string {
  const base = cwd.split('/').filter(Boolean).pop() ?? '';
  const usable = base && validateRunName(base, []) === null ? base.slice(0, 90) : '';
  if (usable) {
    if (!takenNames.includes(usable)) return usable;
    for (let n = 2; ; n++) if (!takenNames.includes(`${usable}-${n}`)) return `${usable}-${n}`;
  }
  for (let n = takenNames.length + 1; ; n++) if (!takenNames.includes(`run-${n}`)) return `run-${n}`;
}
