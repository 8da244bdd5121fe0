// worktree-runs*.test.ts's real `baton serve` (one per file, on a temp home with git's test identity), the shell
// agents they start in worktrees, and the checks on what the server answers.
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import { type AgentView, type EventPayload } from '../../shared/contract.js';
import { GIT_ENV } from '../helpers/git-repo.js';
import { screenText, startServer, tempDir, testEnv, waitFor, type ServerProcess } from '../helpers/server.js';
import { endServerAndRemove } from '../helpers/server-teardown.js';

export let root: string;
let home: string;
export let env: Record<string, string>;
export let server: ServerProcess;
export let client: RpcClient;
export const changeEvents: EventPayload<'agent.changes'>[] = [];

/** A shell agent that runs `script` in its directory, then stays until stopped. */
export const shell = (
  label: string,
  cwd: string,
  script: string,
  extra: Record<string, unknown> = { worktree: 'new' },
) => ({
  vendor: 'shell' as const,
  label,
  cwd,
  command: ['/bin/sh', '-c', `${script}; echo "${label} is done"; exec sleep 600`],
  ...extra,
});

export async function done(agent: AgentView): Promise<void> {
  await waitFor(
    async () => (await screenText(client, agent.id)).includes(`${agent.label} is done`),
    `${agent.label} to finish its script`,
  );
}

export function worktreeOf(agent: AgentView): NonNullable<AgentView['worktree']> {
  expect(agent.worktree).not.toBeNull();
  return agent.worktree!;
}

export function useWorktreeRunsServer(): void {
  beforeAll(async () => {
    root = realpathSync(tempDir('baton-worktree-runs-'));
    home = join(root, 'home');
    env = testEnv(home, { ...GIT_ENV });
    server = await startServer(join(root, 'data'), env);
    client = await server.connect();
    client.on('agent.changes', (e) => changeEvents.push(e));
  }, 40_000);

  afterAll(async () => {
    client?.close();
    await endServerAndRemove(server, root);
  });
}
