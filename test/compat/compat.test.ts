// The real vendor CLIs (pinned versions from npm) inside Baton's PTYs, against the project's own mock model.
// Per vendor, through a real `baton serve` whose agents inherit an environment that points the CLI at the mock
// only (docs/vendors.md §12.2): start a run, type "remember the number N", snapshot, stop, resume from the handle, ask,
// and see N come back, on the screen and in the mock's log (a request whose history has N while its last user
// message does not); a control run that was not resumed must not know N. After every stop no process of the
// agent may remain. And every flag the adapter passes must appear in the CLI's own --help.
// A vendor whose CLI cannot be installed or started is skipped with its reason (vitest and the report), never passed.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import type { AgentView, RunView } from '../../shared/contract.js';
import type { VendorName } from '../../shared/words.js';
import type { AgentContext, VendorAdapter } from '../../electron/core/vendors/adapter.js';
import { createVendors } from '../../electron/core/vendors/registry.js';
import { descendants, markOf, readProc, waitAllGone, killMarks, type ProcMark } from '../helpers/processes.js';
import { startServer, tempDir, waitFor, type ServerProcess } from '../helpers/server.js';
import {
  PINS,
  cacheRoot,
  ensureInstalled,
  run as runCommand,
  type CompatVendor,
  type InstallResult,
} from './install.js';
import {
  DONT_KNOW,
  recallReply,
  rememberReply,
  startMockModel,
  type LoggedRequest,
  type MockModel,
} from './mock-model.js';
import { conversationCalls, describeCalls, readCost } from './cost-check.js';
import { declareVendor, recordCheck, recordInstall, writeReport, type Status } from './report.js';
import { HOME_OF, ORDER, SPECS, baseEnv, type CompatVendorSpec } from './vendors.js';

const QUESTION = 'what number did I ask you to remember';
const KEEP = process.env.BATON_COMPAT_KEEP === '1';
const SELECTED = (process.env.BATON_COMPAT_VENDORS ?? '')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);

let mock: MockModel;

/**
 * What the developer's own HOME holds, three levels deep, minus the compat cache and npm's: every real CLI runs
 * with a HOME of its own, so nothing may appear here while the suite runs.
 */
function homeEntries(): Set<string> {
  const home = homedir();
  const skip = [cacheRoot(), join(home, '.npm')];
  const found = new Set<string>();
  const walk = (dir: string, depth: number): void => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(dir, name);
      if (skip.some((s) => path === s || path.startsWith(`${s}/`))) continue;
      found.add(relative(home, path));
      if (depth < 3) walk(path, depth + 1);
    }
  };
  walk(home, 1);
  return found;
}
const homeBefore = homeEntries();

beforeAll(async () => {
  mock = await startMockModel({ verbose: process.env.BATON_COMPAT_VERBOSE === '1' });
});

afterAll(async () => {
  writeReport();
  await mock?.close();
});

// ---------- helpers ----------

const seconds = (since: number) => Math.round((Date.now() - since) / 100) / 10;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Installs once per vendor, however many tests ask. */
const installs = new Map<CompatVendor, Promise<InstallResult>>();
function installed(vendor: CompatVendor): Promise<InstallResult> {
  let p = installs.get(vendor);
  if (!p) {
    p = ensureInstalled(vendor).then((r) => {
      recordInstall(vendor, r.ok ? r.versionText : null, r.seconds);
      return r;
    });
    installs.set(vendor, p);
  }
  return p;
}

/** Records a check's result in the report, turning skips into vitest skips and failures into thrown errors. */
async function check(
  ctx: TestContext,
  vendor: CompatVendor,
  name: string,
  body: (skip: (why: string) => never) => Promise<string | null>,
): Promise<void> {
  const t0 = Date.now();
  const done = (status: Status, detail: string | null) =>
    recordCheck(vendor, { name, status, detail, seconds: seconds(t0) });
  class Skip extends Error {}
  const skip = (why: string): never => {
    throw new Skip(why);
  };
  let note: string | null;
  try {
    note = await body(skip);
  } catch (err) {
    if (err instanceof Skip) {
      done('skip', err.message);
      process.stderr.write(`compat: ${vendor} ${name} SKIPPED: ${err.message}\n`);
      ctx.skip(err.message);
    }
    // The report keeps the failure itself; the diagnostics appended after it (server output, mock log) stay in vitest's.
    const message = (err instanceof Error ? err.message : String(err)).split('\n--- ')[0]!;
    done('fail', message.split('\n').slice(0, 3).join(' ').slice(0, 400));
    throw err;
  }
  done('pass', note);
}

async function requireInstalled(
  vendor: CompatVendor,
  skip: (why: string) => never,
): Promise<{ bin: string; versionText: string; adapter: VendorAdapter }> {
  const inst = await installed(vendor);
  if (!inst.ok) skip(`${PINS[vendor].pkg}@${PINS[vendor].version} could not be installed or started: ${inst.reason}`);
  const adapter = createVendors().get(vendor as VendorName);
  if (!adapter) skip(`this build of Baton has no ${vendor} adapter (electron/core/vendors/registry.ts)`);
  return { bin: inst.bin, versionText: inst.versionText, adapter: adapter! };
}

async function screenOf(client: RpcClient, agentId: string): Promise<string> {
  return (await client.call('agent.screen', { agentId })).text;
}

/** Waits until the screen matches any of `patterns`; the error carries the last screen seen. */
async function waitScreen(
  client: RpcClient,
  agentId: string,
  patterns: readonly RegExp[],
  ms: number,
  what: string,
): Promise<string> {
  const deadline = Date.now() + ms;
  let last = '';
  for (;;) {
    try {
      last = await screenOf(client, agentId);
      if (patterns.some((p) => p.test(last))) return last;
    } catch (err) {
      last = `(no screen: ${String(err)})`;
    }
    if (Date.now() > deadline)
      throw new Error(`timed out after ${ms / 1000} s waiting for ${what}; the screen showed:\n${trimScreen(last)}`);
    await sleep(250);
  }
}

const trimScreen = (s: string) =>
  s
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l, i, all) => l !== '' || (all[i - 1] ?? '') !== '')
    .slice(-45)
    .join('\n');

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface Said {
  /** Extra Enters the test had to press because the CLI kept the text in its input box. */
  extraEnters: number;
  /** What the screen's bottom showed when the first extra Enter was needed (where the typed text was). */
  stuck: string | null;
  screen: string;
  /** The mock's requests since the text was typed. */
  requests: LoggedRequest[];
}

/**
 * Types `text` with Baton's own agent.send (text, the adapter's pause, Enter), then waits for a request with it to
 * reach the mock and for `expected` on the screen. A CLI under load may still take Enter as part of a paste
 * (docs/vendors.md §12.3): if no request came within 10 s, Enter is pressed again, at most twice, and that is reported.
 */
async function say(
  client: RpcClient,
  agentId: string,
  text: string,
  expected: RegExp,
  spec: CompatVendorSpec,
): Promise<Said> {
  const mark = mock.mark();
  await client.call('agent.send', { agentId, text });
  let extraEnters = 0;
  let stuck: string | null = null;
  let lastEnter = Date.now();
  const reached = () => mock.log().some((e) => e.seq > mark && e.lastUser.includes(text));
  const deadline = Date.now() + spec.answerMs;
  while (!reached()) {
    if (Date.now() > deadline) {
      throw new Error(
        `'${text}' never reached the mock model (${extraEnters} extra Enter); the screen showed:\n${trimScreen(await screenOf(client, agentId))}`,
      );
    }
    if (Date.now() - lastEnter > 10_000 && extraEnters < 2) {
      if (stuck === null) {
        const bottom = (await screenOf(client, agentId))
          .split('\n')
          .map((l) => l.trim())
          .filter(Boolean)
          .slice(-8);
        stuck = bottom.some((l) => l.includes(text))
          ? 'the text sat in the input box'
          : 'the text was not in the input box';
      }
      await client.call('agent.write', { agentId, data: '\r' });
      extraEnters++;
      lastEnter = Date.now();
    }
    await sleep(200);
  }
  const screen = await waitScreen(
    client,
    agentId,
    [expected],
    Math.max(5000, deadline - Date.now()),
    `${expected} on the screen`,
  );
  return { extraEnters, stuck, screen, requests: mock.log().filter((e) => e.seq > mark) };
}

// ---------- processes ----------

function environOf(pid: number): string[] | null {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0');
  } catch {
    return null;
  }
}

function cmdlineOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0').join(' ').trim();
  } catch {
    return '';
  }
}

/**
 * Every live process whose environment has this journey's HOME (so: started by its `baton serve` or by an agent
 * of it, daemons and re-parented helpers included), except the given pids.
 */
function processesWithHome(
  home: string,
  except: readonly number[],
): { pid: number; comm: string; cmdline: string; mark: ProcMark }[] {
  const out: { pid: number; comm: string; cmdline: string; mark: ProcMark }[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    if (pid === process.pid || except.includes(pid)) continue;
    const env = environOf(pid);
    if (!env || !env.includes(`HOME=${home}`)) continue;
    const p = readProc(pid);
    if (!p || p.state === 'Z' || p.state === 'X') continue;
    out.push({ pid, comm: p.comm, cmdline: cmdlineOf(pid).slice(0, 200), mark: markOf(p) });
  }
  return out;
}

/** The agent's process and everything below it, now. */
function agentTree(pid: number | null): ProcMark[] {
  if (pid === null) return [];
  const root = readProc(pid);
  return [...(root ? [markOf(root)] : []), ...descendants(pid).map(markOf)];
}

/** After a stop: the agent's whole tree is gone, and nothing else with this HOME outlives it but the server. */
async function expectNoOrphans(
  vendor: CompatVendor,
  tree: readonly ProcMark[],
  home: string,
  serverPid: number,
  when: string,
): Promise<void> {
  const alive = await waitAllGone(tree, 10_000);
  expect(
    alive.map((m) => `${m.pid} ${m.comm ?? ''}`),
    `${vendor}: processes of the agent still alive ${when}`,
  ).toEqual([]);
  let left = processesWithHome(home, [serverPid]);
  const deadline = Date.now() + 10_000;
  while (left.length > 0 && Date.now() < deadline) {
    await sleep(250);
    left = processesWithHome(home, [serverPid]);
  }
  const daemons = left.filter((p) => /app-server|pid-update-loop/.test(p.cmdline));
  if (vendor === 'codex')
    expect(
      daemons.map((p) => `${p.pid} ${p.cmdline}`),
      `codex app-server daemon left ${when}`,
    ).toEqual([]);
  expect(
    left.map((p) => `${p.pid} ${p.comm}: ${p.cmdline}`),
    `processes started for the ${vendor} agent still alive ${when}`,
  ).toEqual([]);
}

// ---------- flags ----------

/** `--x` / `-x` tokens after argv[0] (a `--flag=value` counts as `--flag`). */
export function flagsOf(argv: readonly string[]): string[] {
  return argv
    .slice(1)
    .filter((t) => /^--?[A-Za-z]/.test(t))
    .map((t) => t.split('=')[0]!);
}

/** The subcommand a plan runs (`codex resume …`), if its first argument is not a flag. */
function subcommandOf(argv: readonly string[]): string | null {
  const first = argv[1];
  return first !== undefined && !first.startsWith('-') ? first : null;
}

function helpMentions(help: string, flag: string): boolean {
  return new RegExp(`(^|[\\s,\\[(|/"'\`])${escapeRe(flag)}(?=$|[\\s,=\\]\\[<)|."'\`])`, 'm').test(help);
}

function dummyId(vendor: CompatVendor): string {
  if (vendor === 'opencode') {
    const b62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
    const tail = [...randomBytes(14)].map((b) => b62[b % 62]).join('');
    return `ses_${randomBytes(6).toString('hex')}${tail}`;
  }
  return randomUUID();
}

/** What the journey learned that the flag check can use: the real resume argv of a real session. */
const resumeArgvSeen = new Map<CompatVendor, string[]>();

// ---------- the journey ----------

interface Journey {
  root: string;
  home: string;
  cwd: string;
  env: Record<string, string>;
  server: ServerProcess | null;
  clients: RpcClient[];
}

function prepare(vendor: CompatVendor, spec: CompatVendorSpec, bin: string, versionText: string): Journey {
  const root = realpathSync(tempDir(`baton-compat-${vendor}-`));
  const home = HOME_OF(root);
  const cwd = join(root, 'project');
  mkdirSync(cwd, { recursive: true });
  const env = {
    ...baseEnv(home),
    ...spec.setup({ root, cwd, mockUrl: mock.url, version: versionText }),
    [`BATON_${vendor.toUpperCase()}_BIN`]: bin,
  };
  return { root, home, cwd, env, server: null, clients: [] };
}

async function teardown(j: Journey, failed: boolean): Promise<void> {
  for (const c of j.clients.splice(0)) c.close();
  if (j.server) {
    const s = j.server;
    if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGTERM');
    const ended = await Promise.race([s.exited, sleep(15_000).then(() => null)]);
    if (ended === null) {
      s.child.kill('SIGKILL');
      await s.exited;
    }
  }
  // Whatever this journey started and is still there (after a failure): end it by pid.
  killMarks(processesWithHome(j.home, []).map((p) => p.mark));
  // A failed journey's folder (its HOME: the CLI's own logs and transcripts) is kept for a person to look at; not in CI.
  if (KEEP || (failed && !process.env.CI)) process.stderr.write(`compat: kept ${j.root} for inspection\n`);
  else rmSync(j.root, { recursive: true, force: true });
}

function agentOf(run: RunView): AgentView {
  const a = run.agents[0];
  if (!a) throw new Error(`run ${run.name} has no agent`);
  return a;
}

async function journey(
  vendor: CompatVendor,
  spec: CompatVendorSpec,
  bin: string,
  versionText: string,
  adapter: VendorAdapter,
): Promise<string> {
  const j = prepare(vendor, spec, bin, versionText);
  const n = String(10_000 + Math.floor(Math.random() * 90_000));
  const notes: string[] = [];
  const times: string[] = [];
  let t = Date.now();
  const lap = (what: string) => {
    times.push(`${what} ${seconds(t)}s`);
    t = Date.now();
  };
  let failed = true;
  const journeyMark = mock.mark();
  try {
    j.server = await startServer(join(j.root, 'data'), j.env);
    const serverPid = j.server.child.pid!;
    const client = await j.server.connect();
    j.clients.push(client);

    // 1. A run with one agent of this vendor; tell it the number.
    const started = await client.call('run.start', {
      name: `compat-${vendor}`,
      agents: [{ vendor, label: 'agent', cwd: j.cwd, args: [...spec.args] }],
    });
    const first = agentOf(started);
    expect(first.status, `the ${vendor} agent did not start: ${first.warning ?? ''}`).toBe('running');
    await waitScreen(client, first.id, spec.ready, spec.readyMs, `the ${vendor} prompt (${spec.ready.join(' or ')})`);
    lap('start');
    const told = await say(client, first.id, `remember the number ${n}`, new RegExp(escapeRe(rememberReply(n))), spec);
    if (told.extraEnters > 0)
      notes.push(`the first prompt needed ${told.extraEnters} extra Enter(s) after agent.send (${told.stuck})`);
    lap('remember');

    // 2. Snapshot once Baton knows the vendor's session (Codex: discovered; the others: chosen and confirmed).
    const known = await waitFor(
      async () => {
        const r = await client.call('run.get', { run: started.id });
        const a = agentOf(r);
        return a.sessionId && a.sessionIds.at(-1)?.confirmed ? a : undefined;
      },
      `Baton to know and confirm the ${vendor} session`,
      30_000,
    );
    const sessionId = known.sessionId!;
    await client.call('run.snapshot', { run: started.id });
    const { handle } = await client.call('run.handle', { run: started.id });

    // 3. Stop: nothing of the agent may remain.
    const treeOne = agentTree(known.pid);
    expect(treeOne.length, 'the agent process tree was found').toBeGreaterThan(0);
    // The orphan check below finds processes by this journey's HOME: it must see the live agent now.
    expect(
      processesWithHome(j.home, [serverPid]).map((p) => p.pid),
      'the HOME scan sees the live agent',
    ).toContain(known.pid);
    const stopped = await client.call('run.stop', { run: started.id });
    expect(agentOf(stopped).pid).toBeNull();
    await expectNoOrphans(vendor, treeOne, j.home, serverPid, 'after run.stop');
    lap('snapshot+stop');

    // What Baton would run to resume, as the flag check will verify against --help.
    const ctx: AgentContext = { runName: `compat-${vendor}`, label: 'agent', cwd: j.cwd, args: [], command: null };
    const resumePlan = await adapter.planResume(
      ctx,
      { sessionId, chosenBy: known.sessionIds.at(-1)!.chosenBy, confirmed: true },
      j.env,
    );
    expect(resumePlan.outcome, `${vendor}: the adapter plans to resume the session it just had`).toBe('resumed');
    resumeArgvSeen.set(vendor, resumePlan.argv);

    // 4. Resume from the handle and ask: the number comes back, from the history the CLI sent again.
    const resumed = await client.call('run.resume', { handle });
    expect(resumed.outcomes.map((o) => `${o.outcome} ${o.message ?? ''}`.trim())).toEqual(['resumed']);
    const second = agentOf(resumed.run);
    expect(second.sessionId).toBe(sessionId);
    await waitScreen(client, second.id, spec.ready, spec.readyMs, `the resumed ${vendor} prompt`);
    lap('resume');
    const asked = await say(client, second.id, QUESTION, new RegExp(escapeRe(recallReply(n))), spec);
    if (asked.extraEnters > 0)
      notes.push(
        `the question after resume needed ${asked.extraEnters} extra Enter(s) after agent.send (${asked.stuck})`,
      );
    const fromHistory = asked.requests.filter(
      (e) =>
        e.lastUser.includes(QUESTION) &&
        !e.lastUser.includes(n) &&
        e.historyNumber === n &&
        e.fromHistory &&
        e.reply === recallReply(n),
    );
    expect(
      fromHistory.length,
      `the mock saw the resumed ${vendor} send N=${n} in its history: ${summarise(asked.requests)}`,
    ).toBeGreaterThan(0);
    lap('recall');

    // 4b. Cost: the tokens Baton reads from the transcripts this CLI wrote are exactly what the mock reported.
    const { calls, unrecorded } = conversationCalls(
      mock.log().filter((e) => e.seq > journeyMark),
      spec.unrecordedCalls,
    );
    const cost = await readCost(client, started.id, calls, 15_000);
    expect(
      cost.read,
      `${vendor}: tokens read from its transcripts (${cost.cost.agents[0]?.note ?? 'no note'}) vs the mock's calls: ${describeCalls(calls)}`,
    ).toEqual({ input: cost.expected.input, cached: cost.expected.cached, output: cost.expected.output });
    notes.push(
      `cost: ${cost.expected.calls} calls, ${cost.expected.input} in (${cost.expected.cached} from cache) + ${cost.expected.output} out read exactly` +
        (unrecorded.length > 0
          ? `; ${unrecorded.length} other model calls the CLI made that its transcript does not record (titles, routing, side calls)`
          : ''),
    );

    const treeTwo = agentTree(agentOf(await client.call('run.get', { run: started.id })).pid);
    await client.call('run.stop', { run: started.id });
    await expectNoOrphans(vendor, treeTwo, j.home, serverPid, 'after stopping the resumed agent');

    // 5. Control: a run that was not resumed, in the same directory, does not know the number.
    const control = await client.call('run.start', {
      name: `compat-${vendor}-control`,
      agents: [{ vendor, label: 'control', cwd: j.cwd, args: [...spec.args] }],
    });
    const fresh = agentOf(control);
    expect(fresh.status).toBe('running');
    expect(
      fresh.sessionId === null || fresh.sessionId !== sessionId,
      'the control agent has a session of its own',
    ).toBe(true);
    await waitScreen(client, fresh.id, spec.ready, spec.readyMs, `the control ${vendor} prompt`);
    const unknown = await say(client, fresh.id, QUESTION, new RegExp(escapeRe(DONT_KNOW)), spec);
    if (unknown.extraEnters > 0)
      notes.push(
        `the control question needed ${unknown.extraEnters} extra Enter(s) after agent.send (${unknown.stuck})`,
      );
    expect(unknown.screen).not.toContain(recallReply(n));
    const controlTurns = unknown.requests.filter((e) => e.lastUser.includes(QUESTION));
    expect(
      controlTurns.some((e) => e.reply === DONT_KNOW),
      summarise(unknown.requests),
    ).toBe(true);
    expect(
      controlTurns.filter((e) => e.historyNumber === n),
      'the control run sent no history with N',
    ).toEqual([]);
    lap('control');

    const treeThree = agentTree(agentOf(await client.call('run.get', { run: control.id })).pid);
    await client.call('run.stop', { run: control.id });
    await expectNoOrphans(vendor, treeThree, j.home, serverPid, 'after stopping the control agent');

    // 6. The server goes too: nothing started for this journey outlives it.
    for (const c of j.clients.splice(0)) c.close();
    j.server.child.kill('SIGTERM');
    expect(await j.server.exited).toEqual({ code: 0, signal: null });
    await expectNoOrphans(vendor, [], j.home, -1, 'after baton serve stopped');
    j.server = null;
    failed = false;
    return [`N=${n}`, times.join(', '), ...notes].join('; ');
  } catch (err) {
    if (j.server && err instanceof Error)
      err.message += `\n--- baton serve output (tail) ---\n${j.server.output().slice(-3000)}`;
    if (err instanceof Error) err.message += `\n--- mock log (last 12) ---\n${summarise(mock.log().slice(-12))}`;
    throw err;
  } finally {
    await teardown(j, failed);
  }
}

function summarise(entries: readonly LoggedRequest[]): string {
  return entries
    .map(
      (e) =>
        `#${e.seq} ${e.method} ${e.path} ${e.api} users=${e.userMessages} hist=${e.historyNumber ?? '-'} last="${e.lastUser.slice(-60).replace(/\s+/g, ' ')}" -> ${e.status} "${e.reply.slice(0, 40)}"`,
    )
    .join('\n');
}

// ---------- the flag check ----------

async function flagCheck(
  vendor: CompatVendor,
  spec: CompatVendorSpec,
  bin: string,
  versionText: string,
  adapter: VendorAdapter,
): Promise<string> {
  const j = prepare(vendor, spec, bin, versionText);
  try {
    const ctx: AgentContext = { runName: 'compat', label: 'agent', cwd: j.cwd, args: [], command: null };
    const id = dummyId(vendor);
    const plans: string[][] = [
      (await adapter.spawnFresh(ctx, j.env)).argv,
      (await adapter.planResume(ctx, { sessionId: id, chosenBy: 'baton', confirmed: false }, j.env)).argv,
      (await adapter.planResume(ctx, { sessionId: id, chosenBy: 'vendor', confirmed: true }, j.env)).argv,
      adapter.resumeCommand(id),
    ];
    const seen = resumeArgvSeen.get(vendor);
    if (seen) plans.push(seen);

    const helps = new Map<string, string>();
    const helpOf = async (sub: string | null): Promise<string> => {
      const key = sub ?? '';
      let text = helps.get(key);
      if (text === undefined) {
        const r = await runCommand([bin, ...(sub ? [sub] : []), '--help'], { cwd: j.cwd, env: j.env, ms: 60_000 });
        text = r.out;
        if (r.timedOut || text.trim() === '')
          throw new Error(
            `${bin} ${sub ?? ''} --help printed nothing (exit ${r.code}${r.timedOut ? ', timed out' : ''})`,
          );
        helps.set(key, text);
      }
      return text;
    };

    const missing: string[] = [];
    const checked = new Set<string>();
    for (const argv of plans) {
      const sub = subcommandOf(argv);
      if (sub && !helpMentions(await helpOf(null), sub))
        missing.push(`subcommand '${sub}' (in ${argv.slice(1).join(' ')})`);
      const help = await helpOf(sub);
      for (const flag of flagsOf(argv)) {
        const key = `${sub ?? ''} ${flag}`;
        if (checked.has(key)) continue;
        checked.add(key);
        if (!helpMentions(help, flag))
          missing.push(`${flag} (${sub ? `${sub} --help` : '--help'}; in ${argv.slice(1).join(' ')})`);
      }
    }
    expect(missing, `flags Baton's ${vendor} adapter passes that \`${vendor} --help\` does not mention`).toEqual([]);
    expect(checked.size).toBeGreaterThan(0);
    return `checked ${[...checked].map((k) => k.trim()).join(', ')}${seen ? '' : ' (no real resume argv: the journey did not get that far)'}`;
  } finally {
    await teardown(j, false);
  }
}

// ---------- one describe per vendor ----------

for (const vendor of ORDER) {
  const spec = SPECS[vendor];
  const pin = PINS[vendor];
  const chosen = SELECTED.length === 0 || SELECTED.includes(vendor);
  if (chosen) declareVendor(vendor, pin.version);
  const suite = chosen ? describe.sequential : describe.skip;

  suite(`${vendor} ${pin.version}`, () => {
    it(
      `${vendor}: a resumed agent remembers the number; a fresh one does not; nothing outlives a stop`,
      async (ctx) => {
        await check(ctx, vendor, 'journey', async (skip) => {
          const { bin, versionText, adapter } = await requireInstalled(vendor, skip);
          return journey(vendor, spec, bin, versionText, adapter);
        });
      },
      pin.installTimeoutMs + spec.journeyMs,
    );

    it(
      `${vendor}: every flag the adapter passes appears in the CLI's --help`,
      async (ctx) => {
        await check(ctx, vendor, '--help flags', async (skip) => {
          const { bin, versionText, adapter } = await requireInstalled(vendor, skip);
          return flagCheck(vendor, spec, bin, versionText, adapter);
        });
      },
      pin.installTimeoutMs + 120_000,
    );
  });
}

describe("the developer's own HOME", () => {
  it('gains nothing from installing and running the real CLIs', () => {
    const added = [...homeEntries()].filter((e) => !homeBefore.has(e));
    expect(added, `entries the compat suite created in ${homedir()}`).toEqual([]);
  });
});
