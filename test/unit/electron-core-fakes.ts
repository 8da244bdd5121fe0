// The relay and the core behind the fake Electron (electron-fake.ts), real in every case: `realRelay` runs the real
// relay (electron/core-relay-entry.ts) behind a fake utility process; `realSpawn` starts the real background core
// (`baton serve --socket`) as a real detached process; `inProcessCore` runs the same core (startSocketCore) in this
// process, for tests that only need one to answer.
import { spawn as nodeSpawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import type { CoreChild, SpawnCore } from '../../electron/app/background-core.js';
import { serveRelay } from '../../electron/core-relay-entry.js';
import { startSocketCore, type SocketCore } from '../../electron/serve-socket.js';
import type { FakeUtilityProcess } from './electron-fake.js';

/** Runs the real relay behind `child`, as core-relay-entry.ts does inside Electron's utility process. */
export function realRelay(child: FakeUtilityProcess): void {
  const parent = new EventEmitter();
  child.inbox = (message, ports) => parent.emit('message', { data: message, ports });
  serveRelay({ on: (event: string, listener: (...args: unknown[]) => void) => parent.on(event, listener) } as never);
}

/** A spawned core that neither answers nor exits (the default: most tests need no core). */
export class SilentChild extends EventEmitter implements CoreChild {
  readonly pid = 4343;
  unref(): void {}
}

/** Spawns for real: the background core runs as its own detached process, exactly as main starts it. */
export const realSpawn: SpawnCore = (command, args, options) => nodeSpawn(command, [...args], options);

/**
 * The real core (startSocketCore: its socket, server.json, `core.shutdown`) in this process instead of a new one; a
 * `core.shutdown` closes it and the fake child exits, as the real process would. Close what is left with `closeAll`.
 */
export function inProcessCore(env: Record<string, string>): { spawn: SpawnCore; closeAll(): Promise<void> } {
  const running: SocketCore[] = [];
  const spawn: SpawnCore = (_command, args) => {
    const child = new SilentChild();
    const dataDir = args[args.indexOf('--data-dir') + 1]!;
    startSocketCore({ dataDir, env, version: '0.0.0-test' }).then(
      (core) => {
        running.push(core);
        core.core.onShutdown(() => {
          core.closeTransport().then(
            () => child.emit('exit', 0, null),
            () => child.emit('exit', 1, null),
          );
        });
      },
      () => child.emit('exit', 1, null),
    );
    return child;
  };
  return {
    spawn,
    closeAll: async () => {
      for (const core of running.splice(0)) {
        await core.closeTransport().catch(() => undefined);
        await core.core.close().catch(() => undefined);
      }
    },
  };
}
