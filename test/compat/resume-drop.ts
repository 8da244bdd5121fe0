// Diagnostic (not a test): when does a just-resumed real Gemini CLI take typed keys? A session is made once under one
// HOME and exported as a bundle; each trial imports it under a fresh HOME (the case that dropped the first text in
// the compat suite), records the agent's output timeline from its spawn, and either types the text raw (agent.write)
// a given delay after the prompt box first shows, or calls agent.send right away as a script would. It prints, per
// trial, whether the text was drawn and whether it reached the mock model, and when the markers showed.
//   npx tsx test/compat/resume-drop.ts            (BATON_DROP_DELAYS=0,150,300,600,1000,2000 BATON_DROP_REPS=2
//                                                  BATON_DROP_SENDS=4)
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RpcClient } from '../../shared/client.js';
import { startServer, waitFor, type ServerProcess } from '../helpers/server.js';
import { ensureInstalled } from './install.js';
import { rememberReply, startMockModel, type MockModel } from './mock-model.js';
import { sendUntilAsked } from './send-text.js';
import { HOME_OF, SPECS, baseEnv } from './vendors.js';

const QUESTION = 'what number did I ask you to remember';
const PASS = 'diagnostic passphrase';
const list = (v: string | undefined, d: string) => (v ?? d).split(',').map(Number);
const DELAYS = list(process.env.BATON_DROP_DELAYS, '0,150,300,600,1000,2000');
const REPS = Number(process.env.BATON_DROP_REPS ?? 2);
const SENDS = Number(process.env.BATON_DROP_SENDS ?? 4);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What a chunk of output shows that can mark when the CLI takes keys. */
const MARKERS: Record<string, RegExp> = {
  box: /Type your message/,
  resuming: /Resuming session/,
  clear: /\x1b\[2J|\x1b\[3J|\x1bc/,
  history: /16180/,
  typed: /didIaskyou/,
};

interface Machine {
  client: RpcClient;
  server: ServerProcess;
  cwd: string;
}

const root = mkdtempSync(join(tmpdir(), 'baton-resume-drop-'));
const servers: ServerProcess[] = [];
let mock: MockModel;

async function machine(bin: string, version: string, name: string, project: string): Promise<Machine> {
  const base = join(root, name);
  const cwd = join(base, project);
  mkdirSync(cwd, { recursive: true });
  const env = {
    ...baseEnv(HOME_OF(base)),
    ...SPECS.gemini.setup({ root: base, cwd, mockUrl: mock.url, version }),
    BATON_GEMINI_BIN: bin,
  };
  const server = await startServer(join(base, 'data'), env);
  servers.push(server);
  return { client: await server.connect(), server, cwd };
}

async function stop(s: ServerProcess): Promise<void> {
  if (s.child.exitCode === null) s.child.kill('SIGTERM');
  await Promise.race([s.exited, sleep(15_000)]);
  if (s.child.exitCode === null) s.child.kill('SIGKILL');
}

function killByHome(home: string): void {
  for (const pid of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      if (readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(`HOME=${home}`))
        process.kill(Number(pid), 'SIGKILL');
    } catch {
      /* gone */
    }
  }
}

interface Trial {
  mode: string;
  drawn: boolean;
  reached: boolean;
  /** ms from the first box to each marker's first and last sight. */
  marks: string;
}

async function trial(bundle: string, from: string, bin: string, version: string, i: number, delay: number | null) {
  const b = await machine(bin, version, `b${i}`, 'moved');
  const t0 = Date.now();
  const imported = await b.client.call('bundle.import', { bundle, passphrase: PASS, map: { [from]: b.cwd } });
  const agentId = imported.run.agents[0]!.id;
  const seen: Record<string, number[]> = {};
  let firstBox: number | null = null;
  const chunks: string[] = [];
  const decoder = new TextDecoder();
  const stream = await b.client.attach(
    agentId,
    { fromOffset: 0, autoAck: true },
    {
      onData(data) {
        const text = decoder.decode(data, { stream: true });
        const at = Date.now() - t0;
        const kinds = Object.entries(MARKERS).filter(([k, re]) =>
          re.test(k === 'typed' ? text.replace(/\s/g, '') : text),
        );
        chunks.push(`${at}ms ${text.length}b ${kinds.map(([k]) => k).join(',')}`);
        for (const [k] of kinds) (seen[k] ??= []).push(at);
        if (firstBox === null && MARKERS.box!.test(text)) firstBox = at;
      },
      onReset() {},
    },
  );
  const mark = mock.mark();
  const reached = () => mock.log().some((e) => e.seq > mark && e.lastUser.includes(QUESTION));
  let mode: string;
  if (delay === null) {
    mode = 'agent.send at spawn';
    await b.client.call('agent.send', { agentId, text: QUESTION });
    chunks.push(`SEND-RETURNED@${Date.now() - t0}`);
  } else {
    mode = `agent.write box+${delay}ms`;
    await waitFor(() => firstBox !== null, 'the box', 90_000);
    await sleep(delay);
    chunks.push(`WRITE@${Date.now() - t0}`);
    await b.client.call('agent.write', { agentId, data: QUESTION });
    await waitFor(() => seen.typed !== undefined, 'the echo', 4000).catch(() => undefined);
    await sleep(1000);
    await b.client.call('agent.write', { agentId, data: '\r' });
  }
  await waitFor(reached, 'the mock', 20_000).catch(() => undefined);
  const base = firstBox ?? 0;
  const marks = Object.entries(seen)
    .map(([k, ts]) => `${k}:${ts[0]! - base}..${ts.at(-1)! - base}(${ts.length})`)
    .join(' ');
  const result: Trial = { mode, drawn: seen.typed !== undefined, reached: reached(), marks };
  if (process.env.BATON_DROP_TIMELINE === '1') console.log(`  timeline: ${chunks.join(' | ')}`);
  stream.detach();
  b.client.close();
  await stop(b.server);
  killByHome(HOME_OF(join(root, `b${i}`)));
  return result;
}

async function main(): Promise<void> {
  const inst = await ensureInstalled('gemini');
  if (!inst.ok) throw new Error(`gemini: ${inst.reason}`);
  mock = await startMockModel();
  const a = await machine(inst.bin, inst.versionText, 'a', 'project');
  const run = await a.client.call('run.start', {
    name: 'carry',
    agents: [{ vendor: 'gemini', label: 'agent', cwd: a.cwd, args: [] }],
  });
  const agentId = run.agents[0]!.id;
  await waitFor(
    async () => /Type your message/.test((await a.client.call('agent.screen', { agentId })).text),
    'prompt',
    90_000,
  );
  const m = mock.mark();
  const text = 'remember the number 16180';
  await sendUntilAsked(
    a.client,
    agentId,
    text,
    () => mock.log().some((e) => e.seq > m && e.lastUser.includes(text)),
    Date.now() + 40_000,
  );
  await waitFor(
    async () => (await a.client.call('agent.screen', { agentId })).text.includes(rememberReply('16180')),
    'reply',
    60_000,
  );
  await sleep(3000); // the transcript written
  await a.client.call('run.stop', { run: 'carry' });
  const { bundle } = await a.client.call('bundle.export', { run: 'carry', passphrase: PASS });
  a.client.close();
  await stop(a.server);
  const plan: (number | null)[] = [];
  for (let r = 0; r < REPS; r++) plan.push(...DELAYS);
  for (let s = 0; s < SENDS; s++) plan.push(null);
  let i = 0;
  for (const delay of plan) {
    const t = await trial(bundle, a.cwd, inst.bin, inst.versionText, i++, delay);
    const load = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
    console.log(
      `${t.mode.padEnd(24)} drawn=${t.drawn ? 'y' : 'n'} reached=${t.reached ? 'y' : 'n'} load=${load} ${t.marks}`,
    );
  }
}

main()
  .catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  })
  .finally(async () => {
    for (const s of servers) await stop(s).catch(() => undefined);
    await mock?.close();
    for (const n of readdirSync(root)) killByHome(HOME_OF(join(root, n)));
    rmSync(root, { recursive: true, force: true });
  });
