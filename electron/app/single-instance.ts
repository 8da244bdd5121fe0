// One Baton per user: a second launch focuses the first and hands over what it was opened with. Only two things
// are taken from a launch: a `baton://resume` link and a handle file. Both end in the Resume dialog, with its
// preview; nothing resumes by itself. A handle is never taken from the command line, where other users can read it.
import { readFile, stat } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import type { App } from 'electron';
import { BRIDGE_LIMITS, type ResumeHandoff } from '../../shared/bridge-contract.js';

/** Where a link came from: macOS hands links over as an event; elsewhere they arrive as arguments (readable by all). */
export type LinkSource = 'command-line' | 'open-url';

export const HANDLE_FILE = /\.(baton|handle)$/i;

export const NOT_FROM_COMMAND_LINE =
  'Baton does not take a handle from the command line, where other users of this machine can read it: paste the handle here instead.';

export type LaunchItem = { kind: 'link'; url: string } | { kind: 'file'; path: string } | { kind: 'handle-refused' };

/** What a launch's arguments ask for, in order. Switches, `.` and anything else are ignored. */
export function launchItems(args: readonly string[], cwd: string): LaunchItem[] {
  const items: LaunchItem[] = [];
  for (const arg of args) {
    if (/^baton:/i.test(arg)) items.push({ kind: 'link', url: arg });
    else if (/^\s*(baton1\.|\{)/.test(arg)) items.push({ kind: 'handle-refused' });
    else if (!arg.startsWith('-') && HANDLE_FILE.test(arg)) items.push({ kind: 'file', path: resolve(cwd, arg) });
  }
  return items;
}

/** A `baton://resume[?handle=…]` link as a hand-off; null for a link that is not a URL at all. */
export function handoffFromLink(url: string, source: LinkSource): ResumeHandoff | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const target = (parsed.host || parsed.pathname.replace(/^\/+/, '').split('/')[0] || '').toLowerCase();
  if (target !== 'resume') {
    const shown = target.replace(/[^a-z0-9-]/g, '').slice(0, 32);
    return { notice: `Baton opens baton://resume links only${shown ? `, not baton://${shown}` : ''}.` };
  }
  const handle = parsed.searchParams.get('handle');
  if (!handle) return {};
  if (source === 'command-line') return { notice: NOT_FROM_COMMAND_LINE };
  if (handle.length > BRIDGE_LIMITS.handoffMaxChars)
    return { notice: 'The link carries more than a handle can be; paste the handle instead.' };
  return { handle };
}

/** A handle file's content as a hand-off. Its path came from the command line; its content did not. */
export async function handoffFromFile(path: string): Promise<ResumeHandoff> {
  const name = basename(path);
  try {
    const info = await stat(path);
    if (!info.isFile()) return { notice: `${name} is not a file, so it holds no handle.` };
    if (info.size > BRIDGE_LIMITS.handoffMaxChars) return { notice: `${name} is too large to be a Baton handle.` };
    const text = (await readFile(path, 'utf8')).trim();
    if (!text) return { notice: `${name} is empty: it holds no handle.` };
    return { handle: text };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'unreadable';
    return { notice: `Could not read the handle file ${name} (${code}).` };
  }
}

/** The hand-offs a launch's arguments ask for (a second launch, or the first one's own). */
export async function handoffsFromArgs(args: readonly string[], cwd: string): Promise<ResumeHandoff[]> {
  const handoffs: ResumeHandoff[] = [];
  for (const item of launchItems(args, cwd)) {
    if (item.kind === 'handle-refused') handoffs.push({ notice: NOT_FROM_COMMAND_LINE });
    else if (item.kind === 'file') handoffs.push(await handoffFromFile(item.path));
    else {
      const handoff = handoffFromLink(item.url, 'command-line');
      if (handoff) handoffs.push(handoff);
    }
  }
  return handoffs;
}

/** Takes the single-instance lock; a later launch calls `onLaunch` here with its arguments and quits itself. */
export function claimSingleInstance(
  app: Pick<App, 'requestSingleInstanceLock' | 'on' | 'quit'>,
  onLaunch: (args: string[], cwd: string) => void,
): boolean {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return false;
  }
  app.on('second-instance', (_event, argv, workingDirectory) => onLaunch(argv.slice(1), workingDirectory));
  return true;
}
