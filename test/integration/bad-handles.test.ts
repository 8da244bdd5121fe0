// Bad handles (and bad run.start requests) through the real WebSocket of a real `baton serve`: each is refused
// with a field-level 'invalid' error that echoes neither the handle nor the offending value, and nothing is
// spawned, nothing is written to the store, and no handle text reaches the server's output.
import { existsSync, readlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/server.js';
import { descendantKeys } from '../helpers/processes.js';
import {
  handleOf,
  storeListing,
  root,
  proj,
  server,
  client,
  raw,
  validHandle,
  validBody,
  freshBody,
  sessionId,
  handleTexts,
  useBadHandlesServer,
  withoutEffects,
  expectQuiet,
} from './bad-handles-server.js';
import { cases } from './bad-handles-cases.js';
import { refusal } from '../helpers/refusal.js';

useBadHandlesServer();

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
