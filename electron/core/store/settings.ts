// settings.json in the data directory: the few choices that outlive a window and a core (what quitting the desktop
// app does with running agents, whether interrupted runs resume by themselves). The core reads and writes it; the
// desktop app goes through the core (`settings.get` / `settings.set`), so there is one writer. A file that is not in
// the shape Baton writes is ignored with a message, and the defaults apply.
import { join } from 'node:path';
import { z } from 'zod';
import type { CoreSettings } from '../../../shared/contract.js';
import { writeFileAtomic } from './atomic-file.js';
import { readJsonFile } from './safe-read.js';

export const SETTINGS_FILE = 'settings.json';
const MAX_BYTES = 64 * 1024;

export const DEFAULT_SETTINGS: CoreSettings = { quitAction: 'ask', resumeInterruptedOnStart: false };

// Every key optional: a file written by an older Baton (fewer keys) still counts; an unknown key does not.
const settingsFileSchema = z.strictObject({
  v: z.literal(1),
  quitAction: z.enum(['ask', 'keep', 'stop']).optional(),
  resumeInterruptedOnStart: z.boolean().optional(),
});

export async function readSettings(dataDir: string): Promise<CoreSettings> {
  const path = join(dataDir, SETTINGS_FILE);
  const read = await readJsonFile(path, MAX_BYTES, settingsFileSchema);
  if (!read.ok) {
    if (!read.missing) process.stderr.write(`baton: ignoring ${path}: it ${read.reason}; the defaults apply\n`);
    return { ...DEFAULT_SETTINGS };
  }
  const { v: _version, ...rest } = read.value;
  return { ...DEFAULT_SETTINGS, ...rest };
}

/** Merges `change` into the file (mode 0600, replaced atomically) and returns the settings now in force. */
export async function updateSettings(dataDir: string, change: Partial<CoreSettings>): Promise<CoreSettings> {
  const next = { ...(await readSettings(dataDir)), ...change };
  await writeFileAtomic(join(dataDir, SETTINGS_FILE), `${JSON.stringify({ v: 1, ...next }, null, 2)}\n`, 0o600);
  return next;
}
