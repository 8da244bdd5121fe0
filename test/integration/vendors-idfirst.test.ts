// Vendors whose session id Baton picks at spawn (`--session-id <uuid>`): Gemini, Copilot, Qwen. Real `baton serve`
// processes, the real WebSocket client, and the fake CLIs of test/fakes (real flags, real on-disk formats).
// Per vendor: the id is known at start and confirmed from the vendor's own store; a number told to the agent
// survives stop and resume-by-handle; an agent that never spoke comes back under its same id; a deleted
// transcript comes back `fresh` with a warning. And two Gemini agents in one directory never swap conversations.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, rmSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import pty from 'node-pty';
import { afterEach, describe, expect, it } from 'vitest';
import type { RpcClient } from '../../shared/client.js';
import type { RunView } from '../../shared/contract.js';
import type { VendorAdapter } from '../../electron/core/vendors/adapter.js';
import { createVendors } from '../../electron/core/vendors/registry.js';
import {
  FAKES,
  agentByLabel,
  ask,
  randomNumber,
  screenText,
  startServer,
  waitFor,
  type ServerProcess,
} from '../helpers/server.js';
import { tempMachine } from '../helpers/temp-machine.js';

const WAIT_MS = 20_000;
const vendors = createVendors();
const copilotAdapter = vendors.get('copilot')!;
const geminiAdapter = vendors.get('gemini')!;
const qwenAdapter = vendors.get('qwen')!;
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const QUESTION = 'what number did I ask you to remember';

// ---------- bookkeeping: everything a test starts is stopped and removed, pass or fail ----------

const clients: RpcClient[] = [];
const servers: ServerProcess[] = [];
const agentPids = new Set<number>();
const dirs: string[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await Promise.all(servers.splice(0).map((s) => stopServer(s)));
  for (const pid of agentPids) {
    try {
      process.kill(pid, 0);
      process.kill(pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
  agentPids.clear();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function stopServer(server: ServerProcess): Promise<void> {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGTERM');
  const timeout = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 15_000).unref());
  if ((await Promise.race([server.exited, timeout])) === 'timeout') {
    server.child.kill('SIGKILL');
    await server.exited;
  }
}

function track(run: RunView): RunView {
  for (const a of run.agents) if (a.pid !== null) agentPids.add(a.pid);
  return run;
}

// ---------- the vendors, as the tests see them ----------

type Vendor = 'gemini' | 'copilot' | 'qwen';

interface VendorCase {
  vendor: Vendor;
  /** Text the fake TUI shows once it takes input. */
  ready: string;
  /** The files that hold a session's transcript, under `home`. */
  transcripts(home: string, sessionId: string): string[];
  /** The vendor's own record of the id, read from its store: the id the CLI runs under. */
  storedId(home: string, sessionId: string): string | null;
  /** Removes the session from the vendor's store, as a user or a cleanup would. */
  remove(home: string, sessionId: string): void;
  resumeArgv(sessionId: string): string[];
}

function listFiles(dir: string): string[] {
  try {
    return readdirSync(dir).map((n) => join(dir, n));
  } catch {
    return [];
  }
}

function firstJsonLine(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(file, 'utf8').split('\n')[0]!) as Record<string, unknown>;
}

function geminiChats(home: string): string[] {
  return listFiles(join(home, '.gemini', 'tmp')).flatMap((d) => listFiles(join(d, 'chats')));
}

const CASES: VendorCase[] = [
  {
    vendor: 'gemini',
    ready: 'Type your message',
    transcripts: (home, id) =>
      geminiChats(home).filter((f) => f.endsWith(`-${id.slice(0, 8)}.jsonl`) && firstJsonLine(f).sessionId === id),
    storedId: (home, id) => {
      const f = geminiChats(home).find((p) => p.endsWith(`-${id.slice(0, 8)}.jsonl`));
      return f ? (firstJsonLine(f).sessionId as string) : null;
    },
    remove: (home, id) => {
      for (const f of CASES[0]!.transcripts(home, id)) unlinkSync(f);
    },
    resumeArgv: (id) => ['gemini', '--resume', id],
  },
  {
    vendor: 'copilot',
    ready: 'Enter @ to mention files',
    transcripts: (home, id) =>
      [join(home, '.copilot', 'session-state', id, 'events.jsonl')].filter((p) => existsSync(p)),
    storedId: (home, id) => {
      const ws = join(home, '.copilot', 'session-state', id, 'workspace.yaml');
      if (!existsSync(ws)) return null;
      return /^id: (.*)$/m.exec(readFileSync(ws, 'utf8'))?.[1] ?? null;
    },
    remove: (home, id) => rmSync(join(home, '.copilot', 'session-state', id), { recursive: true }),
    resumeArgv: (id) => ['copilot', `--resume=${id}`],
  },
  {
    vendor: 'qwen',
    ready: 'Type your message',
    transcripts: (home, id) =>
      listFiles(join(home, '.qwen', 'projects'))
        .map((d) => join(d, 'chats', `${id}.jsonl`))
        .filter((p) => existsSync(p)),
    storedId: (home, id) => {
      const f = CASES[2]!.transcripts(home, id)[0];
      return f ? (firstJsonLine(f).sessionId as string) : null;
    },
    remove: (home, id) => {
      for (const f of CASES[2]!.transcripts(home, id)) unlinkSync(f);
    },
    resumeArgv: (id) => ['qwen', '--resume', id],
  },
];
const byVendor = (v: Vendor): VendorCase => CASES.find((c) => c.vendor === v)!;

// ---------- the scene every test starts from ----------

interface Scene {
  home: string;
  data: string;
  work: string;
  env: Record<string, string>;
}

function scene(): Scene {
  const { root, home, data, work, env } = tempMachine('baton-idfirst-', {
    BATON_GEMINI_BIN: join(FAKES, 'gemini.mjs'),
    BATON_COPILOT_BIN: join(FAKES, 'copilot.mjs'),
    BATON_QWEN_BIN: join(FAKES, 'qwen.mjs'),
  });
  dirs.push(root);
  return { home, data, work, env };
}

async function serve(s: Scene): Promise<RpcClient> {
  const server = await startServer(s.data, s.env);
  servers.push(server);
  const client = await server.connect();
  clients.push(client);
  return client;
}

async function ready(client: RpcClient, agentId: string, c: VendorCase): Promise<void> {
  await waitFor(
    async () => (await screenText(client, agentId)).includes(c.ready),
    `the prompt of ${c.vendor} agent ${agentId}`,
    WAIT_MS,
  );
}

async function confirmed(client: RpcClient, run: string, labels: string[]): Promise<RunView> {
  return waitFor(
    async () => {
      const view = await client.call('run.get', { run });
      return labels.every((l) => agentByLabel(view.agents, l).sessionIds.at(-1)?.confirmed === true) ? view : undefined;
    },
    `sessions of ${labels.join(', ')} confirmed`,
    WAIT_MS,
  );
}

// ---------- the tests ----------

describe.each(CASES)('$vendor: id chosen by Baton at spawn', (c) => {
  it('knows the id at start, confirms it from the store, and resumes every agent into its own conversation', async () => {
    const s = scene();
    const client = await serve(s);
    const n = randomNumber();

    const started = track(
      await client.call('run.start', {
        name: 'demo',
        agents: [
          { vendor: c.vendor, label: 'talker', cwd: s.work },
          { vendor: c.vendor, label: 'quiet', cwd: s.work },
        ],
      }),
    );
    const talker = agentByLabel(started.agents, 'talker');
    const quiet = agentByLabel(started.agents, 'quiet');
    // Known before the CLI said anything, chosen by Baton, one per agent.
    for (const a of [talker, quiet]) {
      expect(a.status).toBe('running');
      expect(a.sessionId).toMatch(UUID_V4);
      expect(a.sessionIds).toEqual([expect.objectContaining({ id: a.sessionId, chosenBy: 'baton' })]);
    }
    expect(talker.sessionId).not.toBe(quiet.sessionId);
    const talkerId = talker.sessionId!;
    const quietId = quiet.sessionId!;

    await Promise.all([ready(client, talker.id, c), ready(client, quiet.id, c)]);
    await ask(client, talker.id, `remember the number ${n}`, `OK, I will remember ${n}.`, WAIT_MS);

    // The CLI runs under the id Baton gave it: its own store says so, and Baton confirms it from there.
    await confirmed(client, 'demo', ['talker']);
    expect(c.storedId(s.home, talkerId)).toBe(talkerId);
    expect(c.transcripts(s.home, talkerId)).toHaveLength(1);
    const commands = await client.call('run.commands', { run: 'demo' });
    expect(commands.find((x) => x.label === 'talker')?.argv).toEqual(c.resumeArgv(talkerId));

    await client.call('run.snapshot', { run: 'demo' });
    const { handle } = await client.call('run.handle', { run: 'demo' });
    const stopped = await client.call('run.stop', { run: 'demo' });
    expect(stopped.agents.every((a) => a.pid === null)).toBe(true);

    const resumed = await client.call('run.resume', { handle });
    track(resumed.run);
    expect(resumed.outcomes.map((o) => [o.label, o.outcome, o.sessionId, o.message])).toEqual([
      ['talker', 'resumed', talkerId, null],
      ['quiet', 'resumed', quietId, null],
    ]);

    await Promise.all([ready(client, talker.id, c), ready(client, quiet.id, c)]);
    // The resumed CLI redraws the old turns, and answers from them.
    expect(await screenText(client, talker.id)).toContain(`remember the number ${n}`);
    const answer = await ask(client, talker.id, QUESTION, `The number is ${n}.`, WAIT_MS);
    expect(answer).not.toContain('I do not know any number.');

    // The agent that never spoke came back under its own id (the CLI accepted it) and starts from nothing.
    const m = randomNumber([n]);
    const quietText = await ask(client, quiet.id, `remember the number ${m}`, `OK, I will remember ${m}.`, WAIT_MS);
    expect(quietText).not.toContain(`remember the number ${n}`);
    expect(quietText).not.toContain(`The number is ${n}`);
    await confirmed(client, 'demo', ['talker', 'quiet']);
    expect(c.storedId(s.home, quietId)).toBe(quietId);

    const after = await client.call('run.get', { run: 'demo' });
    expect(agentByLabel(after.agents, 'talker').sessionIds.map((x) => x.id)).toEqual([talkerId]);
    expect(agentByLabel(after.agents, 'quiet').sessionIds.map((x) => x.id)).toEqual([quietId]);
    const events = await client.call('run.events', { run: 'demo' });
    expect(events.filter((e) => e.type === 'fresh-fallback')).toEqual([]);
  });

  it('comes back fresh, with a warning in the pane, when the transcript was deleted', async () => {
    const s = scene();
    const client = await serve(s);
    const n = randomNumber();

    const started = track(
      await client.call('run.start', { name: 'gone', agents: [{ vendor: c.vendor, label: 'one', cwd: s.work }] }),
    );
    const one = agentByLabel(started.agents, 'one');
    const oldId = one.sessionId!;
    await ready(client, one.id, c);
    await ask(client, one.id, `remember the number ${n}`, `OK, I will remember ${n}.`, WAIT_MS);
    await confirmed(client, 'gone', ['one']);
    await client.call('run.snapshot', { run: 'gone' });
    const { handle } = await client.call('run.handle', { run: 'gone' });
    await client.call('run.stop', { run: 'gone' });

    c.remove(s.home, oldId);
    expect(c.transcripts(s.home, oldId)).toEqual([]);
    const preview = await client.call('handle.inspect', { handle });
    expect(preview.agents.map((a) => a.check)).toEqual(['missing']);

    const warnings: string[] = [];
    client.on('agent.warning', (w) => warnings.push(w.message));
    const resumed = await client.call('run.resume', { handle });
    track(resumed.run);
    const [outcome] = resumed.outcomes;
    expect(outcome?.outcome).toBe('fresh');
    expect(outcome?.sessionId).toMatch(UUID_V4);
    expect(outcome?.sessionId).not.toBe(oldId);
    expect(outcome?.message).toContain('starting a fresh conversation');
    expect(outcome?.message).toContain(`session ${oldId.slice(0, 8)}…`);
    expect(outcome?.message).not.toContain(oldId);

    await waitFor(
      async () =>
        (await screenText(client, one.id)).split('\n').some((l) => l.includes('baton:') && l.includes('fresh')),
      'the fresh-fallback warning in the pane',
      WAIT_MS,
    );
    await waitFor(() => warnings.some((w) => w.includes('fresh')), 'an agent.warning event', WAIT_MS);
    await ready(client, one.id, c);
    await ask(client, one.id, QUESTION, 'I do not know any number.', WAIT_MS);
    const view = await confirmed(client, 'gone', ['one']);
    expect(agentByLabel(view.agents, 'one').sessionIds.map((x) => x.id)).toEqual([oldId, outcome!.sessionId]);
    expect(c.storedId(s.home, outcome!.sessionId!)).toBe(outcome!.sessionId);
    const events = await client.call('run.events', { run: 'gone' });
    expect(events.filter((e) => e.type === 'fresh-fallback').map((e) => e.agentId)).toEqual([one.id]);
  });
});

describe('gemini: two agents in one directory', () => {
  it('get distinct ids in one run.start, and each is resumed into its own conversation', async () => {
    const c = byVendor('gemini');
    const s = scene();
    const client = await serve(s);
    const a = randomNumber();
    const b = randomNumber([a]);

    const started = track(
      await client.call('run.start', {
        name: 'twins',
        agents: [
          { vendor: 'gemini', label: 'left', cwd: s.work },
          { vendor: 'gemini', label: 'right', cwd: s.work },
        ],
      }),
    );
    const left = agentByLabel(started.agents, 'left');
    const right = agentByLabel(started.agents, 'right');
    expect(left.cwd).toBe(right.cwd);
    expect(left.sessionId).toMatch(UUID_V4);
    expect(right.sessionId).toMatch(UUID_V4);
    expect(left.sessionId).not.toBe(right.sessionId);

    await Promise.all([ready(client, left.id, c), ready(client, right.id, c)]);
    await Promise.all([
      ask(client, left.id, `remember the number ${a}`, `OK, I will remember ${a}.`, WAIT_MS),
      ask(client, right.id, `remember the number ${b}`, `OK, I will remember ${b}.`, WAIT_MS),
    ]);
    await confirmed(client, 'twins', ['left', 'right']);

    // One project, two chat files, each holding its own agent's number only.
    const files = geminiChats(s.home);
    expect(files).toHaveLength(2);
    const leftFile = c.transcripts(s.home, left.sessionId!);
    const rightFile = c.transcripts(s.home, right.sessionId!);
    expect(leftFile).toHaveLength(1);
    expect(rightFile).toHaveLength(1);
    expect(readFileSync(leftFile[0]!, 'utf8')).toContain(`remember the number ${a}`);
    expect(readFileSync(leftFile[0]!, 'utf8')).not.toContain(`remember the number ${b}`);
    expect(readFileSync(rightFile[0]!, 'utf8')).toContain(`remember the number ${b}`);
    const projects = JSON.parse(readFileSync(join(s.home, '.gemini', 'projects.json'), 'utf8')) as {
      projects: Record<string, string>;
    };
    expect(Object.keys(projects.projects)).toEqual([s.work]);

    await client.call('run.snapshot', { run: 'twins' });
    const { handle } = await client.call('run.handle', { run: 'twins' });
    await client.call('run.stop', { run: 'twins' });

    const resumed = await client.call('run.resume', { handle });
    track(resumed.run);
    expect(resumed.outcomes.map((o) => [o.label, o.outcome, o.sessionId])).toEqual([
      ['left', 'resumed', left.sessionId],
      ['right', 'resumed', right.sessionId],
    ]);
    await Promise.all([ready(client, left.id, c), ready(client, right.id, c)]);
    const [textLeft, textRight] = await Promise.all([
      ask(client, left.id, QUESTION, `The number is ${a}.`, WAIT_MS),
      ask(client, right.id, QUESTION, `The number is ${b}.`, WAIT_MS),
    ]);
    // Whole phrases, not bare digits: a session id or timestamp on screen may contain any 4 digits.
    for (const phrase of [`remember the number ${b}`, `The number is ${b}`]) expect(textLeft).not.toContain(phrase);
    for (const phrase of [`remember the number ${a}`, `The number is ${a}`]) expect(textRight).not.toContain(phrase);
  });
});

// ---------- the fakes print the real error texts and exit codes, and the adapters recognise them ----------

describe('the fake CLIs answer like the real ones', () => {
  function run(vendor: Vendor, args: string[], s: Scene): { code: number | null; out: string } {
    const r = spawnSync(process.execPath, [join(FAKES, `${vendor}.mjs`), ...args], {
      cwd: s.work,
      env: s.env,
      input: '',
      encoding: 'utf8',
      timeout: 15_000,
    });
    return { code: r.status, out: `${r.stdout}${r.stderr}` };
  }
  const rejected = (adapter: VendorAdapter, text: string) => adapter.resumeErrorTexts.some((re) => re.test(text));

  it('gemini: version, unknown and reused ids (exit 42)', () => {
    const s = scene();
    expect(run('gemini', ['--version'], s)).toEqual({ code: 0, out: '0.61.0\n' });
    const none = run('gemini', ['-p', 'hi', '--resume', randomUUID()], s);
    expect(none.code).toBe(42);
    expect(none.out).toContain('No previous sessions found for this project');
    expect(rejected(geminiAdapter, none.out)).toBe(true);

    const id = randomUUID();
    expect(run('gemini', ['-p', 'remember the number 31', '--session-id', id], s)).toEqual({
      code: 0,
      out: 'OK, I will remember 31.\n',
    });
    const unknown = run('gemini', ['-p', 'hi', '--resume', 'nosuchname'], s);
    expect(unknown.code).toBe(42);
    expect(unknown.out).toContain('Error resuming session: Invalid session identifier "nosuchname".');
    expect(unknown.out).toContain(`Searched for sessions in ${join(s.home, '.gemini', 'tmp', 'work', 'chats')}.`);
    expect(rejected(geminiAdapter, unknown.out)).toBe(true);
    const reused = run('gemini', ['-p', 'hi', '--session-id', id], s);
    expect(reused.code).toBe(42);
    expect(reused.out).toContain(
      `Error starting session: Session ID "${id}" already exists. Use --resume to resume it, or provide a different ID.`,
    );
    expect(rejected(geminiAdapter, reused.out)).toBe(true);
    expect(run('gemini', ['-p', QUESTION, '--resume', id], s)).toEqual({ code: 0, out: 'The number is 31.\n' });
    expect(run('gemini', ['-p', QUESTION, '--resume', 'latest'], s).out).toBe('The number is 31.\n');
  });

  it('copilot: version, bad and unknown ids (exit 1), --session-id of an existing id resumes it', () => {
    const s = scene();
    expect(run('copilot', ['--version'], s).out).toContain('GitHub Copilot CLI 1.0.102.');
    const bad = run('copilot', ['--session-id', 'not-a-uuid'], s);
    expect(bad).toEqual({ code: 1, out: 'The value is not a valid UUID, so a new session cannot be created.\n' });
    const unknown = run('copilot', ['-p', 'hi', '--allow-all-tools', '--resume=nosuch'], s);
    expect(unknown.code).toBe(1);
    expect(unknown.out).toContain("Error: No session, task, or name matched 'nosuch'.");
    expect(rejected(copilotAdapter, unknown.out)).toBe(true);

    const id = randomUUID();
    expect(
      run('copilot', ['-p', 'remember the number 32', '--allow-all-tools', '--session-id', id, '-n', 'r/one'], s).out,
    ).toContain('OK, I will remember 32.');
    expect(run('copilot', ['-p', QUESTION, '--allow-all-tools', '--session-id', id], s).out).toContain(
      'The number is 32.',
    );
    expect(run('copilot', ['-p', QUESTION, '--allow-all-tools', `--resume=${id}`], s).out).toContain(
      'The number is 32.',
    );
    expect(run('copilot', ['-p', QUESTION, '--allow-all-tools', '--resume=R/ONE'], s).out).toContain(
      'The number is 32.',
    );
    expect(run('copilot', ['-p', QUESTION, '--allow-all-tools', `--resume=${id.slice(0, 7)}`], s).out).toContain(
      'The number is 32.',
    );
  });

  it('qwen: version, bad, reused and unknown ids (exit 1); a positional prompt is one-shot', () => {
    const s = scene();
    expect(run('qwen', ['--version'], s)).toEqual({ code: 0, out: '0.24.4\n' });
    const bad = run('qwen', ['--session-id', 'x'], s);
    expect(bad).toEqual({
      code: 1,
      out: 'Invalid --session-id: "x". Must be a valid UUID (e.g., "123e4567-e89b-12d3-a456-426614174000").\n',
    });
    const id = randomUUID();
    // One-shot: answers and exits, no TUI.
    expect(run('qwen', ['remember the number 33', '--session-id', id], s)).toEqual({
      code: 0,
      out: 'OK, I will remember 33.\n',
    });
    const reused = run('qwen', ['--session-id', id], s);
    expect(reused.code).toBe(1);
    expect(reused.out).toContain(
      `Error: Session Id ${id} already exists (active or archived). Delete or unarchive it first.`,
    );
    expect(rejected(qwenAdapter, reused.out)).toBe(true);
    const other = randomUUID();
    const unknown = run('qwen', ['--resume', other], s);
    expect(unknown).toEqual({
      code: 1,
      out: `No saved session found with ID ${other}. Run \`qwen --resume\` without an ID to choose from existing sessions.\n`,
    });
    expect(rejected(qwenAdapter, unknown.out)).toBe(true);
    const title = run('qwen', ['--resume', 'nosuchname'], s);
    expect(title).toEqual({ code: 1, out: 'No saved session found with title "nosuchname".\n' });
    expect(run('qwen', ['--session-id', other, '--resume', id], s).code).toBe(1);
    expect(run('qwen', [QUESTION, '--resume', id], s).out).toBe('The number is 33.\n');
  });

  it.each([
    ['gemini', geminiAdapter],
    ['qwen', qwenAdapter],
  ] as const)(
    '%s: Enter right behind the keys is taken as a paste; after submitDelayMs it submits',
    async (vendor, adapter) => {
      const s = scene();
      const term = pty.spawn(process.execPath, [join(FAKES, `${vendor}.mjs`)], {
        name: 'xterm-256color',
        cols: 120,
        rows: 40,
        cwd: s.work,
        env: s.env,
      });
      let out = '';
      term.onData((d) => (out += d));
      try {
        await waitFor(() => out.includes('Type your message'), `${vendor} ready`, WAIT_MS);
        term.write('remember the number 41\r');
        await new Promise((r) => setTimeout(r, adapter.submitDelayMs + 200));
        expect(out).not.toContain('OK, I will remember');
        term.write('\r');
        await waitFor(() => out.includes('OK, I will remember 41.'), `${vendor} to answer`, WAIT_MS);
        term.write('what number');
        await new Promise((r) => setTimeout(r, adapter.submitDelayMs));
        term.write('\r');
        await waitFor(() => out.includes('The number is 41.'), `${vendor} to answer again`, WAIT_MS);
      } finally {
        term.kill('SIGKILL');
      }
    },
  );
});
