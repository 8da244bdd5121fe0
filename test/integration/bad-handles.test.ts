// Bad handles (and bad run.start requests) through the real WebSocket of a real `baton serve`: each is refused
// with a field-level 'invalid' error that echoes neither the handle nor the offending value, and nothing is
// spawned, nothing is written to the store, and no handle text reaches the server's output.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readlinkSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatonError } from '../../shared/contract.js';
import type { RpcClient } from '../../shared/client.js';
import { ROOT, startServer, tempDir, testEnv, waitFor, type ServerProcess } from '../helpers/server.js';
import { descendantKeys } from '../helpers/processes.js';
import { RawConnection } from '../helpers/raw-connection.js';

const b64u = (s: string) => Buffer.from(s, 'utf8').toString('base64url');
const handleOf = (body: unknown) => `baton1.${b64u(JSON.stringify(body))}`;
const base36 = (n: number) => {
  let out = '';
  for (const b of randomBytes(n * 2)) if (out.length < n && b < 252) out += (b % 36).toString(36);
  return out.padEnd(n, '0');
};
const newRunId = () => `run_${base36(16)}`;
const newAgentId = () => `agt_${base36(16)}`;

interface HandleBody {
  v: number;
  run: { name: string; id: string };
  createdAt: string;
  agents: { id: string; label: string; vendor: string; sessionId: string | null; cwd: string }[];
  [extra: string]: unknown;
}

/** Every file and directory under `dir`, with type, size and mtime: equal listings mean nothing was written. */
function storeListing(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string, rel: string) => {
    for (const name of readdirSync(d).sort()) {
      const path = join(d, name);
      const st = statSync(path);
      const key = rel ? `${rel}/${name}` : name;
      out[key] = `${st.isDirectory() ? 'dir' : 'file'}:${st.size}:${st.mtimeMs}`;
      if (st.isDirectory()) walk(path, key);
    }
  };
  const st = statSync(dir);
  out['.'] = `dir:${st.mtimeMs}`;
  walk(dir, '');
  return out;
}

let root: string;
let proj: string;
let server: ServerProcess;
let client: RpcClient;
let raw: RawConnection;
/** The handle Baton itself gave out for a stopped one-claude run. */
let validHandle: string;
let validBody: HandleBody;
/** The same agent under a run id and agent id the store does not know: accepted, it would create a run. */
let freshBody: HandleBody;
let sessionId: string;
const handleTexts: string[] = [];

beforeAll(async () => {
  root = realpathSync(tempDir('baton-bad-handles-'));
  proj = join(root, 'proj');
  mkdirSync(proj);
  server = await startServer(join(root, 'data'), testEnv(join(root, 'home'), { FAKE_CLAUDE_DELAY_MS: '10' }));
  client = await server.connect();
  raw = await RawConnection.open(server);
  const run = await client.call('run.start', {
    name: 'valid',
    agents: [{ vendor: 'claude', label: 'planner', cwd: proj }],
  });
  const agent = run.agents[0]!;
  await waitFor(
    async () => (await client.call('agent.screen', { agentId: agent.id })).text.trim().length > 0,
    'the fake claude to draw',
  );
  validHandle = (await client.call('run.handle', { run: 'valid' })).handle;
  handleTexts.push(validHandle);
  await client.call('run.stop', { run: 'valid' });
  validBody = JSON.parse(Buffer.from(validHandle.slice('baton1.'.length), 'base64url').toString('utf8')) as HandleBody;
  sessionId = validBody.agents[0]!.sessionId!;
  expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
  freshBody = structuredClone(validBody);
  freshBody.run = { name: 'imported', id: newRunId() };
  freshBody.agents[0]!.id = newAgentId();
  // Let the exit bookkeeping settle so the before/after listings of each case compare like with like.
  await waitFor(() => descendantKeys(server.child.pid!).length === 0, 'the stopped run to leave no process');
}, 40_000);

afterAll(async () => {
  raw?.close();
  client?.close();
  if (server && server.child.exitCode === null) {
    server.child.kill('SIGTERM');
    await server.exited;
  }
  if (root) rmSync(root, { recursive: true, force: true });
});

interface Case {
  name: string;
  handle: () => string;
  field: string;
  message: RegExp;
  /** Values from the handle that must appear in no error message (a function when they need the session id). */
  offending: string[] | (() => string[]);
  /** A missing directory is a finding of the preview, not an error: inspect answers with `cwd-missing`. */
  inspect?: 'cwd-missing';
}

const mutate = (change: (b: HandleBody) => void) => () => {
  const b = structuredClone(freshBody);
  change(b);
  return handleOf(b);
};
const agent0 = (change: (a: HandleBody['agents'][number]) => void) => mutate((b) => change(b.agents[0]!));

const UUID_SHAPED = '7f3c2a1e-5b4d-4e6f-9a8b-0c1d2e3f4a5b';
const cases: Case[] = [
  {
    name: 'malformed base64',
    handle: () => 'baton1.***',
    field: 'handle',
    message: /handle is not valid base64url/,
    offending: ['***'],
  },
  {
    name: 'malformed JSON inside the base64',
    handle: () => `baton1.${b64u('{"v":1,')}`,
    field: 'handle',
    message: /handle is not valid JSON/,
    offending: ['{"v":1,'],
  },
  {
    name: 'unknown version in the prefix (baton2.)',
    handle: () => 'baton2.xxx',
    field: 'handle',
    message: /version 2 is not supported/,
    offending: ['xxx'],
  },
  {
    name: 'unknown version in the JSON ("v":2)',
    handle: mutate((b) => (b.v = 2)),
    field: 'v',
    message: /version is not supported/,
    offending: [],
  },
  {
    name: 'unknown vendor "evil"',
    handle: agent0((a) => (a.vendor = 'evil')),
    field: 'agents[0].vendor',
    message: /unknown vendor/,
    offending: ['evil'],
  },
  {
    name: 'session id with a leading dash (-rf)',
    handle: agent0((a) => (a.sessionId = '-rf')),
    field: 'agents[0].sessionId',
    message: /does not match the claude session id format/,
    offending: ['-rf'],
  },
  {
    name: 'session id with whitespace inside',
    handle: agent0((a) => (a.sessionId = `${sessionId.slice(0, 8)} ${sessionId.slice(9)}`)),
    field: 'agents[0].sessionId',
    message: /does not match the claude session id format/,
    offending: () => [`${sessionId.slice(0, 8)} `],
  },
  {
    name: 'session id with a trailing newline',
    handle: agent0((a) => (a.sessionId = `${sessionId}\n`)),
    field: 'agents[0].sessionId',
    message: /does not match the claude session id format/,
    offending: () => [`${sessionId}\n`],
  },
  {
    name: 'session id $(reboot)',
    handle: agent0((a) => (a.sessionId = '$(reboot)')),
    field: 'agents[0].sessionId',
    message: /does not match the claude session id format/,
    offending: ['$(reboot)', 'reboot'],
  },
  {
    name: 'relative cwd (proj)',
    handle: agent0((a) => (a.cwd = 'proj')),
    field: 'agents[0].cwd',
    message: /cwd must be an absolute path/,
    offending: ['proj'],
  },
  {
    name: 'non-existent cwd (/nonexistent/dir)',
    handle: agent0((a) => (a.cwd = '/nonexistent/dir')),
    field: 'agents[0].cwd',
    message: /directory does not exist/,
    offending: ['/nonexistent/dir', 'nonexistent'],
    inspect: 'cwd-missing',
  },
  {
    name: 'oversize handle (> 64 KiB)',
    handle: mutate((b) => (b['padding'] = 'x'.repeat(50_000))),
    field: 'handle',
    message: /larger than 64 KiB/,
    offending: ['xxxxxxxx'],
  },
  {
    name: '33 agents',
    handle: mutate((b) => {
      const a = b.agents[0]!;
      b.agents = Array.from({ length: 33 }, (_, i) => ({ ...a, id: newAgentId(), label: `agent-${i}` }));
    }),
    field: 'agents',
    message: /at most 32 agents/,
    offending: [],
  },
  {
    name: 'shell metacharacters in vendor (claude;rm -rf /)',
    handle: agent0((a) => (a.vendor = 'claude;rm -rf /')),
    field: 'agents[0].vendor',
    message: /unknown vendor/,
    offending: ['claude;rm -rf /', 'rm -rf'],
  },
  {
    name: 'shell metacharacters in session id (…;id)',
    handle: agent0((a) => (a.sessionId = `${UUID_SHAPED};id`)),
    field: 'agents[0].sessionId',
    message: /does not match the claude session id format/,
    offending: [`${UUID_SHAPED};id`, UUID_SHAPED],
  },
  {
    name: 'shell metacharacters in a non-existent cwd (/tmp/$(touch pwned))',
    handle: agent0((a) => (a.cwd = '/tmp/$(touch pwned)')),
    field: 'agents[0].cwd',
    message: /directory does not exist/,
    offending: ['/tmp/$(touch pwned)', 'pwned'],
    inspect: 'cwd-missing',
  },
  {
    name: 'BEL in the run name',
    handle: mutate((b) => (b.run.name = 'bad\u0007name')),
    field: 'run.name',
    message: /run name must not contain control characters/,
    offending: ['bad\u0007name', '\u0007'],
  },
  {
    name: 'newline in the run name',
    handle: mutate((b) => (b.run.name = 'bad\nname')),
    field: 'run.name',
    message: /run name must not contain control characters/,
    offending: ['bad\nname'],
  },
  {
    name: 'BEL in the label',
    handle: agent0((a) => (a.label = 'bad\u0007label')),
    field: 'agents[0].label',
    message: /label must not contain control characters/,
    offending: ['bad\u0007label', '\u0007'],
  },
  {
    name: 'newline in the label',
    handle: agent0((a) => (a.label = 'bad\nlabel')),
    field: 'agents[0].label',
    message: /label must not contain control characters/,
    offending: ['bad\nlabel'],
  },
  // Unicode format characters (category Cf) are invisible or reorder what is shown: a label or path could read
  // as another (docs/architecture.md §10).
  {
    name: 'a right-to-left override (U+202E) in the label',
    handle: agent0((a) => (a.label = 'plan\u202Egnp.exe')),
    field: 'agents[0].label',
    message: /label must not contain invisible formatting characters/,
    offending: ['plan\u202Egnp.exe', '\u202E'],
  },
  {
    name: 'a zero-width space (U+200B) in the run name',
    handle: mutate((b) => (b.run.name = 'de\u200Bmo')),
    field: 'run.name',
    message: /run name must not contain invisible formatting characters/,
    offending: ['de\u200Bmo', '\u200B'],
  },
  {
    name: 'a byte order mark (U+FEFF) in the label',
    handle: agent0((a) => (a.label = '\uFEFFplanner')),
    field: 'agents[0].label',
    message: /label must not contain invisible formatting characters/,
    offending: ['\uFEFFplanner', '\uFEFF'],
  },
  {
    name: 'a tag character (U+E0041, category Cf) in the label',
    handle: agent0((a) => (a.label = 'planner\u{E0041}')),
    field: 'agents[0].label',
    message: /label must not contain invisible formatting characters/,
    offending: ['planner\u{E0041}'],
  },
  {
    name: 'a left-to-right isolate (U+2066) in the cwd',
    handle: agent0((a) => (a.cwd = '/home/\u2066victim\u2069/proj')),
    field: 'agents[0].cwd',
    message: /cwd must not contain invisible formatting characters/,
    offending: ['/home/\u2066victim\u2069/proj', 'victim'],
  },
  {
    name: 'run name of 101 characters',
    handle: mutate((b) => (b.run.name = 'n'.repeat(101))),
    field: 'run.name',
    message: /run name must be at most 100 characters/,
    offending: ['n'.repeat(101)],
  },
  {
    name: 'label of 101 characters',
    handle: agent0((a) => (a.label = 'l'.repeat(101))),
    field: 'agents[0].label',
    message: /label must be at most 100 characters/,
    offending: ['l'.repeat(101)],
  },
];

/** Runs `action` and checks it spawned no process and wrote nothing under <dataDir>/runs. */
async function withoutEffects<T>(action: () => Promise<T>): Promise<T> {
  const runsDir = join(server.dataDir, 'runs');
  const procsBefore = descendantKeys(server.child.pid!);
  const storeBefore = storeListing(runsDir);
  const out = await action();
  // A spawn would already have happened before the reply; a short pause also catches a late one.
  await new Promise((r) => setTimeout(r, 100));
  expect(descendantKeys(server.child.pid!)).toEqual(procsBefore);
  expect(storeListing(runsDir)).toEqual(storeBefore);
  return out;
}

async function refusal(promise: Promise<unknown>): Promise<BatonError> {
  const err = await promise.then(
    () => {
      throw new Error('the request was accepted');
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(BatonError);
  return err as BatonError;
}

function expectQuiet(err: { message: string }, handle: string, offending: readonly string[]): void {
  expect(err.message.includes(handle)).toBe(false);
  expect(err.message.includes(handle.slice(0, 40))).toBe(false);
  for (const value of [...offending, sessionId, proj])
    expect(err.message.includes(value), `message echoes ${JSON.stringify(value)}`).toBe(false);
}

describe('bad handles through the real WebSocket', () => {
  it('the valid handle, with a run id the store does not know, is accepted by handle.inspect (control)', async () => {
    const text = handleOf(freshBody);
    handleTexts.push(text);
    const preview = await withoutEffects(() => client.call('handle.inspect', { handle: text }));
    expect(preview.knownRun).toBe(false);
    expect(preview.agents).toHaveLength(1);
    expect(preview.agents[0]!.check).not.toBe('cwd-missing');
  });

  it.each(cases)('refuses $name', async (c) => {
    const handle = c.handle();
    handleTexts.push(handle);
    const offending = typeof c.offending === 'function' ? c.offending() : c.offending;
    // Where a `$(touch pwned)` run by some shell would leave its file: the server's cwd, /tmp, the agent's cwd.
    const serverCwd = readlinkSync(`/proc/${server.child.pid}/cwd`);
    const pwnedPlaces = [
      serverCwd,
      process.cwd(),
      ROOT,
      tmpdir(),
      '/tmp',
      proj,
      server.dataDir,
      join(root, 'home'),
    ].map((d) => join(d, 'pwned'));
    const pwnedBefore = pwnedPlaces.filter((p) => existsSync(p));

    const resumeErr = await withoutEffects(() => refusal(client.call('run.resume', { handle })));
    expect(resumeErr.code).toBe('invalid');
    expect(resumeErr.field).toBe(c.field);
    expect(resumeErr.message).toMatch(c.message);
    expect(resumeErr.message.startsWith(`${c.field}: `) || c.field === 'handle').toBe(true);
    expectQuiet(resumeErr, handle, offending);

    if (c.inspect === 'cwd-missing') {
      const preview = await withoutEffects(() => client.call('handle.inspect', { handle }));
      expect(preview.agents[0]!.check).toBe('cwd-missing');
      expect(preview.agents[0]!.command).toEqual([]);
    } else {
      const inspectErr = await withoutEffects(() => refusal(client.call('handle.inspect', { handle })));
      expect(inspectErr.code).toBe('invalid');
      expect(inspectErr.field).toBe(c.field);
      expect(inspectErr.message).toMatch(c.message);
      expectQuiet(inspectErr, handle, offending);
    }
    expect(pwnedPlaces.filter((p) => existsSync(p))).toEqual(pwnedBefore);
  });

  it('refuses a non-existent cwd in a handle of a run the store knows', async () => {
    const b = structuredClone(validBody);
    b.agents[0]!.cwd = '/nonexistent/dir';
    const handle = handleOf(b);
    handleTexts.push(handle);
    const err = await withoutEffects(() => refusal(client.call('run.resume', { handle })));
    expect(err).toMatchObject({ code: 'invalid', field: 'agents[0].cwd' });
    expect(err.message).toMatch(/directory does not exist/);
    expectQuiet(err, handle, ['/nonexistent/dir']);
  });

  it('refuses a handle longer than the request limit (128 Ki characters) at the contract', async () => {
    const handle = handleOf({ ...freshBody, padding: 'y'.repeat(100_000) });
    handleTexts.push(handle);
    for (const method of ['run.resume', 'handle.inspect']) {
      const res = await withoutEffects(() => raw.call(method, { handle }));
      expect(res.ok).toBe(false);
      expect(res.error).toMatchObject({ code: 'invalid', field: 'handle' });
      expectQuiet(res.error!, handle, ['yyyyyyyy']);
    }
  });
});

describe('run.start, run.rename and agent.add refusals through the real WebSocket', () => {
  const runNames = async () => ((await raw.call('run.list', {})).result as { name: string }[]).map((r) => r.name);
  const shellAgent = () => ({
    vendor: 'shell',
    cwd: proj,
    command: ['/bin/sh', '-c', 'echo should-not-run; sleep 30'],
  });

  it('refuses 33 agents, before anything runs', async () => {
    const agents = Array.from({ length: 33 }, (_, i) => ({ ...shellAgent(), label: `s${i}` }));
    // Sent raw: the client library would refuse it locally before it ever reached the server.
    const res = await withoutEffects(() => raw.call('run.start', { name: 'too-many', agents }));
    expect(res.ok).toBe(false);
    expect(res.error).toMatchObject({ code: 'invalid', field: 'agents' });
    expect(res.error!.message).toMatch(/32/);
    const local = await refusal(client.call('run.start', { name: 'too-many', agents: agents as never }));
    expect(local.code).toBe('invalid');
    expect(await runNames()).not.toContain('too-many');
  });

  it.each([
    ['BEL', 'bad\u0007run'],
    ['newline', 'bad\nrun'],
  ])('refuses a %s in the run name, before anything runs', async (_what, name) => {
    const res = await withoutEffects(() => raw.call('run.start', { name, agents: [shellAgent()] }));
    expect(res.ok).toBe(false);
    expect(res.error).toMatchObject({ code: 'invalid', field: 'name' });
    expect(res.error!.message).toMatch(/run name must not contain control characters/);
    expect(res.error!.message.includes(name)).toBe(false);
    expect(await runNames()).not.toContain(name);
  });
});

describe('format characters are refused wherever a name, label or path enters', () => {
  const shellAgent = (extra: Record<string, string> = {}) => ({
    vendor: 'shell',
    cwd: proj,
    command: ['/bin/sh', '-c', 'echo should-not-run; sleep 30'],
    ...extra,
  });
  const cases: { name: string; method: string; params: () => unknown; field: string; offending: () => string }[] = [
    {
      name: 'run.start: U+202E in the run name',
      method: 'run.start',
      params: () => ({ name: 'x\u202Eyz', agents: [shellAgent()] }),
      field: 'name',
      offending: () => 'x\u202Eyz',
    },
    {
      name: 'run.start: a zero-width joiner (U+200D) in a label',
      method: 'run.start',
      params: () => ({ name: 'zwj', agents: [shellAgent({ label: 'a\u200Db' })] }),
      field: 'agents[0].label',
      offending: () => 'a\u200Db',
    },
    {
      name: 'run.start: U+2069 in a cwd',
      method: 'run.start',
      params: () => ({ name: 'pdi', agents: [shellAgent({ cwd: `${proj}\u2069` })] }),
      field: 'agents[0].cwd',
      offending: () => `${proj}\u2069`,
    },
    {
      name: 'run.rename: U+FEFF in the new name',
      method: 'run.rename',
      params: () => ({ run: 'valid', name: '\uFEFFvalid2' }),
      field: 'name',
      offending: () => '\uFEFFvalid2',
    },
    {
      name: 'agent.add: a right-to-left mark (U+200F) in the label',
      method: 'agent.add',
      params: () => ({ run: 'valid', agent: shellAgent({ label: 'sh\u200F' }) }),
      field: 'agent.label',
      offending: () => 'sh\u200F',
    },
    {
      name: 'agent.add: U+202A in the cwd',
      method: 'agent.add',
      params: () => ({ run: 'valid', agent: shellAgent({ cwd: `/\u202A${proj.slice(1)}` }) }),
      field: 'agent.cwd',
      offending: () => `/\u202A${proj.slice(1)}`,
    },
  ];

  it.each(cases)('$name, with the field, before anything runs', async (c) => {
    const before = await client.call('run.get', { run: 'valid' });
    const res = await withoutEffects(() => raw.call(c.method, c.params()));
    expect(res.ok).toBe(false);
    expect(res.error).toMatchObject({ code: 'invalid', field: c.field });
    expect(res.error!.message).toMatch(/must not contain invisible formatting characters/);
    expect(res.error!.message.includes(c.offending())).toBe(false);
    const after = await client.call('run.get', { run: 'valid' });
    expect(after.name).toBe(before.name);
    expect(after.agents.map((a) => a.label)).toEqual(before.agents.map((a) => a.label));
  });
});

describe('afterwards', () => {
  it('the harness sees a real resume: it spawns and writes (control)', async () => {
    const runsDir = join(server.dataDir, 'runs');
    const before = storeListing(runsDir);
    const result = await client.call('run.resume', { handle: validHandle });
    expect(result.outcomes.map((o) => o.outcome)).toEqual(['resumed']);
    expect(descendantKeys(server.child.pid!).length).toBeGreaterThan(0);
    expect(storeListing(runsDir)).not.toEqual(before);
    await client.call('run.stop', { run: result.run.id });
  });

  it('no handle text, and no session id, ever reached the server output', () => {
    const output = server.output();
    expect(handleTexts.length).toBeGreaterThan(cases.length);
    for (const text of handleTexts) expect(output.includes(text)).toBe(false);
    expect(output.includes(sessionId)).toBe(false);
    expect(output).not.toMatch(/baton1\./);
    expect(output).not.toMatch(/internal error/);
  });
});
