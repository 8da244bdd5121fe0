// codex.test.ts's scene: a temp home with the fake Codex CLI, its real `baton serve`, prompts typed and waited for,
// and /proc read independently of the product (locks held, daemons, process trees, rollouts); everything a test
// starts is stopped and removed, pass or fail.
import { existsSync, mkdirSync, readFileSync, readdirSync, readlinkSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import type { AgentView, RunView } from '../../shared/contract.js';
import {
  FAKES,
  agentByLabel,
  screenText,
  startServer,
  tempDir,
  testEnv,
  waitFor,
  type ServerProcess,
} from '../helpers/server.js';
import { stopServer } from '../helpers/served-vendors.js';
import { descendants, killMarks, listProcs, markOf, type ProcMark } from '../helpers/processes.js';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const QUESTION = 'what number did I ask you to remember';
const WAIT_MS = 20_000;

// ---------- bookkeeping: everything a test starts is stopped and removed, pass or fail ----------

const clients: RpcClient[] = [];
const servers: ServerProcess[] = [];
const marks: ProcMark[] = [];
const dirs: string[] = [];
const codexHomes: string[] = [];

export function useCodexCleanup(): void {
  afterEach(async () => {
    for (const c of clients.splice(0)) c.close();
    for (const s of servers.splice(0)) await stopServer(s);
    killMarks(marks.splice(0));
    for (const home of codexHomes.splice(0)) killMarks(daemonsOf(home));
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
}

// ---------- the scene ----------

interface Scene {
  home: string;
  codexHome: string;
  data: string;
  proj: string;
  env: Record<string, string>;
}

export function scene(): Scene {
  const root = realpathSync(tempDir('baton-codex-'));
  dirs.push(root);
  const home = join(root, 'home');
  const codexHome = join(home, '.codex');
  const proj = join(root, 'proj');
  mkdirSync(proj, { recursive: true });
  codexHomes.push(codexHome);
  const env = testEnv(home, {
    BATON_CODEX_BIN: join(FAKES, 'codex.mjs'),
    CODEX_HOME: codexHome,
    FAKE_CODEX_DELAY_MS: '10',
    // Should a daemon ever start, it ends by itself.
    FAKE_CODEX_DAEMON_TTL_MS: '120000',
  });
  return { home, codexHome, data: join(root, 'data'), proj, env };
}

export function randomNumber(not?: number): number {
  for (;;) {
    // Never 100: the fake's footer always shows "100% context left", which would match a wrong answer.
    const n = 101 + Math.floor(Math.random() * 899);
    if (n !== not) return n;
  }
}

export async function serve(s: Scene, dataDir = s.data): Promise<{ server: ServerProcess; client: RpcClient }> {
  const server = await startServer(dataDir, s.env);
  servers.push(server);
  const client = await server.connect();
  clients.push(client);
  return { server, client };
}

export const wait = <T>(probe: () => Promise<T | undefined | false> | T | undefined | false, what: string) =>
  waitFor(probe, what, WAIT_MS);

/** Types a prompt (the core pauses before Enter, as Codex needs) and waits until the screen shows `expected`. */
export async function ask(client: RpcClient, agentId: string, text: string, expected: string): Promise<string> {
  await client.call('agent.send', { agentId, text });
  return wait(async () => {
    const screen = await screenText(client, agentId);
    return screen.includes(expected) ? screen : undefined;
  }, `'${expected}' on the screen`);
}

/** The agent as the server sees it once `ok` holds. */
export async function agentWhen(
  client: RpcClient,
  runName: string,
  label: string,
  ok: (a: AgentView) => boolean,
  what: string,
): Promise<AgentView> {
  return wait(async () => {
    const run: RunView = await client.call('run.get', { run: runName });
    const a = agentByLabel(run.agents, label);
    return ok(a) ? a : undefined;
  }, what);
}

// ---------- /proc, read independently of the product ----------

export function cmdline(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8')
      .split('\0')
      .filter((x) => x !== '');
  } catch {
    return [];
  }
}

/** Thread ids whose writer lock a process at or below `pid` holds open. */
export function locksHeldBelow(pid: number, codexHome: string): string[] {
  const ids: string[] = [];
  for (const p of [pid, ...descendants(pid).map((d) => d.pid)]) {
    let fds: string[] = [];
    try {
      fds = readdirSync(`/proc/${p}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const target = readlinkSync(`/proc/${p}/fd/${fd}`);
        const m = /\/thread-writer-locks\/([0-9a-f-]{36})\.lock$/.exec(target);
        if (m && target.startsWith(`${codexHome}/`)) ids.push(m[1]!);
      } catch {
        /* closed meanwhile */
      }
    }
  }
  return ids;
}

/** Fake Codex daemons of this Codex home, wherever they are in the process tree. */
export function daemonsOf(codexHome: string): ProcMark[] {
  return listProcs()
    .filter((p) => {
      const argv = cmdline(p.pid);
      return argv.some((a) => a.startsWith('--fake-daemon')) && argv.includes(codexHome);
    })
    .map(markOf);
}

/** The agent's processes (the wrapper in the PTY and the native codex below it), remembered for clean-up. */
export function treeOf(pid: number): ProcMark[] {
  const root = listProcs().find((p) => p.pid === pid);
  const tree = [...(root ? [markOf(root)] : []), ...descendants(pid).map(markOf)];
  marks.push(...tree);
  return tree;
}

export function rolloutsOf(codexHome: string, id: string): string[] {
  const root = join(codexHome, 'sessions');
  if (!existsSync(root)) return [];
  return (readdirSync(root, { recursive: true }) as string[])
    .filter((p) => p.endsWith(`-${id}.jsonl`))
    .map((p) => join(root, p));
}
