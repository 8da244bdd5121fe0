// The desktop bridge, declared once: the IPC channels between a window and Electron main, the menu's message, and the
// `window.baton` object the preload exposes. In shared/ because main, the preload bundle and the renderer all read it;
// it imports only ./commands.ts (no imports of its own), so the preload bundle inlines both whole.
import { isCommandId, type CommandId } from './commands.js';

export const CHANNELS = {
  /** renderer → main (send, no arguments): "hand this window a port to the core". */
  connect: 'baton:connect',
  /** main → renderer: a port to the core (`ports[0]`, message `{ state: 'ready' }`), or `{ state: 'lost' }`. */
  port: 'baton:port',
  /** renderer → main (invoke): put text on the clipboard, optionally clearing it again later. */
  clipboardWrite: 'baton:clipboard-write',
  /** renderer → main (invoke): the native directory picker; resolves to a path or null. */
  pickDirectory: 'baton:pick-directory',
  /** renderer → main (invoke): the app's version. */
  appVersion: 'baton:app-version',
  /** main → renderer: a menu item was chosen (a `MenuMessage`); the page runs that command through its registry. */
  menu: 'baton:menu',
  /** main → renderer: open the Resume dialog (a `ResumeHandoff`); the user still sees the preview first. */
  resume: 'baton:resume',
  /** main → renderer: the user clicked a notification about this agent (a `FocusAgentMessage`); the page goes to it. */
  focusAgent: 'baton:focus-agent',
} as const;

/** What a menu click sends: one of the dashboard's commands (shared/commands.ts), by id. Never a key press. */
export interface MenuMessage {
  command: CommandId;
}

/**
 * The menu message's schema, checked where it enters the page (the preload): exactly `{ command }` with a known
 * command id, or null. Every IPC message is checked for its schema (docs/architecture.md §10); by hand rather than
 * with zod, so the sandboxed preload bundle stays small.
 */
export function parseMenuMessage(value: unknown): MenuMessage | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const keys = Object.keys(value);
  if (keys.length !== 1 || keys[0] !== 'command') return null;
  const { command } = value as { command: unknown };
  return isCommandId(command) ? { command } : null;
}

/** A notification's click, naming the agent it was about: the page selects its run and focuses its pane. */
export interface FocusAgentMessage {
  runId: string;
  agentId: string;
}

/** The ids' shapes (as shared/words.ts RUN_ID and AGENT_ID; repeated here because that file imports zod). */
const RUN_ID_SHAPE = /^run_[0-9a-z]{16}$/;
const AGENT_ID_SHAPE = /^agt_[0-9a-z]{16}$/;

/** The focus message's schema, checked in the preload and again in the page: exactly `{ runId, agentId }`, or null. */
export function parseFocusAgentMessage(value: unknown): FocusAgentMessage | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const keys = Object.keys(value).sort();
  if (keys.length !== 2 || keys[0] !== 'agentId' || keys[1] !== 'runId') return null;
  const { runId, agentId } = value as { runId: unknown; agentId: unknown };
  if (typeof runId !== 'string' || typeof agentId !== 'string') return null;
  return RUN_ID_SHAPE.test(runId) && AGENT_ID_SHAPE.test(agentId) ? { runId, agentId } : null;
}

/** What main says on the port channel. */
export type PortMessage = { state: 'ready' } | { state: 'lost'; reason: string };

/** A `baton://resume` link or a handle file, on its way to the Resume dialog. Never resumed without the preview. */
export interface ResumeHandoff {
  /** The handle to put in the dialog's field, when it came from a place other users cannot read. */
  handle?: string;
  /** Something to tell the user (why a handle was not taken, why a file could not be read). */
  notice?: string;
}

/** Limits main enforces on what crosses the bridge. */
export const BRIDGE_LIMITS = {
  clipboardMaxChars: 256 * 1024,
  clipboardClearMaxSeconds: 3600,
  pathMaxChars: 4096,
  handoffMaxChars: 128 * 1024,
} as const;

/** Posted by the preload into the page (window.postMessage), since a MessagePort cannot cross the context bridge. */
export type PageMessage = { baton: 'core-port' } | { baton: 'core-lost'; reason: string };

/** `window.baton`: everything the page can ask of Electron, and nothing else. */
export interface BatonBridge {
  /** Ask main for a port to the core; it arrives as a `PageMessage` on the window, with the port attached. */
  requestPort(): void;
  writeClipboard(text: string, options?: { clearAfterSeconds?: number }): Promise<void>;
  pickDirectory(defaultPath?: string): Promise<string | null>;
  appVersion(): Promise<string>;
  /** A menu item was chosen: run its command. Returns a function that stops listening. */
  onMenuCommand(listener: (message: MenuMessage) => void): () => void;
  onResumeHandoff(listener: (handoff: ResumeHandoff) => void): () => void;
  /** A notification about an agent was clicked: go to that agent. Returns a function that stops listening. */
  onFocusAgent(listener: (message: FocusAgentMessage) => void): () => void;
}
