// The renderer's transport in the desktop app: the same RpcClient as in web mode, over a MessagePort that main
// hands the page (through the preload) and that leads straight to the core host. Also the menu's commands and the
// Resume hand-offs (a baton://resume link, a handle file) and the notification clicks that main forwards.
import {
  parseFocusAgentMessage,
  parseMenuMessage,
  type BatonBridge,
  type FocusAgentMessage,
  type MenuMessage,
  type PageMessage,
  type ResumeHandoff,
} from '../../shared/bridge-contract.js';
import { RpcClient, type BatonClient, type Wire } from '../../shared/client.js';
import { goToAgent } from '../attention/go-to-agent.js';
import { runCommand } from '../commands/registry.js';
import { useBaton } from '../state/store.js';
import type { ConnectionStatus } from './connection.js';

declare global {
  interface Window {
    /** Present only in the desktop app (electron/preload.ts). */
    baton?: BatonBridge;
  }
}

type Listener = (status: ConnectionStatus, client: BatonClient | null) => void;

/** A Wire over a MessagePort; `lost` ends it with a reason (main said the core is gone). */
export interface PortWire extends Wire {
  lost(reason: string): void;
}

export function portWire(port: MessagePort): PortWire {
  const closeListeners: ((reason: string) => void)[] = [];
  let closed = false;
  const end = (reason: string) => {
    if (closed) return;
    closed = true;
    port.close();
    for (const l of closeListeners) l(reason);
  };
  // Chromium tells a port that its other end is gone; main's word ('core-lost') covers where it does not.
  port.addEventListener('close', () => end('the Baton core closed the connection'));
  return {
    send: (data) => {
      if (closed) return;
      if (typeof data === 'string') return port.postMessage(data);
      // A frame's buffer is transferred, not copied; frames.ts builds each frame in a buffer of its own.
      const buffer =
        data.byteOffset === 0 && data.byteLength === data.buffer.byteLength ? data.buffer : data.slice().buffer;
      port.postMessage(buffer, [buffer]);
    },
    onMessage: (listener) => {
      port.addEventListener('message', (e: MessageEvent) => {
        if (typeof e.data === 'string') listener(e.data);
        else if (e.data instanceof ArrayBuffer) listener(new Uint8Array(e.data));
      });
      port.start();
    },
    onClose: (listener) => void closeListeners.push(listener),
    close: () => end('closed by the client'),
    lost: end,
  };
}

/** The desktop counterpart of `Connection`: same status and client, a new client for each port main hands over. */
export class DesktopConnection {
  private current: BatonClient | null = null;
  private wire: PortWire | null = null;
  private status: ConnectionStatus = 'connecting';
  private readonly listeners = new Set<Listener>();
  private retry: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly bridge: BatonBridge,
    private readonly page: Window = window,
  ) {}

  get client(): BatonClient | null {
    return this.current;
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    listener(this.status, this.current);
    return () => this.listeners.delete(listener);
  }

  start(): void {
    this.page.addEventListener('message', (event: MessageEvent) => {
      // Only the preload posts to this window; a message from any other window is not ours.
      if (event.source !== this.page) return;
      const data = event.data as Partial<PageMessage> | null;
      if (data?.baton === 'core-port' && event.ports[0]) this.adopt(event.ports[0]);
      else if (data?.baton === 'core-lost')
        this.lost(String((data as { reason?: unknown }).reason ?? 'the Baton core stopped'));
    });
    this.bridge.requestPort();
  }

  private adopt(port: MessagePort): void {
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    const previous = this.wire;
    this.current = null;
    previous?.close();
    const wire = portWire(port);
    const client = new RpcClient(wire);
    this.wire = wire;
    this.current = client;
    client.onClose(() => {
      if (this.current !== client) return;
      this.current = null;
      this.wire = null;
      this.set('reconnecting');
      // Main hands a new port after restarting the core; ask again in case this port just closed by itself.
      this.retry = setTimeout(() => this.bridge.requestPort(), 2000);
    });
    this.set('connected');
  }

  private lost(reason: string): void {
    useBaton.getState().toast('error', reason);
    this.wire?.lost(reason);
    if (this.retry) clearTimeout(this.retry);
    this.retry = null; // Main sends the next port itself once the core runs again.
  }

  private set(status: ConnectionStatus): void {
    this.status = status;
    for (const l of this.listeners) l(status, this.current);
  }
}

/**
 * A menu item was chosen: its command runs through the registry, exactly as its key or button would run it
 * (docs/architecture.md §12). The preload checked the message's schema; it is checked again here, where it is used.
 */
export function runMenuCommand(message: MenuMessage): void {
  const checked = parseMenuMessage(message);
  if (checked) runCommand(checked.command);
}

/**
 * A notification about an agent was clicked in the desktop app: the page goes to exactly that agent (its run
 * selected, its tab shown, its pane focused). Checked again here, where the ids are used.
 */
export async function focusNotifiedAgent(message: FocusAgentMessage): Promise<void> {
  const checked = parseFocusAgentMessage(message);
  if (checked) await goToAgent(checked.runId, checked.agentId);
}

/** A link or handle file opens the Resume dialog, with the handle in its field when there is one; never more. */
export function openResume(handoff: ResumeHandoff): void {
  const { dialog, openDialog, toast } = useBaton.getState();
  if (handoff.notice) toast('warning', handoff.notice);
  // A half-filled New run or Rename is never thrown away (the same rule as pasting a handle on the page).
  if (dialog && dialog.kind !== 'resume') {
    toast(
      'warning',
      'Baton was asked to resume from a handle: close the open dialog, then open the link or file again.',
    );
    return;
  }
  openDialog(handoff.handle ? { kind: 'resume', handle: handoff.handle } : { kind: 'resume' });
}

/** The desktop app's connection, with the menu and the Resume hand-offs wired to the dashboard. */
export function desktopConnection(bridge: BatonBridge, page: Window = window): DesktopConnection {
  bridge.onMenuCommand(runMenuCommand);
  bridge.onResumeHandoff(openResume);
  bridge.onFocusAgent((message) => void focusNotifiedAgent(message));
  return new DesktopConnection(bridge, page);
}
