// The vendor tests' (vendors-idfirst, opencode-cursor, search, session-import) real `baton serve` processes and the
// bookkeeping around them: everything a test starts (servers, clients, agents, terminals, temp dirs) is stopped and
// removed, pass or fail; and the fake CLIs run on their own, as a user would run the real ones.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import pty from 'node-pty';
import { afterEach } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import type { RunView } from '../../shared/contract.js';
import type { VendorAdapter } from '../../electron/core/vendors/adapter.js';
import { FAKES, agentByLabel, screenText, startServer, waitFor, type ServerProcess } from './server.js';
import { tempMachine } from './temp-machine.js';

export const WAIT_MS = 20_000;

// ---------- bookkeeping: everything a test starts is stopped and removed, pass or fail ----------

export const clients: RpcClient[] = [];
export const servers: ServerProcess[] = [];
export const agentPids = new Set<number>();
export const terms: pty.IPty[] = [];
export const stops: (() => void)[] = [];
export const dirs: string[] = [];

export function useServedCleanup(): void {
  afterEach(async () => {
    for (const s of stops.splice(0)) s();
    for (const t of terms.splice(0)) {
      try {
        t.kill('SIGKILL');
      } catch {
        /* gone */
      }
    }
    for (const c of clients.splice(0)) c.close();
    await Promise.all(servers.splice(0).map((s) => stopServer(s)));
    for (const pid of agentPids) {
      try {
        process.kill(pid, 0);
        process.kill(pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
    agentPids.clear();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
}

export async function stopServer(server: ServerProcess): Promise<void> {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGTERM');
  const timeout = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 15_000).unref());
  if ((await Promise.race([server.exited, timeout])) === 'timeout') {
    server.child.kill('SIGKILL');
    await server.exited;
  }
}

export function track(run: RunView): RunView {
  for (const a of run.agents) if (a.pid !== null) agentPids.add(a.pid);
  return run;
}

// ---------- the scene every test starts from ----------

export interface Scene {
  home: string;
  data: string;
  work: string;
  env: Record<string, string>;
}

/** A temp machine whose environment points Baton at the given fake CLIs; removed after the test. */
export function sceneWith(prefix: string, bins: Record<string, string>): Scene {
  const { root, home, data, work, env } = tempMachine(prefix, bins);
  dirs.push(root);
  return { home, data, work, env };
}

export async function serve(s: Scene): Promise<RpcClient> {
  const server = await startServer(s.data, s.env);
  servers.push(server);
  const client = await server.connect();
  clients.push(client);
  return client;
}

/** Waits until the fake TUI shows the text it shows once it takes input. */
export async function ready(client: RpcClient, agentId: string, c: { vendor: string; ready: string }): Promise<void> {
  await waitFor(
    async () => (await screenText(client, agentId)).includes(c.ready),
    `the prompt of ${c.vendor} agent ${agentId}`,
    WAIT_MS,
  );
}

/** Waits until each agent's current session id is confirmed (and, if given, has `count` ids). */
export async function confirmed(client: RpcClient, run: string, labels: string[], count?: number): Promise<RunView> {
  return waitFor(
    async () => {
      const view = await client.call('run.get', { run });
      const ok = labels.every((l) => {
        const ids = agentByLabel(view.agents, l).sessionIds;
        return ids.at(-1)?.confirmed === true && (count === undefined || ids.length === count);
      });
      return ok ? view : undefined;
    },
    `sessions of ${labels.join(', ')} confirmed`,
    WAIT_MS,
  );
}

// ---------- the fake CLIs run on their own, as a user would run the real ones ----------

/** Runs a fake CLI of test/fakes (`bin`: its file name) to its end: its exit code and all it printed. */
export function runFake(bin: string, args: string[], s: Scene, cwd = s.work): { code: number | null; out: string } {
  const r = spawnSync(process.execPath, [join(FAKES, bin), ...args], {
    cwd,
    env: s.env,
    input: '',
    encoding: 'utf8',
    timeout: 15_000,
  });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

/** Whether the adapter recognises `text` as its CLI refusing to resume a session. */
export const rejected = (adapter: VendorAdapter, text: string) => adapter.resumeErrorTexts.some((re) => re.test(text));

/** Talks to the fake claude directly, as a user would in a terminal of their own: no Baton involved. */
export async function conversationOutsideBaton(
  cwd: string,
  env: Record<string, string>,
  prompt: string,
  answer: string,
): Promise<void> {
  const proc = pty.spawn(process.execPath, [join(FAKES, 'claude.mjs')], {
    name: 'xterm-256color',
    cols: 120,
    rows: 40,
    cwd,
    env,
  });
  terms.push(proc);
  let screen = '';
  let exited = false;
  proc.onData((d) => (screen += d));
  proc.onExit(() => (exited = true));
  await waitFor(() => screen.includes('? for shortcuts'), 'the fake claude prompt');
  proc.write(prompt);
  await new Promise((r) => setTimeout(r, 200));
  proc.write('\r');
  await waitFor(() => screen.includes(answer), `'${answer}' from the fake claude`);
  proc.write('/exit');
  await new Promise((r) => setTimeout(r, 200));
  proc.write('\r');
  await waitFor(() => exited, 'the fake claude to exit');
}
