// The search index starts when it is first needed (docs/search.md §4): a core that is opened and closed with no
// search asked for never builds an index, and a search asked right after a core opens still finds a conversation
// that was on the machine before it.
import { cpSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import type { SearchStatus } from '../../shared/contract.js';
import { startServer, type ServerProcess } from '../helpers/server.js';
import { tempMachine } from '../helpers/temp-machine.js';

const SAMPLES = fileURLToPath(new URL('../fixtures/vendor-samples', import.meta.url));
const clients: RpcClient[] = [];
const servers: ServerProcess[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await Promise.all(servers.splice(0).map(stop));
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function stop(s: ServerProcess): Promise<void> {
  if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGTERM');
  await s.exited;
}

/** A machine with one Claude Code conversation (it said "remember the number 777") and a core on it. */
async function coreWithOneConversation(): Promise<{ server: ServerProcess; index: string }> {
  const { root, home, data, env } = tempMachine('baton-search-lazy-');
  dirs.push(root);
  cpSync(join(SAMPLES, 'claude'), home, { recursive: true });
  const server = await startServer(data, env);
  servers.push(server);
  return { server, index: join(data, 'search', 'index.sqlite') };
}

describe('the search index starts when it is needed', () => {
  it('a search right after the core opens finds a conversation that was already there', async () => {
    const { server, index } = await coreWithOneConversation();
    const client = await server.connect();
    clients.push(client);

    const found = await client.call('search.query', { text: '777' });
    expect(found.results.map((r) => `${r.vendor}:${r.cwd}`)).toEqual(['claude:/home/u/proj']);

    // The index it built is kept for the next core.
    await stop(server);
    expect(existsSync(index)).toBe(true);
  });

  it('a core that is asked no search never reads the transcripts', async () => {
    const { server, index } = await coreWithOneConversation();
    const client = await server.connect();
    clients.push(client);
    const progress: SearchStatus[] = [];
    client.on('search.progress', (status) => progress.push(status));
    expect((await client.call('run.list', {})).length).toBe(0);
    // A short-lived core (a test's, a one-shot's): a few seconds of other requests, then it stops. An index started
    // at open would have told its first pass's progress by now and saved the index when the core stopped.
    for (let i = 0; i < 30; i++) {
      await client.call('run.list', {});
      await new Promise((r) => setTimeout(r, 100));
    }

    await stop(server);
    expect(progress).toEqual([]);
    expect(existsSync(index)).toBe(false);
  });
});
