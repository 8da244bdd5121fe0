// Forks and bundles with the real vendor CLIs against the project's mock model (docs/bundles.md), through a real
// `baton serve` per "machine" (its own HOME and data directory):
// - fork: tell an agent "remember N", fork the run, tell the fork "now remember M": the fork answers M, the original
//   still answers N. A vendor that cannot fork says so in the outcome, and the test checks that it says so.
// - bundle: export under one HOME, import under a fresh HOME and data directory with another project path, resume,
//   ask: the agent answers N from the conversation the bundle carried.
// Select vendors with BATON_COMPAT_VENDORS=claude,qwen; a vendor whose CLI cannot be installed is skipped with why.
import { readdirSync, readFileSync, mkdirSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import type { AgentView, RunView } from '../../shared/contract.js';
import { createVendors } from '../../electron/core/vendors/registry.js';
import { startServer, tempDir, waitFor, type ServerProcess } from '../helpers/server.js';
import { ensureInstalled, type CompatVendor } from './install.js';
import { recallReply, rememberReply, startMockModel, type MockModel } from './mock-model.js';
import { HOME_OF, ORDER, SPECS, baseEnv } from './vendors.js';
import { sendUntilAsked } from './send-text.js';

const QUESTION = 'what number did I ask you to remember';
const PASS = 'compat bundle passphrase';
const SELECTED = (process.env.BATON_COMPAT_VENDORS ?? '')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);

/** How each vendor's fork carries the conversation (what run.fork must report). */
const FORK_METHOD: Record<CompatVendor, 'native' | 'copy' | 'none'> = {
  claude: 'native',
  codex: 'native',
  opencode: 'none',
  qwen: 'copy',
  gemini: 'copy',
  copilot: 'none',
};
/** Vendors whose transcripts a bundle carries. */
const BUNDLED: readonly CompatVendor[] = ['claude', 'codex', 'gemini', 'qwen'];

let mock: MockModel;
const roots: string[] = [];
const servers: ServerProcess[] = [];
const clients: RpcClient[] = [];

beforeAll(async () => {
  mock = await startMockModel();
});

afterAll(async () => {
  for (const c of clients.splice(0)) c.close();
  for (const s of servers.splice(0)) await stopServer(s);
  await mock?.close();
  // Whatever a CLI left running under one of these HOMEs (a daemon) ends with its folder.
  for (const r of roots.splice(0)) {
    killByHome(HOME_OF(join(r, 'a')));
    killByHome(HOME_OF(join(r, 'b')));
    if (process.env.BATON_COMPAT_KEEP !== '1') rmSync(r, { recursive: true, force: true });
  }
});

async function stopServer(s: ServerProcess): Promise<void> {
  if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGTERM');
  const ended = await Promise.race([s.exited, new Promise((r) => setTimeout(() => r(null), 15_000))]);
  if (ended === null) s.child.kill('SIGKILL');
}

function killByHome(home: string): void {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${name}/environ`, 'latin1').split('\0').includes(`HOME=${home}`))
        process.kill(Number(name), 'SIGKILL');
    } catch {
      /* gone, or not ours to read */
    }
  }
}

interface Machine {
  cwd: string;
  env: Record<string, string>;
  client: RpcClient;
  server: ServerProcess;
}

/** A HOME, a data directory and a project of its own under `<root>/<name>`, with a server on them. */
async function machine(
  vendor: CompatVendor,
  bin: string,
  version: string,
  root: string,
  name: string,
  project: string,
) {
  const base = join(root, name);
  const cwd = join(base, project);
  mkdirSync(cwd, { recursive: true });
  const spec = SPECS[vendor];
  const env = {
    ...baseEnv(HOME_OF(base)),
    ...spec.setup({ root: base, cwd, mockUrl: mock.url, version }),
    [`BATON_${vendor.toUpperCase()}_BIN`]: bin,
  };
  const server = await startServer(join(base, 'data'), env);
  servers.push(server);
  const client = await server.connect();
  clients.push(client);
  return { cwd, env, client, server } satisfies Machine;
}

/** How long a transcript must stay unchanged before it is taken as written. */
const STILL_MS = 1000;
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function screen(client: RpcClient, agentId: string): Promise<string> {
  return (await client.call('agent.screen', { agentId })).text;
}

async function ready(client: RpcClient, vendor: CompatVendor, agentId: string): Promise<void> {
  const spec = SPECS[vendor];
  await waitFor(
    async () => {
      const text = await screen(client, agentId);
      return spec.ready.some((p) => p.test(text));
    },
    `the ${vendor} prompt`,
    spec.readyMs,
  );
}

/** Types `text` (agent.send, retried as `sendUntilAsked` says) until the mock got it; waits for `reply`. */
async function say(client: RpcClient, vendor: CompatVendor, agentId: string, text: string, reply: string) {
  const mark = mock.mark();
  const reached = () => mock.log().some((e) => e.seq > mark && e.lastUser.includes(text));
  await sendUntilAsked(client, agentId, text, reached, Date.now() + 40_000);
  const expected = new RegExp(escapeRe(reply));
  try {
    await waitFor(
      async () => expected.test(await screen(client, agentId)),
      `'${reply}' on the ${vendor} screen`,
      SPECS[vendor].answerMs,
    );
  } catch (err) {
    // A CI failure must say what the CLI showed and what the model was asked, or it can't be told from a flake.
    const asked = mock
      .log()
      .filter((e) => e.seq > mark)
      .map(
        (e) =>
          `  ${e.api} ${e.status} user#${e.userMessages} last=${JSON.stringify(e.lastUser.slice(-80))} → ${JSON.stringify(e.reply.slice(0, 80))}`,
      );
    const tail = (await screen(client, agentId).catch(() => '(no screen)')).split('\n').slice(-25).join('\n');
    throw new Error(
      `${String(err)}\nmodel requests since '${text}':\n${asked.join('\n') || '  (none)'}\nscreen tail:\n${tail}`,
    );
  }
}

async function confirmedAgent(client: RpcClient, run: string): Promise<AgentView> {
  return waitFor(
    async () => {
      const a = (await client.call('run.get', { run })).agents[0]!;
      return a.sessionId && a.sessionIds.at(-1)?.confirmed ? a : undefined;
    },
    'the session known and confirmed',
    30_000,
  );
}

/**
 * Until the vendor's transcript holds `text` and has then been still for a second: a CLI may show an answer seconds
 * before it writes it (Qwen writes the turn at its end), and a fork or an export copies what is written. Qwen also
 * writes the answer's text in a telemetry record some milliseconds before the conversation's own record; a copy made
 * between the two held the question without its answer (a compat run here failed so), hence the stillness.
 */
async function written(vendor: CompatVendor, m: Machine, agent: AgentView, text: string): Promise<void> {
  const files = createVendors().get(vendor)?.transcripts;
  if (!files) return;
  let last = { size: -1, since: 0 };
  await waitFor(
    async () => {
      const path = await files.locate(agent.sessionId!, agent.cwd, m.env);
      if (path === null) return false;
      const body = readFileSync(path, 'utf8');
      if (!body.includes(text)) return false;
      if (body.length !== last.size) last = { size: body.length, since: Date.now() };
      return Date.now() - last.since >= STILL_MS;
    },
    `the ${vendor} transcript to hold '${text}' and be still`,
    30_000,
  );
}

async function installedOrSkip(vendor: CompatVendor, skip: (why: string) => void) {
  const inst = await ensureInstalled(vendor);
  if (!inst.ok) {
    skip(`${vendor} could not be installed or started: ${inst.reason}`);
    throw new Error('skipped');
  }
  return inst;
}

function newRoot(vendor: CompatVendor): string {
  const root = realpathSync(tempDir(`baton-compat-fork-${vendor}-`));
  roots.push(root);
  return root;
}

for (const vendor of ORDER) {
  const chosen = SELECTED.length === 0 || SELECTED.includes(vendor);
  const suite = chosen ? describe.sequential : describe.skip;
  suite(`${vendor}: fork and bundle`, () => {
    it(`${vendor}: the fork answers M, the original still answers N`, async (ctx) => {
      const inst = await installedOrSkip(vendor, (why) => ctx.skip(why));
      const m = await machine(vendor, inst.bin, inst.versionText, newRoot(vendor), 'a', 'project');
      const [n, later] = ['31415', '27182'];
      const started = await m.client.call('run.start', {
        name: 'orig',
        agents: [{ vendor, label: 'agent', cwd: m.cwd, args: [...SPECS[vendor].args] }],
      });
      const orig = started.agents[0]!;
      await ready(m.client, vendor, orig.id);
      await say(m.client, vendor, orig.id, `remember the number ${n}`, rememberReply(n));
      const source = await confirmedAgent(m.client, 'orig');
      await written(vendor, m, source, rememberReply(n));

      const forked = await m.client.call('run.fork', { run: 'orig' });
      const [outcome] = forked.outcomes;
      expect([outcome!.method, outcome!.outcome], outcome!.message ?? '').toEqual([
        FORK_METHOD[vendor],
        FORK_METHOD[vendor] === 'none' ? 'fresh' : 'resumed',
      ]);
      const fork = forked.run.agents[0]!;
      await ready(m.client, vendor, fork.id);
      if (FORK_METHOD[vendor] === 'none') {
        // Said, not hidden: the outcome names why there is no copy.
        expect(outcome!.message).toMatch(/no fork Baton can use/);
      } else {
        // The fork has the conversation (N), then goes its own way (M).
        await say(m.client, vendor, fork.id, QUESTION, recallReply(n));
        await say(m.client, vendor, fork.id, `now remember the number ${later}`, rememberReply(later));
        await say(m.client, vendor, fork.id, QUESTION, recallReply(later));
        // Baton follows the fork's own session (chosen, or discovered), never the source's.
        const own = await confirmedAgent(m.client, forked.run.id);
        expect(own.sessionId).not.toBe(source.sessionId);
      }
      await say(m.client, vendor, orig.id, QUESTION, recallReply(n));
      await m.client.call('run.stop', { run: forked.run.id });
      await m.client.call('run.stop', { run: 'orig' });
    }, 300_000);

    it(`${vendor}: export under one HOME, import under another with another project path, the agent answers N`, async (ctx) => {
      if (!BUNDLED.includes(vendor)) ctx.skip(`${vendor} keeps its conversations where Baton cannot copy them`);
      const inst = await installedOrSkip(vendor, (why) => ctx.skip(why));
      const root = newRoot(vendor);
      const a = await machine(vendor, inst.bin, inst.versionText, root, 'a', 'project');
      const n = '16180';
      const started: RunView = await a.client.call('run.start', {
        name: 'carry',
        agents: [{ vendor, label: 'agent', cwd: a.cwd, args: [...SPECS[vendor].args] }],
      });
      const agent = started.agents[0]!;
      await ready(a.client, vendor, agent.id);
      await say(a.client, vendor, agent.id, `remember the number ${n}`, rememberReply(n));
      await written(vendor, a, await confirmedAgent(a.client, 'carry'), rememberReply(n));
      await a.client.call('run.stop', { run: 'carry' });
      const { bundle } = await a.client.call('bundle.export', { run: 'carry', passphrase: PASS });
      await stopServer(a.server);

      const b = await machine(vendor, inst.bin, inst.versionText, root, 'b', 'moved-project');
      const imported = await b.client.call('bundle.import', { bundle, passphrase: PASS, map: { [a.cwd]: b.cwd } });
      expect(imported.outcomes.map((o) => `${o.outcome} ${o.message ?? ''}`.trim())).toEqual(['resumed']);
      const there = imported.run.agents[0]!;
      expect(there.cwd).toBe(b.cwd);
      await ready(b.client, vendor, there.id);
      await say(b.client, vendor, there.id, QUESTION, recallReply(n));
      await b.client.call('run.stop', { run: imported.run.id });
    }, 300_000);
  });
}
