// A test's own machine (temp-machine.ts) with a real `baton serve` on it and a client of that core. `close` takes
// down the client and the core (SIGTERM: it stops every agent) and removes the machine.
import { rmSync } from 'node:fs';
import type { RpcClient } from '../../shared/client.js';
import { startServer, type ServerProcess } from './server.js';
import { tempMachine, type TempMachine } from './temp-machine.js';

export interface ServedMachine {
  readonly machine: TempMachine;
  readonly server: ServerProcess;
  readonly client: RpcClient;
  close(): Promise<void>;
}

/** A temp machine (`prefix`, `extraEnv`: tempMachine's) and a `baton serve` on it, connected. */
export async function startServedMachine(
  prefix: string,
  extraEnv: Parameters<typeof tempMachine>[1] = {},
): Promise<ServedMachine> {
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
  return {
    machine,
    server,
    client,
    async close() {
      client.close();
      if (server.child.exitCode === null) {
        server.child.kill('SIGTERM');
        await server.exited;
      }
      rmSync(machine.root, { recursive: true, force: true });
    },
  };
}
