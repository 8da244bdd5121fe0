import { describe, expect, it } from 'vitest';
import { AGENT_ID } from '../../shared/words.js';
import { decodeHandle, encodeHandle, type HandleAgent } from '../../electron/core/handle/codec.js';
import {
  rules,
  SESSION,
  RUN,
  CREATED,
  agent,
  rawJson,
  b64,
  b64json,
  refused,
  refusedAgent,
} from './handle-codec-helpers.js';

describe('handle codec: what decodes', () => {
  it('round-trips a run handle', () => {
    const agents = [agent(1), agent(2, { vendor: 'shell', sessionId: null, label: 'tests' })];
    const text = encodeHandle({ run: RUN, createdAt: CREATED, agents });
    expect(text.startsWith('baton1.')).toBe(true);
    expect(text).not.toContain('=');
    expect(decodeHandle(text, rules)).toEqual({ kind: 'run', run: RUN, createdAt: CREATED, agents });
  });

  it('round-trips an agent handle, and a one-agent run handle stays a run handle', () => {
    const text = encodeHandle({ run: RUN, createdAt: CREATED, agents: [agent(1)], scope: 'agent' });
    expect(decodeHandle(text, rules).kind).toBe('agent');
    expect(decodeHandle(encodeHandle({ run: RUN, createdAt: CREATED, agents: [agent(1)] }), rules).kind).toBe('run');
  });

  it('refuses to encode an agent handle with two agents', () => {
    expect(() => encodeHandle({ run: RUN, createdAt: CREATED, agents: [agent(1), agent(2)], scope: 'agent' })).toThrow(
      /exactly one agent/,
    );
  });

  it('accepts raw JSON', () => {
    expect(decodeHandle(JSON.stringify(rawJson()), rules)).toEqual({
      kind: 'run',
      run: RUN,
      createdAt: CREATED,
      agents: [agent(1)],
    });
  });

  it('accepts a handle with whitespace around it, as chat apps paste it', () => {
    const text = encodeHandle({ run: RUN, createdAt: CREATED, agents: [agent(1)] });
    expect(decodeHandle(`\n  ${text} \r\n\t`, rules).agents).toEqual([agent(1)]);
    expect(decodeHandle(`  ${JSON.stringify(rawJson())}\n`, rules).run).toEqual(RUN);
  });

  it('keeps a cwd with shell metacharacters unchanged: it is never passed through a shell', () => {
    const weird = '/tmp/a;b|c&d$(e)`f`';
    expect(decodeHandle(b64json(rawJson({}, [agent(1, { cwd: weird })])), rules).agents[0]?.cwd).toBe(weird);
  });

  it('reads a caw handle as one agent with a fresh id and no cwd', () => {
    const caw = { version: 1, provider: 'claude_code', session_id: 'abc', resume_key: SESSION };
    const h = decodeHandle(JSON.stringify(caw), rules);
    expect(h.kind).toBe('caw');
    expect(h.run).toBeNull();
    expect(h.createdAt).toBeNull();
    expect(h.agents).toHaveLength(1);
    expect(h.agents[0]).toMatchObject({ label: 'claude', vendor: 'claude', sessionId: SESSION, cwd: null });
    expect(h.agents[0]?.id).toMatch(AGENT_ID);
    expect(decodeHandle(JSON.stringify(caw), rules).agents[0]?.id).not.toBe(h.agents[0]?.id);
  });
});

describe('handle codec: what is refused, and how', () => {
  it('malformed base64url', () => {
    refused('baton1.abc*def', 'handle', 'handle is not valid base64url');
    refused('baton1.', 'handle', 'handle is not valid base64url');
    refused('baton1.abcde', 'handle', 'handle is not valid base64url');
    refused('baton1.eyJ2IjoxfQ==', 'handle', 'handle is not valid base64url');
  });

  it('malformed JSON, without passing on the parser message', () => {
    const inner = '{"v":1,"run":{"name":"secret-name"';
    const e = refused(b64(inner), 'handle', 'handle is not valid JSON (after base64url decoding)', ['secret-name']);
    expect(e.message).toBe('handle is not valid JSON (after base64url decoding)');
    refused('{"v":1, secret-name', 'handle', 'handle is not valid JSON', ['secret-name']);
  });

  it('invalid UTF-8 inside the base64url', () => {
    const text = `baton1.${Buffer.from([0x7b, 0xff, 0xfe, 0x7d]).toString('base64url')}`;
    refused(text, 'handle', 'handle is not valid UTF-8 (after base64url decoding)');
  });

  it('another handle version, in the prefix', () => {
    const text = b64json({ ...rawJson(), v: 2 }).replace('baton1.', 'baton2.');
    refused(text, 'handle', 'handle version 2 is not supported (this Baton reads version 1)');
  });

  it('another handle version, in the JSON', () => {
    refused(b64json(rawJson({ v: 2 })), 'v', 'handle version is not supported (this Baton reads version 1)');
    refused(JSON.stringify(rawJson({ v: '1' })), 'v', 'handle version is not supported');
  });

  it('text that is no handle at all', () => {
    refused('hello there', 'handle', 'not a Baton handle (expected baton1.… or JSON)');
    refused('[1,2]', 'handle', 'not a Baton handle');
  });

  it('JSON that is not an object, or has no version', () => {
    refused(b64json([rawJson()]), 'handle', 'handle must be a JSON object');
    const { v: _v, ...noVersion } = rawJson();
    refused(JSON.stringify(noVersion), 'v', 'handle version is missing');
  });

  it('an unknown vendor, never echoed', () => {
    refusedAgent({ vendor: 'evil;rm -rf /' }, 'agents[0].vendor', 'agents[0].vendor: unknown vendor', 'evil');
    refusedAgent({ vendor: 'claude$(reboot)' }, 'agents[0].vendor', 'unknown vendor', 'reboot');
    refusedAgent({ vendor: 42 }, 'agents[0].vendor', 'vendor must be text');
  });

  it('a vendor Baton knows but cannot run here', () => {
    refusedAgent({ vendor: 'codex' }, 'agents[0].vendor', "vendor 'codex' is not supported");
  });

  it.each([
    ['a leading dash', '-rf'],
    ['a dash-prefixed uuid', `-${SESSION.slice(1)}`],
    ['whitespace inside', `${SESSION.slice(0, 10)} ${SESSION.slice(11)}`],
    ['a trailing newline', `${SESSION}\n`],
    ['a command substitution', '$(reboot)'],
    ['shell metacharacters', `${SESSION};rm`],
    ['a backtick', `\`${SESSION.slice(1)}`],
    ['upper case', SESSION.toUpperCase()],
  ])('a session id with %s', (_what, sessionId) => {
    refusedAgent(
      { sessionId },
      'agents[0].sessionId',
      'agents[0].sessionId: does not match the claude session id format',
      sessionId,
    );
  });

  it('a session id where the vendor has none, and none where it needs one', () => {
    refusedAgent({ vendor: 'shell' }, 'agents[0].sessionId', 'shell agents have no session id', SESSION);
    refusedAgent({ sessionId: null }, 'agents[0].sessionId', 'a claude agent needs a session id');
    refusedAgent({ sessionId: '' }, 'agents[0].sessionId', 'sessionId must not be empty');
  });

  it('a session id is still checked in the second agent, and the field says which', () => {
    const json = rawJson({}, [agent(1), agent(2, { sessionId: 'nope' })]);
    refused(b64json(json), 'agents[1].sessionId', 'does not match the claude session id format', ['nope']);
  });

  it.each([
    ['relative', 'home/me', 'cwd must be an absolute path'],
    ['dot-relative', './x', 'cwd must be an absolute path'],
    ['with ..', '/home/me/../../etc', 'cwd must be normalised'],
    ['with //', '/home//me', 'cwd must be normalised'],
    ['with a trailing slash', '/home/me/', 'cwd must be normalised'],
    ['with a newline', '/home/me\n/x', 'cwd must not contain control characters'],
    ['with an escape', '/home/\u001b[2Jme', 'cwd must not contain control characters'],
    ['empty', '', 'cwd must not be empty'],
  ])('a cwd that is %s', (_what, cwd, rule) => {
    refusedAgent({ cwd }, 'agents[0].cwd', `agents[0].cwd: ${rule}`, cwd || undefined);
  });

  it('a handle larger than 64 KiB', () => {
    const big = b64json(rawJson({}, [agent(1, { label: 'x'.repeat(70 * 1024) })]));
    refused(big, 'handle', 'handle is larger than 64 KiB');
    refused(`{"v":1,"pad":"${'y'.repeat(65 * 1024)}"}`, 'handle', 'handle is larger than 64 KiB');
  });

  it('more than 32 agents', () => {
    const agents = Array.from({ length: 33 }, (_, i) => agent(i + 1));
    refused(b64json(rawJson({}, agents)), 'agents', 'a handle holds at most 32 agents');
    refused(b64json(rawJson({}, [])), 'agents', 'a handle holds at least one agent');
  });

  it('duplicate agent ids', () => {
    refused(b64json(rawJson({}, [agent(1), agent(1, { label: 'twin' })])), 'agents[1].id', 'agent ids must be unique');
  });

  it('bad run and agent ids', () => {
    refused(b64json(rawJson({ run: { ...RUN, id: 'run_../../etc' } })), 'run.id', 'run id is not a Baton run id', [
      '../',
    ]);
    refusedAgent({ id: 'agt_;reboot' }, 'agents[0].id', 'agent id is not a Baton agent id', 'reboot');
  });

  it.each([
    ['a control character', 'run\u0007name', 'run name must not contain control characters'],
    ['a newline', 'line\nbreak', 'run name must not contain control characters'],
    ['more than 100 characters', 'n'.repeat(101), 'run name must be at most 100 characters'],
    ['nothing', '', 'run name must not be empty'],
  ])('a run name with %s', (_what, name, rule) => {
    const json = rawJson({ run: { ...RUN, name } });
    refused(b64json(json), 'run.name', `run.name: ${rule}`, name ? [name] : []);
  });

  it.each([
    ['a control character', 'plan\u0000ner', 'label must not contain control characters'],
    ['a line separator', 'plan\u2028ner', 'label must not contain control characters'],
    ['more than 100 characters', 'l'.repeat(101), 'label must be at most 100 characters'],
  ])('a label with %s', (_what, label, rule) => {
    refusedAgent({ label }, 'agents[0].label', `agents[0].label: ${rule}`, label);
  });

  it('unknown extra keys, at any level, without naming them', () => {
    refused(b64json(rawJson({ command: 'rm -rf /' })), 'handle', 'unknown field', ['command', 'rm -rf']);
    refused(b64json(rawJson({ run: { ...RUN, env: 'X=1' } })), 'run', 'unknown field', ['env']);
    refusedAgent(
      { args: ['--dangerously-skip-permissions'] } as Partial<Record<keyof HandleAgent, unknown>>,
      'agents[0]',
      'unknown field',
      'dangerously',
    );
  });

  it('a malformed createdAt or scope', () => {
    refused(b64json(rawJson({ createdAt: 'yesterday' })), 'createdAt', 'createdAt must be an ISO 8601 time', [
      'yesterday',
    ]);
    refused(b64json(rawJson({ scope: 'everything' })), 'scope', 'scope must be "agent" when present', ['everything']);
    refused(
      b64json(rawJson({ scope: 'agent' }, [agent(1), agent(2)])),
      'scope',
      'an agent handle holds exactly one agent',
    );
  });

  it('caw handles: extra keys, a cwd, unknown providers, bad resume keys, other versions', () => {
    const caw = { version: 1, provider: 'claude_code', session_id: 'abc', resume_key: SESSION };
    refused(JSON.stringify({ ...caw, cwd: '/tmp' }), 'handle', 'unknown field');
    refused(JSON.stringify({ ...caw, provider: 'evil;rm' }), 'provider', 'provider is not one Baton knows', ['evil']);
    refused(JSON.stringify({ ...caw, provider: 'codex' }), 'provider', "vendor 'codex' is not supported");
    refused(
      JSON.stringify({ ...caw, resume_key: '-rf' }),
      'resume_key',
      'does not match the claude session id format',
      ['-rf'],
    );
    refused(JSON.stringify({ ...caw, version: 2 }), 'version', 'caw handle version is not supported');
    const { session_id: _s, ...missing } = caw;
    refused(JSON.stringify(missing), 'session_id', 'session_id must be text');
  });
});
