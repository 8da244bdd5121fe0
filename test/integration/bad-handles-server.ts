// bad-handles.test.ts's real `baton serve`, with the handle Baton gave out for a stopped one-claude run, and the
// checks each refusal must pass: nothing spawned, nothing written to the store, nothing echoed.
import { mkdirSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import { startServer, tempDir, testEnv, waitFor, type ServerProcess } from '../helpers/server.js';
import { descendantKeys } from '../helpers/processes.js';
import { RawConnection } from '../helpers/raw-connection.js';
import { endServerAndRemove } from '../helpers/server-teardown.js';
import { newAgentId, newRunId } from '../helpers/handle-ids.js';

export const b64u = (s: string) => Buffer.from(s, 'utf8').toString('base64url');
export const handleOf = (body: unknown) => `baton1.${b64u(JSON.stringify(body))}`;

export interface HandleBody {
  v: number;
  run: { name: string; id: string };
  createdAt: string;
  agents: { id: string; label: string; vendor: string; sessionId: string | null; cwd: string }[];
  [extra: string]: unknown;
}

/** Every file and directory under `dir`, with type, size and mtime: equal listings mean nothing was written. */
export function storeListing(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, rel: string) => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      const st = statSync(path);
      const key = rel ? `${rel}/${name}` : name;
      out[key] = `${st.isDirectory() ? 'dir' : 'file'}:${st.size}:${st.mtimeMs}`;
      if (st.isDirectory()) walk(path, key);
    }
  };
  const st = statSync(dir);
  out['.'] = `dir:${st.mtimeMs}`;
  walk(dir, '');
  return out;
}

export let root: string;
export let proj: string;
export let server: ServerProcess;
export let client: RpcClient;
export let raw: RawConnection;
/** The handle Baton itself gave out for a stopped one-claude run. */
export let validHandle: string;
export let validBody: HandleBody;
/** The same agent under a run id and agent id the store does not know: accepted, it would create a run. */
export let freshBody: HandleBody;
export let sessionId: string;
export const handleTexts: string[] = [];

export function useBadHandlesServer(): void {
  beforeAll(async () => {
    root = realpathSync(tempDir('baton-bad-handles-'));
    proj = join(root, 'proj');
    mkdirSync(proj);
    server = await startServer(join(root, 'data'), testEnv(join(root, 'home'), { FAKE_CLAUDE_DELAY_MS: '10' }));
    client = await server.connect();
    raw = await RawConnection.open(server);
    const run = await client.call('run.start', {
      name: 'valid',
      agents: [{ vendor: 'claude', label: 'planner', cwd: proj }],
    });
    const agent = run.agents[0]!;
    await waitFor(
      async () => (await client.call('agent.screen', { agentId: agent.id })).text.trim().length > 0,
      'the fake claude to draw',
    );
    validHandle = (await client.call('run.handle', { run: 'valid' })).handle;
    handleTexts.push(validHandle);
    await client.call('run.stop', { run: 'valid' });
    validBody = JSON.parse(
      Buffer.from(validHandle.slice('baton1.'.length), 'base64url').toString('utf8'),
    ) as HandleBody;
    sessionId = validBody.agents[0]!.sessionId!;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    freshBody = structuredClone(validBody);
    freshBody.run = { name: 'imported', id: newRunId() };
    freshBody.agents[0]!.id = newAgentId();
    // Let the exit bookkeeping settle so the before/after listings of each case compare like with like.
    await waitFor(() => descendantKeys(server.child.pid!).length === 0, 'the stopped run to leave no process');
  }, 40_000);

  afterAll(async () => {
    raw?.close();
    client?.close();
    await endServerAndRemove(server, root);
  });
}

/** Runs `action` and checks it spawned no process and wrote nothing under <dataDir>/runs. */
export async function withoutEffects<T>(action: () => Promise<T>): Promise<T> {
  const runsDir = join(server.dataDir, 'runs');
  const procsBefore = descendantKeys(server.child.pid!);
  const storeBefore = storeListing(runsDir);
  const out = await action();
  // A spawn would already have happened before the reply; a short pause also catches a late one.
  await new Promise((r) => setTimeout(r, 100));
  expect(descendantKeys(server.child.pid!)).toEqual(procsBefore);
  expect(storeListing(runsDir)).toEqual(storeBefore);
  return out;
}

export function expectQuiet(err: { message: string }, handle: string, offending: readonly string[]): void {
  expect(err.message.includes(handle)).toBe(false);
  expect(err.message.includes(handle.slice(0, 40))).toBe(false);
  for (const value of [...offending, sessionId, proj])
    expect(err.message.includes(value), `message echoes ${JSON.stringify(value)}`).toBe(false);
}
