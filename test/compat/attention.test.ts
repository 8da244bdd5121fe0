// Agent state from the real CLIs' own signals, against the mock model (docs/attention.md §6): through a real
// `baton serve`, each vendor's adapter wires its spawn (Claude's --settings hooks, Codex's -c notify), follows its
// stream (opencode) or reads its screen (Gemini, Qwen, Copilot), and the state must follow: waiting after an answer
// (working while it ran, where that can be seen); asking when the mock calls the CLI's shell tool and the CLI asks for
// approval; working again after approval, then waiting. What a real CLI cannot show offline is printed as such in the
// table at the end, never passed. Run one vendor at a time (`-t <vendor>`):
//   npx vitest run --config test/compat/vitest.compat.config.ts test/compat/attention.test.ts
import { existsSync, mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import type { AgentAttention, AgentState } from '../../shared/contract.js';
import { startServer, tempDir, waitFor, type ServerProcess } from '../helpers/server.js';
import { ensureInstalled, PINS, type CompatVendor } from './install.js';
import { rememberReply, startMockModel, toolReply, type MockModel } from './mock-model.js';
import { HOME_OF, SPECS, baseEnv } from './vendors.js';
import { sendUntilAsked } from './send-text.js';

let mock: MockModel;
const rows: { vendor: string; check: string; result: string }[] = [];
const record = (vendor: string, check: string, result: string) => rows.push({ vendor, check, result });

beforeAll(async () => {
  mock = await startMockModel();
});

afterAll(async () => {
  await mock?.close();
  if (rows.length === 0) return;
  const w = (s: string, n: number) => s.padEnd(n);
  process.stdout.write(
    `\nAttention signals with the real CLIs (mock model)\n${rows.map((r) => `  ${w(r.vendor, 16)} ${w(r.check, 44)} ${r.result}`).join('\n')}\n`,
  );
});

interface Live {
  server: ServerProcess;
  client: RpcClient;
  agentId: string;
  states: AgentAttention[];
  root: string;
}

async function startAgent(
  vendor: CompatVendor,
  extraArgs: readonly string[] = [],
  prepare?: (cwd: string) => void,
): Promise<Live | string> {
  const inst = await ensureInstalled(vendor);
  if (!inst.ok) return `not installed: ${inst.reason}`;
  const spec = SPECS[vendor];
  const root = realpathSync(tempDir(`baton-compat-attn-${vendor}-`));
  const cwd = join(root, 'project');
  mkdirSync(cwd, { recursive: true });
  prepare?.(cwd);
  const env = {
    ...baseEnv(HOME_OF(root)),
    ...spec.setup({ root, cwd, mockUrl: mock.url, version: inst.versionText }),
    [`BATON_${vendor.toUpperCase()}_BIN`]: inst.bin,
  };
  const server = await startServer(join(root, 'data'), env);
  const client = await server.connect();
  const states: AgentAttention[] = [];
  client.on('agent.state', (e) => states.push(e.attention));
  const run = await client.call('run.start', {
    name: `attn-${vendor}`,
    agents: [{ vendor, label: 'agent', cwd, args: [...spec.args, ...extraArgs] }],
  });
  const agentId = run.agents[0]!.id;
  await waitFor(() => screenMatches(client, agentId, spec.ready), `the ${vendor} prompt`, spec.readyMs);
  return { server, client, agentId, states, root };
}

async function screenMatches(client: RpcClient, agentId: string, patterns: readonly RegExp[]): Promise<boolean> {
  const text = (await client.call('agent.screen', { agentId })).text;
  return patterns.some((p) => p.test(text));
}

async function stop(live: Live): Promise<void> {
  live.client.close();
  live.server.child.kill('SIGTERM');
  await live.server.exited;
  rmSync(live.root, { recursive: true, force: true });
}

async function reach(live: Live, state: AgentState, ms: number, after = 0): Promise<AgentAttention> {
  return withScreen(live, () =>
    waitFor(
      () => live.states.slice(after).find((s) => s.state === state),
      `the agent to be ${state} (seen: ${live.states.map((s) => s.state).join(' → ') || 'nothing'})`,
      ms,
    ),
  );
}

/** A failure carries the agent's screen and the mock's last requests. */
async function withScreen<T>(live: Live, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (err) {
    const screen = await live.client.call('agent.screen', { agentId: live.agentId }).then(
      (s) => s.text,
      () => '(none)',
    );
    const log = mock
      .log()
      .slice(-4)
      .map((e) => `${e.api} ${e.lastUser.slice(-60)} → ${e.reply}`)
      .join('\n');
    throw new Error(
      `${(err as Error).message}\n--- server:\n${live.server.output().slice(-1500)}\n--- screen:\n${screen.split('\n').slice(-30).join('\n')}\n--- mock:\n${log}`,
    );
  }
}

/** Types `text` to the agent until the mock model was asked with it (a CLI may drop keys just after it started). */
async function sendText(live: Live, text: string): Promise<void> {
  const mark = mock.mark();
  const reached = () => mock.log().some((e) => e.seq > mark && e.lastUser.includes(text));
  await sendUntilAsked(live.client, live.agentId, text, reached, Date.now() + 60_000);
}

/**
 * A turn the mock takes its time over ("take your time"): the agent must be `waiting` once the answer is on screen,
 * never `waiting` before its turn ran, and `working` while it ran: from the vendor's own signal where it has one
 * (`native`), otherwise from the screen, read while a TUI animates its working line too (docs/attention.md §3).
 * Returns the waiting state.
 */
async function answerTurn(
  live: Live,
  vendor: string,
  n: string,
  how: string,
  native: boolean,
): Promise<AgentAttention> {
  const mark = live.states.length;
  await sendText(live, `remember the number ${n}, take your time`);
  if (native) await reach(live, 'working', 120_000, mark);
  await withScreen(live, () =>
    waitFor(() => screenMatches(live.client, live.agentId, [new RegExp(rememberReply(n))]), 'the answer', 120_000),
  );
  const waiting = await reach(live, 'waiting', 30_000, mark);
  const before = live.states.slice(mark, live.states.indexOf(waiting));
  const working = before.find((s) => s.state === 'working');
  expect(before.map((s) => s.state)).not.toContain('waiting');
  expect(working, 'working during an 8 s turn').toBeDefined();
  record(
    vendor,
    `answer (${how})`,
    `verified: working${working!.inferred ? ' (inferred)' : ''} → waiting${waiting.inferred ? ' (inferred)' : ''}`,
  );
  return waiting;
}

/**
 * A command the mock asks to run: the CLI's dialog must make the agent `asking` (naming the command), the approving
 * key `working`, and the answer after the tool `waiting`, with no `waiting` before the answer.
 */
async function approveCommand(live: Live, vendor: string, approveKey: string): Promise<void> {
  const cmd = 'touch compat.txt';
  const mark = live.states.length;
  await sendText(live, `please run \`${cmd}\``);
  const asking = await reach(live, 'asking', 90_000, mark);
  expect(asking.asks ?? '').toContain(cmd);
  // Nothing said the turn was over while the dialog waited.
  expect(live.states.slice(mark).map((s) => s.state)).not.toContain('waiting');
  record(
    vendor,
    'tool needing approval: asking',
    `verified${asking.inferred ? ', inferred' : ''} (asks: ${asking.asks})`,
  );
  const afterAsk = live.states.length;
  await live.client.call('agent.write', { agentId: live.agentId, data: approveKey });
  await reach(live, 'working', 30_000, afterAsk);
  await withScreen(live, () =>
    waitFor(
      () => screenMatches(live.client, live.agentId, [new RegExp(toolReply(cmd).replace('.', '\\.'))]),
      'the answer after the tool',
      90_000,
    ),
  );
  const done = await reach(live, 'waiting', 90_000, afterAsk);
  // The approval reached the CLI: the command ran.
  expect(existsSync(join(live.root, 'project', 'compat.txt'))).toBe(true);
  record(vendor, 'approval: working, then waiting', `verified${done.inferred ? ', inferred' : ''}`);
}

describe('attention with the real CLIs', () => {
  it(`claude ${PINS.claude.version}: hooks say working → waiting, asking on Bash, working after approval`, async (ctx) => {
    // Claude's default mode, which asks before Bash (this version may start in auto mode otherwise).
    const live = await startAgent('claude', ['--permission-mode', 'default']);
    if (typeof live === 'string') {
      record('claude', 'hooks', `SKIPPED: ${live}`);
      return ctx.skip(live);
    }
    try {
      await sendText(live, 'remember the number 4242');
      await reach(live, 'working', 60_000);
      const waiting = await reach(live, 'waiting', 60_000);
      expect(waiting.inferred).toBe(false);
      record('claude', 'answer: working → waiting (Stop hook)', 'verified');
      const mark = live.states.length;
      await sendText(live, 'please run `touch compat.txt`');
      const asking = await reach(live, 'asking', 60_000, mark);
      expect(asking.inferred).toBe(false);
      record('claude', 'tool needing approval: asking (Notification)', `verified (asks: ${asking.asks ?? '—'})`);
      const afterAsk = live.states.length;
      // The first option of Claude's dialog is "Yes".
      await live.client.call('agent.write', { agentId: live.agentId, data: '\r' });
      await reach(live, 'working', 30_000, afterAsk);
      await waitFor(
        () => screenMatches(live.client, live.agentId, [new RegExp(toolReply('touch compat.txt').replace('.', '\\.'))]),
        'the answer after the tool',
        60_000,
      );
      await reach(live, 'waiting', 60_000, afterAsk);
      record('claude', 'approval: working, then waiting', 'verified');
    } finally {
      await stop(live);
    }
  }, 300_000);

  it(`codex ${PINS.codex.version}: notify says waiting; its approval dialog asks; approval works, then waits`, async (ctx) => {
    // on-request: a command the model asks to run outside the sandbox waits for the user (the mock asks so).
    const live = await startAgent('codex', ['-a', 'on-request']);
    if (typeof live === 'string') {
      record('codex', 'notify', `SKIPPED: ${live}`);
      return ctx.skip(live);
    }
    try {
      const waiting = await answerTurn(live, 'codex', '4343', 'screen, then notify', false);
      expect(waiting.inferred).toBe(false);
      expect(waiting.asks).toBe(rememberReply('4343'));
      await approveCommand(live, 'codex', 'y');
    } finally {
      await stop(live);
    }
  }, 300_000);

  it(`gemini ${PINS.gemini.version}: the screen says waiting after an answer, asking on a shell call (inferred)`, async (ctx) => {
    const live = await startAgent('gemini');
    if (typeof live === 'string') {
      record('gemini', 'screen', `SKIPPED: ${live}`);
      return ctx.skip(live);
    }
    try {
      const waiting = await answerTurn(live, 'gemini', '4444', 'screen', false);
      expect(waiting.inferred).toBe(true);
      // Its default approval mode asks before a shell command; the first option, selected, is "Allow once".
      await approveCommand(live, 'gemini', '\r');
    } finally {
      await stop(live);
    }
  }, 300_000);

  // Screen-only vendors over Chat Completions (the mock calls their shell tool: Qwen's run_shell_command, Copilot's
  // bash). Qwen starts in its "auto" mode, where a model classifier approves tools: `default` asks, as a user's would.
  const screenOnly = [
    { vendor: 'qwen', args: ['--approval-mode', 'default'] },
    { vendor: 'copilot', args: [] },
  ] as const;
  for (const { vendor, args } of screenOnly)
    it(`${vendor} ${PINS[vendor].version}: the screen says waiting after an answer, asking on a shell call, working after approval (inferred)`, async (ctx) => {
      const live = await startAgent(vendor, args);
      if (typeof live === 'string') {
        record(vendor, 'screen', `SKIPPED: ${live}`);
        return ctx.skip(live);
      }
      try {
        const waiting = await answerTurn(live, vendor, '4545', 'screen', false);
        expect(waiting.inferred).toBe(true);
        // The first option of its dialog, selected, is "Yes".
        await approveCommand(live, vendor, '\r');
      } finally {
        await stop(live);
      }
    }, 300_000);

  it(`opencode ${PINS.opencode.version}: its event stream says working → waiting, asking on bash, working after approval`, async (ctx) => {
    // opencode runs bash without asking unless told to: the project's own config asks, as a cautious user's would.
    const askBash = (cwd: string) =>
      writeFileSync(join(cwd, 'opencode.json'), JSON.stringify({ permission: { bash: 'ask' } }));
    const live = await startAgent('opencode', [], askBash);
    if (typeof live === 'string') {
      record('opencode', 'events', `SKIPPED: ${live}`);
      return ctx.skip(live);
    }
    try {
      const waiting = await answerTurn(live, 'opencode', '4646', 'session.status', true);
      expect(waiting.inferred).toBe(false);
      // One turn, one episode: its two end-of-turn events (status idle, session.idle) are one notice.
      await new Promise((r) => setTimeout(r, 1500));
      expect(live.states.at(-1)).toMatchObject({ state: 'waiting', episode: waiting.episode });
      const mark = live.states.length;
      await approveCommand(live, 'opencode', '\r');
      expect(live.states.slice(mark).find((s) => s.state === 'asking')?.inferred).toBe(false);
    } finally {
      await stop(live);
    }
  }, 400_000);
});
