// The preload: the only bridge between the page and Electron. It exposes `window.baton` (shared/bridge-contract.ts)
// and nothing else: no ipcRenderer, no Node. Bundled to CommonJS (dist/preload/preload.cjs), as a sandboxed preload
// cannot load modules; main checks every message again for its sender and schema.
import { contextBridge, ipcRenderer } from 'electron';
import {
  BRIDGE_LIMITS,
  CHANNELS,
  parseFocusAgentMessage,
  parseMenuMessage,
  type BatonBridge,
  type FocusAgentMessage,
  type MenuMessage,
  type PageMessage,
  type ResumeHandoff,
} from '../shared/bridge-contract.js';

const isText = (value: unknown, max: number): value is string => typeof value === 'string' && value.length <= max;

function asHandoff(value: unknown): ResumeHandoff | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const { handle, notice, ...rest } = value as Record<string, unknown>;
  if (Object.keys(rest).length > 0) return null;
  if (handle !== undefined && !isText(handle, BRIDGE_LIMITS.handoffMaxChars)) return null;
  if (notice !== undefined && !isText(notice, 2000)) return null;
  return { ...(handle !== undefined ? { handle } : {}), ...(notice !== undefined ? { notice } : {}) };
}

/** A MessagePort cannot cross the context bridge: it goes to the page by window.postMessage, to this window only. */
function toPage(message: PageMessage, ports: MessagePort[] = []): void {
  window.postMessage(message, '*', ports);
}

ipcRenderer.on(CHANNELS.port, (event, message: unknown) => {
  const m = (typeof message === 'object' && message !== null ? message : {}) as { state?: unknown; reason?: unknown };
  if (m.state === 'ready' && event.ports.length === 1) toPage({ baton: 'core-port' }, event.ports);
  else if (m.state === 'lost' && isText(m.reason, 2000)) toPage({ baton: 'core-lost', reason: m.reason });
});

const menuListeners = new Set<(message: MenuMessage) => void>();
ipcRenderer.on(CHANNELS.menu, (_event, value: unknown) => {
  const message = parseMenuMessage(value);
  if (message) for (const listener of menuListeners) listener(message);
});

const resumeListeners = new Set<(handoff: ResumeHandoff) => void>();
ipcRenderer.on(CHANNELS.resume, (_event, value: unknown) => {
  const handoff = asHandoff(value);
  if (handoff) for (const listener of resumeListeners) listener(handoff);
});

const focusListeners = new Set<(message: FocusAgentMessage) => void>();
ipcRenderer.on(CHANNELS.focusAgent, (_event, value: unknown) => {
  const message = parseFocusAgentMessage(value);
  if (message) for (const listener of focusListeners) listener(message);
});

const bridge: BatonBridge = {
  requestPort: () => ipcRenderer.send(CHANNELS.connect),
  writeClipboard: async (text, options) => {
    await ipcRenderer.invoke(
      CHANNELS.clipboardWrite,
      text,
      ...(options ? [{ ...(options.clearAfterSeconds ? { clearAfterSeconds: options.clearAfterSeconds } : {}) }] : []),
    );
  },
  pickDirectory: async (defaultPath) =>
    (await ipcRenderer.invoke(CHANNELS.pickDirectory, ...(defaultPath !== undefined ? [defaultPath] : []))) as
      string | null,
  appVersion: async () => String(await ipcRenderer.invoke(CHANNELS.appVersion)),
  onMenuCommand: (listener) => {
    menuListeners.add(listener);
    return () => void menuListeners.delete(listener);
  },
  onResumeHandoff: (listener) => {
    resumeListeners.add(listener);
    return () => void resumeListeners.delete(listener);
  },
  onFocusAgent: (listener) => {
    focusListeners.add(listener);
    return () => void focusListeners.delete(listener);
  },
};

contextBridge.exposeInMainWorld('baton', bridge);
