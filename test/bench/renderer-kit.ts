// What the renderer bench's scenes share (renderer.ts, renderer-throughput.ts, renderer-echo.ts): a scene of fresh
// `baton serve`s and `shell` agents running the bench's scripts, a bench page per measurement, and the printed lines of
// its figures. It measures nothing itself.
import { mkdirSync, realpathSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { RpcClient } from '../../shared/client.js';
import { startServer, tempDir, testEnv, waitFor, type ServerProcess } from '../helpers/server.js';
import { openBenchPage, type BenchBrowser, type BenchGlobal, type BenchPage } from './renderer-page.js';
import { writeAgentScripts, type AgentScripts } from './renderer-scripts.js';
import { fmt } from './stats.js';

/** The core's A/B switches (BATON_MIRROR_*, BATON_OUTPUT_*, BATON_PTY_*), passed on to the bench's cores: paired runs of one build. */
export function coreTuning(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && /^BATON_(MIRROR|OUTPUT|PTY)_/.test(k)) out[k] = v;
  return out;
}

export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
export const MB = 1e6;
const LABEL = 52;
export const line = (label: string, rest: string) => console.log(`${label.padEnd(LABEL)}${rest}`);
/** MB/s with one decimal below 10 (software WebGL is that slow), none above. */
export const rate = (v: number) => fmt(v, Math.abs(v) < 10 ? 1 : 0);
export const list = (values: number[]) => values.map(rate).join(' / ');
export const mark = (good: boolean) => (good ? '✓' : '✗');
export const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
export const sleep = (msec: number) => new Promise<void>((r) => setTimeout(r, msec));
export const mbText = (bytes: number | null) =>
  bytes === null || !Number.isFinite(bytes) ? '–' : `${(bytes / MB).toFixed(1)} MB`;

/** The bytes a pane has taken so far, as the bench page counts them. */
export const paneBytes = (p: BenchPage, agentId: string) =>
  p.page.evaluate((id) => (globalThis as BenchGlobal).__batonBench.paneBytes(id), agentId);

// ---------------------------------------------------------------- servers, clients, cleanup

export class Scene {
  readonly root = realpathSync(tempDir('baton-rbench-'));
  readonly work = join(this.root, 'work');
  readonly scripts: AgentScripts;
  private readonly env: Record<string, string>;
  private readonly servers: ServerProcess[] = [];
  private readonly clients: RpcClient[] = [];
  private serverCount = 0;

  constructor() {
    mkdirSync(this.work, { recursive: true });
    this.scripts = writeAgentScripts(this.work);
    this.env = testEnv(join(this.root, 'home'), coreTuning());
  }

  /** A fresh `baton serve` on its own data directory (so the page opens on exactly the runs a scenario starts). */
  async server(): Promise<{ server: ServerProcess; client: RpcClient }> {
    const server = await startServer(join(this.root, `data-${++this.serverCount}`), this.env);
    this.servers.push(server);
    const client = await server.connect();
    this.clients.push(client);
    return { server, client };
  }

  async close(): Promise<void> {
    for (const c of this.clients.splice(0)) c.close();
    await Promise.all(this.servers.splice(0).map((s) => stopServer(s)));
    rmSync(this.root, { recursive: true, force: true });
  }
}

export async function stopServer(s: ServerProcess): Promise<void> {
  if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), 15_000)));
  const outcome = await Promise.race([s.exited, timeout]);
  clearTimeout(timer);
  if (outcome === 'timeout') {
    s.child.kill('SIGKILL');
    await s.exited;
  }
}

export async function startAgents(
  client: RpcClient,
  scene: Scene,
  name: string,
  commands: { label: string; argv: string[] }[],
): Promise<string[]> {
  const run = await client.call('run.start', {
    name,
    agents: commands.map((c) => ({ vendor: 'shell' as const, label: c.label, cwd: scene.work, command: c.argv })),
  });
  const ids = run.agents.map((a) => a.id);
  for (const agentId of ids) {
    await waitFor(
      async () => / ready/.test((await client.call('agent.screen', { agentId })).text),
      `agent ${agentId} to start`,
      30_000,
    );
  }
  return ids;
}

export async function withPage<T>(
  b: BenchBrowser,
  server: ServerProcess,
  fn: (p: BenchPage) => Promise<T>,
  viewport?: { width: number; height: number },
): Promise<T> {
  const p = await openBenchPage(b, server);
  try {
    if (viewport) await p.page.setViewportSize(viewport);
    const result = await fn(p);
    if (p.errors.length > 0) console.log(`  ! the page reported: ${p.errors.slice(0, 5).join(' | ')}`);
    return result;
  } finally {
    await p.close();
  }
}
