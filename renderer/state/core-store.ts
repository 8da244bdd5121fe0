// The core itself, as the window shows it (zustand): which core answers and how many agents it runs (the topbar
// indicator), whether it is older than this app (the protocol version handshake: `core.info` after every connect),
// and the runs it found interrupted (the recovery banner). Kept apart from store.ts, which holds the runs and the
// page's one client: it hands that client over here (`connected`), and only this store's actions use it.
import { create } from 'zustand';
import type { BatonClient } from '../../shared/client.js';
import {
  BatonError,
  PROTOCOL_VERSION,
  type CoreInfo,
  type CoreSettings,
  type RecoveryState,
} from '../../shared/contract.js';

export interface CoreState {
  /** Null until the core answered, and for a core that predates `core.info` (`legacy`). */
  info: CoreInfo | null;
  legacy: boolean;
  /** The desktop app's own version (null in web mode, where the page comes from the core itself). */
  appVersion: string | null;
  recovery: RecoveryState | null;
  settings: CoreSettings | null;
  /** This window asked the core to restart and waits for the new one. */
  restarting: boolean;
  /** A request of this store failed: what to tell the user. */
  error: string | null;
}

export interface CoreActions {
  connected(client: BatonClient | null): void;
  setAppVersion(version: string): void;
  refreshInfo(): Promise<void>;
  refreshRecovery(): Promise<void>;
  resumeInterrupted(): Promise<void>;
  dismissRecovery(): Promise<void>;
  /** Snapshot and stop every agent, end the core; the app starts the new one, which resumes them (desktop only). */
  restartCore(): Promise<void>;
  setSettings(change: Partial<CoreSettings>): Promise<void>;
}

export const useCore = create<CoreState & CoreActions>()((set, get) => {
  let infoTimer: ReturnType<typeof setTimeout> | null = null;
  let current: BatonClient | null = null;
  const fail = (err: unknown) => set({ error: err instanceof Error ? err.message : String(err) });

  return {
    info: null,
    legacy: false,
    appVersion: null,
    recovery: null,
    settings: null,
    restarting: false,
    error: null,

    connected(client) {
      current = client;
      set({ error: null });
      if (!client) return;
      client.on('recovery.changed', () => void get().refreshRecovery().catch(fail));
      // Agents start and end in bursts (a run of five): one core.info after the burst is enough.
      client.on('agent.status', () => {
        if (infoTimer) clearTimeout(infoTimer);
        infoTimer = setTimeout(() => void get().refreshInfo().catch(fail), 200);
      });
      void get()
        .refreshInfo()
        .then(() =>
          Promise.all([get().refreshRecovery(), client.call('settings.get', {}).then((settings) => set({ settings }))]),
        )
        .catch(fail);
    },

    setAppVersion: (appVersion) => set({ appVersion }),

    async refreshInfo() {
      const c = current;
      if (!c) return;
      try {
        const info = await c.call('core.info', {});
        // A different core answering after a restart is the one this window was waiting for.
        set((s) => ({ info, legacy: false, restarting: s.restarting && s.info?.pid === info.pid }));
      } catch (err) {
        if (err instanceof BatonError && err.code === 'invalid') set({ info: null, legacy: true });
        else throw err;
      }
    },

    async refreshRecovery() {
      const c = current;
      if (!c || get().legacy) return;
      set({ recovery: await c.call('recovery.get', {}) });
    },

    async resumeInterrupted() {
      const c = current;
      if (!c) return;
      set((s) => ({ error: null, recovery: s.recovery && { ...s.recovery, resuming: true } }));
      try {
        await c.call('recovery.resume', {});
      } finally {
        await get().refreshRecovery();
      }
    },

    async dismissRecovery() {
      await current?.call('recovery.dismiss', {});
      await get().refreshRecovery();
    },

    async restartCore() {
      const c = current;
      if (!c) return;
      set({ restarting: true, error: null });
      try {
        await c.call('core.shutdown', { resumeOnStart: true });
      } catch (err) {
        // The connection may drop before the reply arrives: the core was stopping anyway.
        if (!(err instanceof BatonError && err.code === 'failed')) {
          set({ restarting: false });
          throw err;
        }
      }
    },

    async setSettings(change) {
      const c = current;
      if (!c) return;
      set({ settings: await c.call('settings.set', change) });
    },
  };
});

/**
 * Why the core is older than this window, or null. Only a desktop app can be newer than its core (a web page comes
 * from the core it talks to), so without an app version only the protocol counts.
 */
export function olderCoreReason(state: Pick<CoreState, 'info' | 'legacy' | 'appVersion'>): string | null {
  if (state.legacy)
    return `The background core predates this app's protocol (it speaks 1; this app speaks ${PROTOCOL_VERSION}).`;
  const { info, appVersion } = state;
  if (!info) return null;
  if (info.protocolVersion < PROTOCOL_VERSION)
    return `The background core runs Baton ${info.version} (protocol ${info.protocolVersion}), older than this app (protocol ${PROTOCOL_VERSION}).`;
  if (appVersion && compareVersions(appVersion, info.version) > 0)
    return `The background core runs Baton ${info.version}, older than this app (${appVersion}).`;
  return null;
}

/** Dotted numeric versions compared part by part (1.10.0 > 1.9.3); a pre-release tail is ignored. */
export function compareVersions(a: string, b: string): number {
  const parts = (v: string) =>
    v
      .split(/[-+]/)[0]!
      .split('.')
      .map((p) => Number.parseInt(p, 10) || 0);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
