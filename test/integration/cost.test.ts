// Cost with the fake CLIs (docs/cost.md): a run with an agent of every vendor, each answering through its fake, which
// records usage the way its real CLI does (10 input and 5 output tokens per call). `baton cost` then reads every
// agent's tokens from those transcripts, following Claude's /clear to a second session; unknown stays unknown; the
// price file in the data directory prices the fake models, and a bad one is said while the built-in prices stay.
import { spawn } from 'node:child_process';
import { mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import type { RunCost, RunView } from '../../shared/contract.js';
import type { VendorName } from '../../shared/words.js';
import {
  BATON_BIN,
  FAKES,
  agentByLabel,
  ask,
  screenText,
  startServer,
  tempDir,
  testEnv,
  waitFor,
  type ServerProcess,
} from '../helpers/server.js';

const WAIT_MS = 30_000;
const clients: RpcClient[] = [];
const servers: ServerProcess[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  for (const s of servers.splice(0)) {
    if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGTERM');
    await s.exited;
  }
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Each fake's prompt, once its TUI takes typing. */
const READY: Record<Exclude<VendorName, 'shell'>, string> = {
  claude: '? for shortcuts',
  codex: '? for shortcuts',
  gemini: 'Type your message',
  copilot: 'Enter @ to mention files',
  qwen: 'Type your message',
  opencode: 'ctrl+p',
  cursor: 'Plan, search, build anything',
};
const VENDORS = Object.keys(READY) as (keyof typeof READY)[];

function runCli(
  args: readonly string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BATON_BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('cost of a run of fakes', () => {
  it('reads every agent from its transcripts, follows /clear, keeps unknown unknown, and takes the price file', async () => {
    const root = realpathSync(tempDir('baton-cost-'));
    dirs.push(root);
    const home = join(root, 'home');
    const work = join(root, 'work');
    const data = join(root, 'data');
    mkdirSync(work, { recursive: true });
    const env = testEnv(home, {
      BATON_CODEX_BIN: join(FAKES, 'codex.mjs'),
      CODEX_HOME: join(home, '.codex'),
      BATON_GEMINI_BIN: join(FAKES, 'gemini.mjs'),
      BATON_COPILOT_BIN: join(FAKES, 'copilot.mjs'),
      BATON_QWEN_BIN: join(FAKES, 'qwen.mjs'),
      BATON_OPENCODE_BIN: join(FAKES, 'opencode.mjs'),
      BATON_CURSOR_BIN: join(FAKES, 'cursor-agent.mjs'),
    });
    const server = await startServer(data, env);
    servers.push(server);
    const client = await server.connect();
    clients.push(client);

    const run: RunView = await client.call('run.start', {
      name: 'costly',
      agents: [
        ...VENDORS.map((vendor) => ({ vendor, label: vendor, cwd: work })),
        { vendor: 'shell' as const, label: 'sh', cwd: work },
      ],
    });
    await Promise.all(
      VENDORS.map(async (v) => {
        const agent = agentByLabel(run.agents, v);
        await waitFor(async () => (await screenText(client, agent.id)).includes(READY[v]), `${v} ready`, WAIT_MS);
        await ask(client, agent.id, 'remember the number 4321', 'OK, I will remember 4321.', WAIT_MS);
      }),
    );
    // Claude's /clear starts a new session: its second answer is in another transcript, and both count.
    const claude = agentByLabel(run.agents, 'claude');
    await client.call('agent.send', { agentId: claude.id, text: '/clear' });
    await waitFor(
      async () =>
        agentByLabel((await client.call('run.get', { run: 'costly' })).agents, 'claude').sessionIds.length === 2,
      'the session id after /clear',
      WAIT_MS,
    );
    await ask(client, claude.id, 'remember the number 8765', 'OK, I will remember 8765.', WAIT_MS);

    const cliEnv = { ...env, BATON_HOME: data };
    const expected = (calls: number) => ({
      input: 10 * calls,
      output: 5 * calls,
      cacheRead: 0,
      cacheWrite: 0,
      total: 15 * calls,
    });
    const read = async (): Promise<{ cost: RunCost; stderr: string }> => {
      const r = await runCli(['cost', 'costly', '--json', '--data-dir', data], cliEnv);
      expect(r.code, r.stderr).toBe(0);
      return { cost: JSON.parse(r.stdout) as RunCost, stderr: r.stderr };
    };
    const { cost } = await waitFor(
      async () => {
        const got = await read();
        const c = got.cost.agents.find((a) => a.vendor === 'claude');
        return c?.tokens?.total === 30 ? got : undefined;
      },
      'both Claude sessions counted',
      WAIT_MS,
    );
    const of = (v: VendorName) => cost.agents.find((a) => a.vendor === v)!;
    expect(cost.agents.map((a) => a.vendor).sort()).toEqual([...VENDORS].sort()); // the shell has no cost
    expect(of('claude').tokens).toEqual(expected(2));
    expect(of('claude').sessions).toBe(2);
    for (const v of ['codex', 'gemini', 'copilot', 'qwen', 'opencode'] as const)
      expect(of(v).tokens, v).toEqual(expected(1));
    expect(of('cursor').tokens).toBeNull();
    expect(of('cursor').note).toMatch(/records no token counts/);
    // The fake models are in no price table: tokens known, cost unknown, the model named.
    expect(of('claude').usd).toBeNull();
    expect(of('claude').unpricedModels).toEqual(['claude-fake']);
    expect(cost.total.tokens?.total).toBe(15 * 7);
    expect(cost.total.partial).toBe(true);
    expect(cost.prices.source).toBe('built-in');

    // The user's prices: the fake models are priced, per million tokens, from the file's date.
    writeFileSync(
      join(data, 'prices.json'),
      JSON.stringify({
        asOf: '2026-01-02',
        families: [
          { models: ['claude-fake', 'fake-codex', 'mock-model', 'fake-model', 'gemini-fake'], input: 2, output: 10 },
        ],
      }),
    );
    const priced = (await read()).cost;
    const pricedOf = (v: VendorName) => priced.agents.find((a) => a.vendor === v)!;
    expect(pricedOf('claude').usd).toBeCloseTo((20 * 2 + 10 * 10) / 1e6, 9);
    expect(pricedOf('claude').usdFrom).toBe('priced');
    expect(pricedOf('copilot').usd).toBeNull(); // Copilot bills premium requests: never priced in USD
    expect(priced.prices).toMatchObject({ asOf: '2026-01-02', source: 'file', error: null });
    const text = await runCli(['cost', 'costly', '--data-dir', data], cliEnv);
    expect(text.stdout).toMatch(/^claude\tclaude\t30 tok · <\$0\.01/m);
    expect(text.stdout).toMatch(/^cursor\tcursor\ttokens unknown/m);
    expect(text.stdout).toContain('prices as of 2026-01-02 from');

    // A bad file: said on stderr, and the built-in prices are used.
    writeFileSync(join(data, 'prices.json'), JSON.stringify({ asOf: 'yesterday', families: [] }));
    const bad = await read();
    expect(bad.stderr).toMatch(
      /prices\.json at asOf: asOf must be a date written YYYY-MM-DD; using the built-in prices/,
    );
    expect(bad.cost.prices.source).toBe('built-in');
    expect(bad.cost.agents.find((a) => a.vendor === 'claude')!.tokens).toEqual(expected(2));

    // The run list and a snapshot carry the run's sum.
    const [summary] = await client.call('run.list', {});
    expect(summary?.cost).toEqual({ tokens: 15 * 7, usd: null, partial: true, usdPartial: false });
    const snap = await client.call('run.snapshot', { run: 'costly' });
    expect(snap.cost?.tokens).toBe(15 * 7);
    expect(snap.agents.find((a) => a.label === 'claude')?.cost).toEqual({
      tokens: 30,
      usd: null,
      partial: false,
      usdPartial: false,
    });
    await client.call('run.stop', { run: 'costly' });
  }, 180_000);
});
