// Attention, measured (docs/attention.md §7). Run: `npm run build && npx tsx test/bench/attention.ts`
// (BATON_BENCH_SECONDS sets the mixed run's length; default 150).
// 1. Latency: from a vendor's hook invocation (the hook program Baton wires, spawned with the vendor's JSON) to the
//    `agent.state` event at a connected client, p50/p99, against the bare start of a Node process (the floor of any
//    hook program) and a plain request round trip, both measured in the same run.
// 2. Notifications per agent turn over a mixed run of fakes (Claude: hooks; Codex: notify + screen; Gemini: screen;
//    a shell agent that floods output in bursts): every turn ends in an answer or a dialog seen on the screen (the
//    ground truth), and the shared NoticePolicy decides on the client's events as a page that never looks would.
//    Goal: exactly one notice per turn, 0 false, 0 missed.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultHookLauncher } from '../../electron/core/attention/hook-launcher.js';
import { NoticePolicy } from '../../shared/attention-policy.js';
import type { RpcClient } from '../../shared/client.js';
import { DEFAULT_ATTENTION_SETTINGS, type AgentAttention } from '../../shared/contract.js';
import { FAKES, ROOT, startServer, tempDir, testEnv, type ServerProcess } from '../helpers/server.js';

// The argv the core wires (its launcher), with the hook `npm run build` made.
const HOOK_ARGV = [...defaultHookLauncher().slice(0, -1), join(ROOT, 'dist', 'electron', 'cli', 'hook.cjs')];
const SECONDS = Number(process.env.BATON_BENCH_SECONDS ?? 150);
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const ms = (x: number) => `${x.toFixed(1)} ms`;

function runProcess(argv: string[], input: string | null, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn(argv[0]!, argv.slice(1), {
      env,
      stdio: [input === null ? 'ignore' : 'pipe', 'ignore', 'ignore'],
    });
    if (input !== null) child.stdin!.end(input);
    child.on('exit', () => resolve());
  });
}

function agentEnv(pid: number): NodeJS.ProcessEnv {
  const vars: NodeJS.ProcessEnv = {};
  for (const kv of readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0')) {
    const at = kv.indexOf('=');
    if (kv.startsWith('BATON_HOOK_')) vars[kv.slice(0, at)] = kv.slice(at + 1);
  }
  return { PATH: process.env.PATH, ...vars };
}

async function waitScreen(
  c: RpcClient,
  agentId: string,
  test: (text: string) => boolean,
  what: string,
  timeoutMs = 20_000,
) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const text = (await c.call('agent.screen', { agentId })).text;
    if (test(text)) return text;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(120);
  }
}

async function latency(server: ServerProcess, c: RpcClient) {
  const cwd = tempDir('baton-bench-attn-cwd-');
  const run = await c.call('run.start', { name: 'latency', agents: [{ vendor: 'claude', label: 'one', cwd }] });
  const agent = run.agents[0]!;
  await waitScreen(c, agent.id, (t) => t.includes('❯'), 'the prompt');
  const env = agentEnv(agent.pid!);
  let arrived: ((t: number) => void) | null = null;
  c.on('agent.state', (e) => {
    if (e.agentId === agent.id) arrived?.(performance.now());
  });
  const hook: number[] = [];
  const nodeStart: number[] = [];
  const request: number[] = [];
  for (let i = 0; i < 60; i++) {
    // Alternating, so every report changes the state: asking (a permission prompt), then working (the tool ran).
    const input =
      i % 2 === 0
        ? { hook_event_name: 'Notification', message: `ask ${i}`, notification_type: 'permission_prompt' }
        : { hook_event_name: 'PostToolUse' };
    const got = new Promise<number>((r) => (arrived = r));
    const t0 = performance.now();
    void runProcess([...HOOK_ARGV, 'claude'], JSON.stringify(input), env);
    hook.push((await got) - t0);
    const n0 = performance.now();
    await runProcess([process.execPath, '-e', ''], null, {});
    nodeStart.push(performance.now() - n0);
    const r0 = performance.now();
    await c.call('core.info', {});
    request.push(performance.now() - r0);
  }
  void server;
  return { hook, nodeStart, request };
}

interface Tally {
  expected: AgentAttention['state'][];
  noticed: AgentAttention['state'][];
}

async function mixedRun(c: RpcClient) {
  const cwd = tempDir('baton-bench-attn-mix-');
  const specs = [
    { vendor: 'claude', label: 'claude-1', approve: '1', dialog: 'Do you want to proceed?' },
    { vendor: 'claude', label: 'claude-2', approve: '1', dialog: 'Do you want to proceed?' },
    { vendor: 'codex', label: 'codex-1', approve: 'y', dialog: 'Would you like to run the following command?' },
    { vendor: 'gemini', label: 'gemini-1', approve: '1', dialog: 'Allow execution of' },
  ] as const;
  const run = await c.call('run.start', {
    name: 'mixed',
    agents: [
      ...specs.map((s) => ({ vendor: s.vendor, label: s.label, cwd })),
      // Output in bursts, all the time: never a notice (a shell has no turns).
      {
        vendor: 'shell' as const,
        label: 'flood',
        cwd,
        command: ['/bin/sh', '-c', 'while :; do seq 1 400; sleep 0.2; done'],
      },
    ],
  });
  const tallies = new Map<string, Tally>(run.agents.map((a) => [a.id, { expected: [], noticed: [] }]));
  const policy = new NoticePolicy();
  c.on('agent.state', (e) => {
    const a = run.agents.find((x) => x.id === e.agentId)!;
    const n = policy.observe(
      { runId: e.runId, runName: 'mixed', agentId: a.id, label: a.label },
      e.attention,
      DEFAULT_ATTENTION_SETTINGS,
      { focused: false, paneInView: false },
    );
    if (n) tallies.get(a.id)!.noticed.push(e.attention.state);
  });
  let n = 1000;
  const end = Date.now() + SECONDS * 1000;
  await Promise.all(
    specs.map(async (s) => {
      const agent = run.agents.find((a) => a.label === s.label)!;
      const t = tallies.get(agent.id)!;
      await waitScreen(c, agent.id, (x) => /❯|›|Type your message/.test(x), `${s.label} ready`);
      await sleep(1000);
      while (Date.now() < end) {
        const k = n++;
        if (Math.random() < 0.35) {
          await c.call('agent.send', { agentId: agent.id, text: `please run \`echo ${k}\`` });
          await waitScreen(
            c,
            agent.id,
            (x) => x.includes(s.dialog) && x.includes(`echo ${k}`.split(' ')[0]!),
            'the dialog',
          );
          t.expected.push('asking');
          // A person reads the dialog before answering it.
          await sleep(600 + Math.random() * 900);
          await c.call('agent.write', { agentId: agent.id, data: s.approve });
          await waitScreen(c, agent.id, (x) => x.includes(`Ran echo ${k}.`), `the answer ${k}`);
        } else {
          await c.call('agent.send', { agentId: agent.id, text: `remember the number ${k}` });
          await waitScreen(c, agent.id, (x) => x.includes(`OK, I will remember ${k}.`), `the answer ${k}`);
        }
        t.expected.push('waiting');
        // A person reads the answer before typing the next prompt.
        await sleep(700 + Math.random() * 800);
      }
    }),
  );
  await sleep(2000);
  return { agents: run.agents, tallies };
}

/** How many of `a` and `b` match in order (their longest common subsequence). */
function commonInOrder<T>(a: readonly T[], b: readonly T[]): number {
  const row = new Array<number>(b.length + 1).fill(0);
  for (const x of a) {
    let diagonal = 0;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = x === b[j - 1] ? diagonal + 1 : Math.max(row[j]!, row[j - 1]!);
      diagonal = above;
    }
  }
  return row[b.length]!;
}

async function main() {
  const root = tempDir('baton-bench-attn-');
  const home = join(root, 'home');
  const server = await startServer(
    join(root, 'data'),
    testEnv(home, {
      BATON_CODEX_BIN: join(FAKES, 'codex.mjs'),
      BATON_GEMINI_BIN: join(FAKES, 'gemini.mjs'),
      CODEX_HOME: join(home, '.codex'),
      FAKE_CLAUDE_DELAY_MS: '150',
    }),
  );
  const c = await server.connect();
  try {
    const l = await latency(server, c);
    const floor = pct(l.nodeStart, 50);
    console.log('\nAttention: vendor hook invocation → agent.state at a client (60 reports)');
    console.log(
      `  baseline: bare Node process start p50 ${ms(floor)}; request round trip p50 ${ms(pct(l.request, 50))}`,
    );
    for (const p of [50, 99] as const) {
      const v = pct(l.hook, p);
      console.log(
        `  hook → event p${p}: ${ms(v)} = ${(v / floor).toFixed(2)}× a bare Node start   (goal ≤ ${p === 50 ? '2' : '4'}×)`,
      );
    }
    const { agents, tallies } = await mixedRun(c);
    console.log(
      `\nAttention: notices per turn, mixed run of ${SECONDS} s (claude×2 hooks, codex notify+screen, gemini screen, shell flood)`,
    );
    let turns = 0;
    let notices = 0;
    let falseOnes = 0;
    let missed = 0;
    for (const a of agents) {
      const t = tallies.get(a.id)!;
      // A notice matches a turn when it is of the same kind, in order (longest common subsequence).
      const matched = commonInOrder(t.expected, t.noticed);
      turns += t.expected.length;
      notices += t.noticed.length;
      falseOnes += t.noticed.length - matched;
      missed += t.expected.length - matched;
      console.log(
        `  ${a.label.padEnd(9)} ${a.vendor.padEnd(7)} turns ${String(t.expected.length).padStart(4)}  notices ${String(t.noticed.length).padStart(4)}  false ${t.noticed.length - matched}  missed ${t.expected.length - matched}`,
      );
      if (process.env.BATON_BENCH_DEBUG && matched < Math.max(t.expected.length, t.noticed.length))
        console.log(`    expected ${t.expected.join(',')}\n    noticed  ${t.noticed.join(',')}`);
    }
    console.log(
      `  notices per turn: ${(notices / Math.max(1, turns)).toFixed(3)} (goal 1.000)   false: ${falseOnes} (goal 0)   missed: ${missed} (goal 0)`,
    );
  } finally {
    c.close();
    server.child.kill('SIGTERM');
    await server.exited;
  }
}

await main();
