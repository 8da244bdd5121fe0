// Fork a run and carry one to another machine (docs/bundles.md): real `baton serve` processes, the real WebSocket
// client and CLI, the fake Claude Code and Qwen Code CLIs in real PTYs. A fork continues each conversation while the
// original keeps its own; a fork of an older snapshot is cut there; a bundle exported under one HOME is imported into
// a fresh HOME and an empty data directory with another project path, and each agent answers from its own conversation.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import type { RunView } from '../../shared/contract.js';
import { createVendors } from '../../electron/core/vendors/registry.js';
import {
  BATON_BIN,
  FAKES,
  agentByLabel,
  ask,
  randomNumber,
  startServer,
  tempDir,
  testEnv,
  waitFor,
  type ServerProcess,
} from '../helpers/server.js';

const QUESTION = 'what number did I ask you to remember';
const PASS = 'a long enough passphrase';
const WAIT_MS = 20_000;
/** Two servers, real PTYs and several key derivations (scrypt, about half a second each): slow on a loaded machine. */
const JOURNEY_MS = 180_000;

const vendors = createVendors();
const clients: RpcClient[] = [];
const servers: ServerProcess[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  for (const s of servers.splice(0)) {
    s.child.kill('SIGTERM');
    await Promise.race([s.exited, new Promise((r) => setTimeout(r, 15_000))]);
    if (s.child.exitCode === null) s.child.kill('SIGKILL');
  }
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

interface Machine {
  home: string;
  data: string;
  work: string;
  env: Record<string, string>;
}

/** A HOME, a data directory and a project folder of their own: another machine, as far as Baton can tell. */
function machine(root: string, name: string, project = 'proj'): Machine {
  const home = join(root, name, 'home');
  const work = join(root, name, project);
  mkdirSync(work, { recursive: true });
  return {
    home,
    data: join(root, name, 'data'),
    work,
    env: testEnv(home, { BATON_QWEN_BIN: join(FAKES, 'qwen.mjs'), FAKE_CLAUDE_DELAY_MS: '20' }),
  };
}

async function serve(m: Machine): Promise<RpcClient> {
  const server = await startServer(m.data, m.env);
  servers.push(server);
  const client = await server.connect();
  clients.push(client);
  return client;
}

function newRoot(): string {
  const root = realpathSync(tempDir('baton-fork-'));
  dirs.push(root);
  return root;
}

/** A run of a Claude and a Qwen agent, each told its own number and confirmed in its vendor's store. */
async function twoAgentRun(client: RpcClient, m: Machine, a: number, b: number): Promise<RunView> {
  const run = await client.call('run.start', {
    name: 'demo',
    agents: [
      { vendor: 'claude', label: 'a', cwd: m.work },
      { vendor: 'qwen', label: 'b', cwd: m.work },
    ],
  });
  const [one, two] = [agentByLabel(run.agents, 'a'), agentByLabel(run.agents, 'b')];
  await ask(client, one.id, `remember the number ${a}`, `OK, I will remember ${a}.`, WAIT_MS);
  await ask(client, two.id, `remember the number ${b}`, `OK, I will remember ${b}.`, WAIT_MS);
  const view = await waitFor(
    async () => {
      const v = await client.call('run.get', { run: 'demo' });
      return v.agents.every((x) => x.sessionIds.at(-1)?.confirmed) ? v : undefined;
    },
    'both sessions confirmed',
    WAIT_MS,
  );
  // A fork or an export copies what the CLI has written: wait until each answer is in its transcript.
  for (const [label, n] of [
    ['a', a],
    ['b', b],
  ] as const) {
    const agent = agentByLabel(view.agents, label);
    const files = vendors.get(agent.vendor)!.transcripts!;
    await waitFor(
      async () => {
        const path = await files.locate(agent.sessionId!, agent.cwd, m.env);
        return path !== null && readFileSync(path, 'utf8').includes(`OK, I will remember ${n}.`);
      },
      `the answer in ${label}'s transcript`,
      WAIT_MS,
    );
  }
  return view;
}

function runCli(args: readonly string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [BATON_BIN, ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once('close', (code) => resolve({ code, stdout, stderr })),
  );
}

/** Every file under `dir` (none when it does not exist). */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name));
}

describe('fork', () => {
  it(
    'continues each agent in a copy of its conversation, the original untouched; a snapshot fork is cut there',
    async () => {
      const m = machine(newRoot(), 'here');
      const client = await serve(m);
      const [n1, n2] = [randomNumber(), randomNumber()];
      const original = await twoAgentRun(client, m, n1, n2);
      const snap = await client.call('run.snapshot', { run: 'demo' });

      const forked = await client.call('run.fork', { run: 'demo' });
      expect(forked.run.name).toBe('demo fork');
      expect(forked.outcomes.map((o) => [o.label, o.method, o.from, o.outcome])).toEqual([
        ['a', 'native', 'now', 'resumed'],
        ['b', 'copy', 'now', 'resumed'],
      ]);
      const fa = agentByLabel(forked.run.agents, 'a');
      const fb = agentByLabel(forked.run.agents, 'b');
      expect(fa.sessionId).not.toBe(agentByLabel(original.agents, 'a').sessionId);
      expect(fb.sessionId).not.toBe(agentByLabel(original.agents, 'b').sessionId);
      await ask(client, fa.id, QUESTION, `The number is ${n1}.`, WAIT_MS);
      await ask(client, fb.id, QUESTION, `The number is ${n2}.`, WAIT_MS);

      // The fork learns something new; the original does not.
      const m1 = randomNumber([n1, n2]);
      await ask(client, fa.id, `now remember the number ${m1}`, `OK, I will remember ${m1}.`, WAIT_MS);
      await ask(client, fa.id, QUESTION, `The number is ${m1}.`, WAIT_MS);
      await ask(client, agentByLabel(original.agents, 'a').id, QUESTION, `The number is ${n1}.`, WAIT_MS);

      // The original moves on after the snapshot; a fork of that snapshot is cut where it was taken.
      const n3 = randomNumber([n1, n2, m1]);
      await ask(
        client,
        agentByLabel(original.agents, 'b').id,
        `remember the number ${n3}`,
        `OK, I will remember ${n3}.`,
        WAIT_MS,
      );
      const atSnap = await client.call('run.fork', { run: 'demo', snapshot: snap.id });
      expect(atSnap.run.name).toBe('demo fork (2)');
      expect(atSnap.outcomes.map((o) => [o.label, o.method, o.from])).toEqual([
        ['a', 'copy', 'snapshot'],
        ['b', 'copy', 'snapshot'],
      ]);
      await ask(client, agentByLabel(atSnap.run.agents, 'b').id, QUESTION, `The number is ${n2}.`, WAIT_MS);
      await ask(client, agentByLabel(atSnap.run.agents, 'a').id, QUESTION, `The number is ${n1}.`, WAIT_MS);
      // The source's history says it was forked.
      const events = await client.call('run.events', { run: 'demo' });
      expect(events.filter((e) => e.type === 'forked')).toHaveLength(2);
    },
    JOURNEY_MS,
  );
});

describe('bundles', () => {
  it(
    'export under one HOME, import under another with another project path: each agent answers its own',
    async () => {
      const root = newRoot();
      const here = machine(root, 'here');
      const there = machine(root, 'there', 'elsewhere');
      const source = await serve(here);
      const [n1, n2] = [randomNumber(), randomNumber()];
      await twoAgentRun(source, here, n1, n2);
      const exported = await source.call('bundle.export', { run: 'demo', passphrase: PASS });
      expect(exported.agents.map((a) => [a.label, a.transcript])).toEqual([
        ['a', true],
        ['b', true],
      ]);
      const bundle = exported.bundle;
      // The other machine has no such project folder.
      const oldWork = here.work;
      rmSync(oldWork, { recursive: true, force: true });

      const target = await serve(there);
      const storeFiles = () => [...filesUnder(join(there.home, '.claude')), ...filesUnder(join(there.home, '.qwen'))];
      const before = storeFiles();

      // A wrong passphrase, a changed byte, a missing mapping: refused with what to do, and nothing written.
      await expect(target.call('bundle.inspect', { bundle, passphrase: 'not the passphrase' })).rejects.toThrow(
        /passphrase is wrong, or the file was changed/,
      );
      const bytes = Buffer.from(bundle, 'base64');
      bytes[bytes.length - 40] = bytes[bytes.length - 40]! ^ 0xff;
      await expect(
        target.call('bundle.import', { bundle: bytes.toString('base64'), passphrase: PASS }),
      ).rejects.toThrow(/passphrase is wrong, or the file was changed/);
      const preview = await target.call('bundle.inspect', { bundle, passphrase: PASS });
      expect(preview.directories).toEqual([{ from: oldWork, exists: false }]);
      expect(preview.agents.map((a) => [a.label, a.mappedCwd, a.transcript])).toEqual([
        ['a', null, true],
        ['b', null, true],
      ]);
      await expect(target.call('bundle.import', { bundle, passphrase: PASS })).rejects.toThrow(/map its directory/);
      expect(storeFiles()).toEqual(before);
      expect(await target.call('run.list', {})).toEqual([]);

      const map = { [oldWork]: there.work };
      const mapped = await target.call('bundle.inspect', { bundle, passphrase: PASS, map });
      expect(mapped.agents.map((a) => a.mappedCwd)).toEqual([there.work, there.work]);
      const imported = await target.call('bundle.import', { bundle, passphrase: PASS, map });
      expect(imported.run.name).toBe('demo');
      expect(imported.outcomes.map((o) => [o.label, o.outcome])).toEqual([
        ['a', 'resumed'],
        ['b', 'resumed'],
      ]);
      for (const a of imported.run.agents) expect(a.cwd).toBe(there.work);
      await ask(target, agentByLabel(imported.run.agents, 'a').id, QUESTION, `The number is ${n1}.`, WAIT_MS);
      await ask(target, agentByLabel(imported.run.agents, 'b').id, QUESTION, `The number is ${n2}.`, WAIT_MS);
      // Nothing of the other machine's directory is left in what was placed here.
      for (const f of storeFiles().filter((f) => !before.includes(f) && f.endsWith('.jsonl')))
        expect(readFileSync(f, 'utf8')).not.toContain(oldWork);
    },
    JOURNEY_MS,
  );

  it(
    'the CLI forks, exports to a file and imports it, the passphrase from the environment or a file',
    async () => {
      const root = newRoot();
      const here = machine(root, 'here');
      const there = machine(root, 'there', 'elsewhere');
      const source = await serve(here);
      const [n1, n2] = [randomNumber(), randomNumber()];
      await twoAgentRun(source, here, n1, n2);

      const cliHere = { ...here.env, BATON_HOME: here.data };
      const forked = await runCli(['fork', 'demo'], cliHere);
      expect(forked.stderr).toBe('');
      expect(forked.stdout).toMatch(/^run 'demo fork'\na \(claude\): native fork from now/);

      const file = join(root, 'demo.baton-bundle');
      const noPass = await runCli(['export', 'demo', '-o', file], cliHere);
      expect(noPass.code).toBe(2); // a usage error: what was missing, and how to give it
      expect(noPass.stderr).toMatch(/a passphrase is needed: set BATON_PASSPHRASE/);
      const wrote = await runCli(['export', 'demo', '-o', file], { ...cliHere, BATON_PASSPHRASE: PASS });
      expect(wrote.stderr).toBe('');
      expect(wrote.stdout).toContain('a (claude): conversation included');
      expect(readFileSync(file).includes(Buffer.from(String(n1)))).toBe(false);
      const again = await runCli(['export', 'demo', '-o', file], { ...cliHere, BATON_PASSPHRASE: PASS });
      expect(again.stderr).toMatch(/already exists/);

      await serve(there);
      const passFile = join(root, 'pass.txt');
      writeFileSync(passFile, `${PASS}\n`, { mode: 0o600 });
      const cliThere = { ...there.env, BATON_HOME: there.data };
      const wrong = await runCli(['import', file, '--map', `${here.work}=${there.work}`], {
        ...cliThere,
        BATON_PASSPHRASE: 'wrong passphrase!',
      });
      expect(wrong.code).toBe(1);
      expect(wrong.stderr).toMatch(/passphrase is wrong/);
      expect(wrong.stderr).not.toContain('wrong passphrase!');
      const dry = await runCli(
        ['import', file, '--dry-run', '--map', `${here.work}=${there.work}`, '--passphrase-file', passFile],
        cliThere,
      );
      expect(dry.stdout).toContain(`a (claude) in ${there.work}: conversation included`);
      const done = await runCli(
        ['import', file, '--map', `${here.work}=${there.work}`, '--passphrase-file', passFile],
        cliThere,
      );
      expect(done.stderr).toBe('');
      expect(done.stdout).toContain('a (claude): resumed');
      expect(done.stdout).toContain('b (qwen): resumed');
    },
    JOURNEY_MS,
  );
});
