// The end of a test file that shares one real `baton serve`: whatever its beforeAll got to start is ended and removed.
import { rmSync } from 'node:fs';
import type { ServerProcess } from './server.js';

/** How long a server may take to end on SIGTERM before it is killed: the next file must not wait on it. */
const GRACE_MS = 15_000;

/** Stops the server if it started and still runs, then removes the temp root if it was made. */
export async function endServerAndRemove(
  server: ServerProcess | null | undefined,
  root: string | null | undefined,
): Promise<void> {
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await Promise.race([server.exited, new Promise((r) => setTimeout(r, GRACE_MS).unref())]);
    if (server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGKILL');
      await server.exited;
    }
  }
  if (root) rmSync(root, { recursive: true, force: true });
}
