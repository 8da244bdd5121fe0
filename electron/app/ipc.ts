// The window → main messages: each checked for its sender (our index page, top frame, one of our windows) and its
// schema before anything happens. A refused message is logged by channel only, never by content.
import type { IpcMain, IpcMainEvent, IpcMainInvokeEvent, WebContents } from 'electron';
import { z } from 'zod';
import { BRIDGE_LIMITS, CHANNELS } from '../../shared/bridge-contract.js';
import { isTrustedSender } from './security.js';

export const ipcSchemas = {
  [CHANNELS.connect]: z.tuple([]),
  [CHANNELS.clipboardWrite]: z.tuple([
    z.string().max(BRIDGE_LIMITS.clipboardMaxChars),
    z
      .strictObject({
        clearAfterSeconds: z.number().int().min(1).max(BRIDGE_LIMITS.clipboardClearMaxSeconds).optional(),
      })
      .optional(),
  ]),
  [CHANNELS.pickDirectory]: z.tuple([z.string().max(BRIDGE_LIMITS.pathMaxChars).optional()]),
  [CHANNELS.appVersion]: z.tuple([]),
} as const;

export interface IpcHandlers {
  /** Hand this window a new port to the core. */
  connect(contents: WebContents): void;
  writeClipboard(text: string, clearAfterSeconds: number | undefined): void;
  pickDirectory(contents: WebContents, defaultPath: string | undefined): Promise<string | null>;
  appVersion(): string;
}

export interface IpcGuard {
  /** Our index page's file:// URL. */
  index: string;
  /** True when these web contents are one of our dashboard windows. */
  isOurWindow(contents: WebContents): boolean;
}

type Event = Pick<IpcMainEvent | IpcMainInvokeEvent, 'senderFrame' | 'sender'>;

/** Refusal reason, or null when the message may be handled. */
export function checkMessage(
  channel: keyof typeof ipcSchemas,
  event: Event,
  args: unknown[],
  guard: IpcGuard,
): string | null {
  if (!isTrustedSender(event, guard.index) || !guard.isOurWindow(event.sender)) return 'not from the Baton window';
  if (!ipcSchemas[channel].safeParse(args).success) return 'malformed';
  return null;
}

export function registerIpc(ipcMain: Pick<IpcMain, 'on' | 'handle'>, guard: IpcGuard, handlers: IpcHandlers): void {
  const refused = (channel: string, reason: string) => {
    process.stderr.write(`baton: refused ${channel}: ${reason}\n`);
    return new Error(`refused: ${reason}`);
  };

  ipcMain.on(CHANNELS.connect, (event, ...args: unknown[]) => {
    const refusal = checkMessage(CHANNELS.connect, event, args, guard);
    if (refusal) return void refused(CHANNELS.connect, refusal);
    handlers.connect(event.sender);
  });

  ipcMain.handle(CHANNELS.clipboardWrite, (event, ...args: unknown[]) => {
    const refusal = checkMessage(CHANNELS.clipboardWrite, event, args, guard);
    if (refusal) throw refused(CHANNELS.clipboardWrite, refusal);
    const [text, options] = ipcSchemas[CHANNELS.clipboardWrite].parse(args);
    handlers.writeClipboard(text, options?.clearAfterSeconds);
  });

  ipcMain.handle(CHANNELS.pickDirectory, async (event, ...args: unknown[]) => {
    const refusal = checkMessage(CHANNELS.pickDirectory, event, args, guard);
    if (refusal) throw refused(CHANNELS.pickDirectory, refusal);
    const [defaultPath] = ipcSchemas[CHANNELS.pickDirectory].parse(args);
    return handlers.pickDirectory(event.sender, defaultPath);
  });

  ipcMain.handle(CHANNELS.appVersion, (event, ...args: unknown[]) => {
    const refusal = checkMessage(CHANNELS.appVersion, event, args, guard);
    if (refusal) throw refused(CHANNELS.appVersion, refusal);
    return handlers.appVersion();
  });
}
