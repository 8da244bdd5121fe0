// Agent state from the vendors' own signals, end to end: a real `baton serve`, the fake CLIs in real PTYs emitting
// the hooks and notify calls their real CLIs would (Claude's --settings hooks, Codex's notify), and Gemini read from
// its screen. Also: a report signed with another agent's secret is refused and changes nothing.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import type { AgentAttention, AgentState, EventPayload } from '../../shared/contract.js';
import {
  BATON_BIN,
  FAKES,
  agentByLabel,
  startServer,
  tempDir,
  testEnv,
  waitFor,
  type ServerProcess,
} from '../helpers/server.js';

let server: ServerProcess | null = null;
let client: RpcClient | null = null;

afterEach(async () => {
  client?.close();
  client = null;
  server?.child.kill('SIGTERM');
  await server?.exited;
  server = null;
});

/** Records every agent.state event of an agent, in order. */
function recordStates(c: RpcClient): Map<string, AgentAttention[]> {
  const seen = new Map<string, AgentAttention[]>();
  c.on('agent.state', (e: EventPayload<'agent.state'>) => {
    const list = seen.get(e.agentId) ?? [];
    list.push(e.attention);
    seen.set(e.agentId, list);
  });
  return seen;
}

async function stateIs(c: RpcClient, runName: string, agentId: string, state: AgentState): Promise<AgentAttention> {
  return waitFor(async () => {
    const run = await c.call('run.get', { run: runName });
    const a = run.agents.find((x) => x.id === agentId)!.attention;
    return a.state === state ? a : undefined;
  }, `agent ${agentId} to be ${state}`);
}

async function start(vendors: { vendor: 'claude' | 'codex' | 'gemini'; label: string }[]) {
  const home = join(tempDir('baton-attn-home-'), 'home');
  const cwd = tempDir('baton-attn-cwd-');
  server = await startServer(
    tempDir('baton-attn-data-'),
    testEnv(home, {
      BATON_CODEX_BIN: join(FAKES, 'codex.mjs'),
      BATON_GEMINI_BIN: join(FAKES, 'gemini.mjs'),
      CODEX_HOME: join(home, '.codex'),
      FAKE_CLAUDE_DELAY_MS: '100',
    }),
  );
  client = await server.connect();
  const events = recordStates(client);
  const run = await client.call('run.start', {
    name: 'attn',
    agents: vendors.map((v) => ({ vendor: v.vendor, label: v.label, cwd })),
  });
  return { run, events, c: client };
}

describe('agent state from the vendors’ signals', () => {
  it('Claude (hooks): idle → working → waiting after an answer; asking on a tool needing approval; working after approval', async () => {
    const { run, events, c } = await start([{ vendor: 'claude', label: 'planner' }]);
    const agent = agentByLabel(run.agents, 'planner');
    expect(agent.attention).toMatchObject({ state: 'idle', source: 'hooks', inferred: false });
    await waitFor(async () => (await c.call('agent.screen', { agentId: agent.id })).text.includes('❯'), 'the prompt');

    await c.call('agent.send', { agentId: agent.id, text: 'remember the number 4321' });
    const waiting = await stateIs(c, 'attn', agent.id, 'waiting');
    expect(waiting).toMatchObject({ inferred: false, episode: 1 });
    expect(events.get(agent.id)!.map((a) => a.state)).toContain('working');

    await c.call('agent.send', { agentId: agent.id, text: 'please run `ls -la`' });
    const asking = await stateIs(c, 'attn', agent.id, 'asking');
    expect(asking).toMatchObject({ inferred: false, episode: 2, asks: 'Claude needs your permission to use Bash' });
    expect((await c.call('run.list', {}))[0]).toMatchObject({ needYou: 1 });
    // The history's rows (asked without each agent's state) still count the agent that needs the user.
    const [row] = await c.call('run.list', { states: false });
    expect(row).toMatchObject({ name: 'attn', needYou: 1, liveAgents: 1, agentCount: 1, vendors: ['claude'] });
    expect(row).not.toHaveProperty('states');
    // The command line says so too: `baton ls` and `baton ls --json`.
    const ls = (...args: string[]) =>
      execFileSync(process.execPath, [BATON_BIN, 'ls', ...args, '--data-dir', server!.dataDir], {
        env: process.env,
      }).toString();
    expect(ls()).toMatch(/^attn\t1\/1 live\t1 needs you\tclaude\t/m);
    expect(JSON.parse(ls('--json'))).toEqual([
      expect.objectContaining({ needYou: 1, states: [{ agentId: agent.id, label: 'planner', state: 'asking' }] }),
    ]);

    await c.call('agent.write', { agentId: agent.id, data: '1' });
    await stateIs(c, 'attn', agent.id, 'working');
    const done = await stateIs(c, 'attn', agent.id, 'waiting');
    expect(done.episode).toBe(3);
    const states = events.get(agent.id)!.map((a) => a.state);
    // After the approval: working (the key, then PostToolUse), then the turn's end.
    expect(states.slice(states.lastIndexOf('asking'))).toEqual(expect.arrayContaining(['working', 'waiting']));
  }, 60_000);

  it('Codex (notify + screen): waiting after an answer is native; asking is read from its dialog (inferred)', async () => {
    const { run, c } = await start([{ vendor: 'codex', label: 'coder' }]);
    const agent = agentByLabel(run.agents, 'coder');
    expect(agent.attention.source).toBe('notify');
    await waitFor(async () => (await c.call('agent.screen', { agentId: agent.id })).text.includes('›'), 'the prompt');

    await c.call('agent.send', { agentId: agent.id, text: 'remember the number 1234' });
    expect(await stateIs(c, 'attn', agent.id, 'waiting')).toMatchObject({ inferred: false, episode: 1 });

    await c.call('agent.send', { agentId: agent.id, text: 'please run `pwd`' });
    const asking = await stateIs(c, 'attn', agent.id, 'asking');
    expect(asking).toMatchObject({ inferred: true, episode: 2 });
    expect(asking.asks).toMatch(/run the following command: pwd/);

    await c.call('agent.write', { agentId: agent.id, data: 'y' });
    const done = await stateIs(c, 'attn', agent.id, 'waiting');
    expect(done).toMatchObject({ inferred: false, episode: 3 });
  }, 60_000);

  it('Gemini (screen): the turn and the dialog are read from the screen and say they are inferred', async () => {
    const { run, c } = await start([{ vendor: 'gemini', label: 'reviewer' }]);
    const agent = agentByLabel(run.agents, 'reviewer');
    await waitFor(
      async () => (await c.call('agent.screen', { agentId: agent.id })).text.includes('Type your message'),
      'the prompt',
    );
    // The prompt on screen at start is not an answer: the agent stays idle.
    await new Promise((r) => setTimeout(r, 1000));
    expect((await c.call('run.get', { run: 'attn' })).agents[0]!.attention.state).toBe('idle');

    await c.call('agent.send', { agentId: agent.id, text: 'remember the number 777' });
    expect(await stateIs(c, 'attn', agent.id, 'waiting')).toMatchObject({ inferred: true, episode: 1 });
    await c.call('agent.send', { agentId: agent.id, text: 'please run `ls`' });
    expect(await stateIs(c, 'attn', agent.id, 'asking')).toMatchObject({
      inferred: true,
      asks: 'Allow execution of ls?',
    });
    await c.call('agent.write', { agentId: agent.id, data: '1' });
    expect(await stateIs(c, 'attn', agent.id, 'waiting')).toMatchObject({ episode: 3 });
  }, 60_000);

  it("refuses a report signed with another agent's secret, and the other agent's state does not change", async () => {
    const { run, c } = await start([
      { vendor: 'claude', label: 'a' },
      { vendor: 'claude', label: 'b' },
    ]);
    const a = agentByLabel(run.agents, 'a');
    const b = agentByLabel(run.agents, 'b');
    await waitFor(async () => (await c.call('agent.screen', { agentId: a.id })).text.includes('❯'), 'the prompt');
    // Agent a's own shell reads its environment (its id, its secret and the socket), as any process of it could.
    await c.call('agent.write', { agentId: a.id, data: '!' });
    const envOfA = await agentEnv(c, a.id);
    const forge = (agent: string, secret: string) =>
      execFileSync(process.execPath, [BATON_BIN, 'hook', 'claude'], {
        input: JSON.stringify({
          hook_event_name: 'Notification',
          message: 'forged',
          notification_type: 'permission_prompt',
        }),
        env: { ...process.env, BATON_HOOK_SOCKET: envOfA.socket, BATON_HOOK_AGENT: agent, BATON_HOOK_SECRET: secret },
      }).toString();
    // a's secret used for b: refused; b stays idle.
    expect(forge(b.id, envOfA.secret)).toBe('');
    await new Promise((r) => setTimeout(r, 300));
    expect(agentByLabel((await c.call('run.get', { run: 'attn' })).agents, 'b').attention.state).toBe('idle');
    // Garbage on the socket does not end the core.
    expect(forge(b.id, 'not-a-secret')).toBe('');
    // a's own secret for a: taken.
    forge(a.id, envOfA.secret);
    expect(await stateIs(c, 'attn', a.id, 'asking')).toMatchObject({ asks: 'forged' });
    expect((await c.call('core.info', {})).liveAgents).toBe(2);
  }, 60_000);
});

/** The hook variables in the agent's own process environment (/proc/<pid>/environ), as a process of it sees them. */
async function agentEnv(c: RpcClient, agentId: string): Promise<{ socket: string; secret: string }> {
  const run = await c.call('run.get', { run: 'attn' });
  const pid = run.agents.find((x) => x.id === agentId)!.pid!;
  const { readFileSync } = await import('node:fs');
  const vars = new Map(
    readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)] as const),
  );
  return { socket: vars.get('BATON_HOOK_SOCKET')!, secret: vars.get('BATON_HOOK_SECRET')! };
}
