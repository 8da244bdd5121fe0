// A test's own machine (temp-machine.ts) with a real `baton serve` on it, a client of that core, and Chromium for its
// dashboard: what the end-to-end journeys in Chromium share. `close` takes down whatever was started, in order.
import { rmSync } from 'node:fs';
import type { RpcClient } from '../../shared/client.js';
import { launchBrowser, type BrowserSession, type LaunchOptions } from '../e2e/browser.js';
import { startServer, type ServerProcess } from './server.js';
import { tempMachine, type TempMachine } from './temp-machine.js';

export interface WebMachine {
  readonly machine: TempMachine;
  readonly server: ServerProcess;
  readonly client: RpcClient;
  /**
   * Chromium with one page, `timeoutMs` its default timeout. A test that starts agents before the page opens calls it
   * once they are there.
   */
  openBrowser(options?: LaunchOptions & { timeoutMs?: number }): Promise<BrowserSession>;
  /** Closes the browser and the client, stops the core (SIGTERM: it stops every agent) and removes the machine. */
  close(): Promise<void>;
}

/** A temp machine (`prefix`, `extraEnv`: tempMachine's) and a `baton serve` on it, connected. */
export async function startWebMachine(
  prefix: string,
  extraEnv: Parameters<typeof tempMachine>[1] = {},
): Promise<WebMachine> {
  const machine = tempMachine(prefix, extraEnv);
  let server: ServerProcess;
  let client: RpcClient;
  try {
    server = await startServer(machine.data, machine.env);
    client = await server.connect();
  } catch (err) {
    rmSync(machine.root, { recursive: true, force: true });
    throw err;
  }
  let session: BrowserSession | null = null;
  return {
    machine,
    server,
    client,
    async openBrowser({ timeoutMs = 30_000, ...options } = {}) {
      session = await launchBrowser(options);
      session.page.setDefaultTimeout(timeoutMs);
      return session;
    },
    async close() {
      await session?.close();
      client.close();
      if (server.child.exitCode === null) {
        server.child.kill('SIGTERM');
        await server.exited;
      }
      rmSync(machine.root, { recursive: true, force: true });
    },
  };
}
