// Remote hosts (docs/hosts.md) without a network: what travels in a handle about a host and how it is checked, how
// `--agent vendor@host:dir` is read, and what ssh is asked to do (argv only, strict host keys, shared connection).
import { describe, expect, it } from 'vitest';
import { BatonError } from '../../shared/contract.js';
import type { VendorName } from '../../shared/words.js';
import { decodeHandle, encodeHandle, type HandleRules } from '../../electron/core/handle/codec.js';
import { parseAgentSpec } from '../../electron/cli/commands/agents.js';
import { explainSshFailure, sshArgs, sshDestination } from '../../electron/core/remote/ssh.js';
import { serverDir } from '../../electron/core/remote/install.js';

const rules: HandleRules = {
  sessionIdPattern: (vendor: VendorName) =>
    vendor === 'shell' ? null : vendor === 'claude' ? /^[0-9a-f-]{36}$/ : undefined,
};
const RUN = { name: 'mixed', id: 'run_0123456789abcdef' };
const CREATED = '2025-06-01T12:00:00.000Z';
const SESSION = '0b5e1a4c-9d2f-4e6a-8b7c-1d2e3f4a5b6c';
const agentWith = (host: unknown, extra: Record<string, unknown> = {}) => ({
  id: 'agt_0000000000000001',
  label: 'remote',
  vendor: 'claude',
  sessionId: SESSION,
  cwd: '/home/me/app',
  host,
  ...extra,
});
const handleOf = (agent: unknown) => JSON.stringify({ v: 1, run: RUN, createdAt: CREATED, agents: [agent] });

function refusal(text: string): BatonError {
  try {
    decodeHandle(text, rules);
  } catch (err) {
    if (err instanceof BatonError) return err;
    throw err;
  }
  throw new Error('the handle was accepted');
}

describe('a host alias in a handle', () => {
  it('travels and comes back as it was', () => {
    const text = encodeHandle({
      run: RUN,
      createdAt: CREATED,
      agents: [
        {
          id: 'agt_0000000000000001',
          label: 'remote',
          vendor: 'claude',
          sessionId: SESSION,
          cwd: '/srv/app',
          host: 'me@devbox:2222',
        },
      ],
    });
    expect(decodeHandle(text, rules).agents[0]).toMatchObject({ host: 'me@devbox:2222', cwd: '/srv/app' });
    expect(decodeHandle(handleOf(agentWith('devbox')), rules).agents[0]?.host).toBe('devbox');
  });

  it('is a name ssh looks up, never an option or a command, and the error never echoes it', () => {
    for (const bad of ['-oProxyCommand=touch /tmp/x', 'devbox;rm -rf ~', 'dev box', '$(id)', 'a\nb', '', 42]) {
      const err = refusal(handleOf(agentWith(bad)));
      expect(err.toWire().field).toBe('agents[0].host');
      if (typeof bad === 'string' && bad !== '') expect(err.message).not.toContain(bad);
    }
  });

  it('carries its worktree on that host, checked as strictly as a local one', () => {
    const worktree = {
      repoRoot: '/home/me/app',
      worktreePath: '/home/me/wt',
      branch: 'baton/mixed/remote',
      baseCommit: 'a'.repeat(40),
    };
    const decoded = decodeHandle(handleOf(agentWith('devbox', { cwd: '/home/me/wt/lib', worktree })), rules);
    expect(decoded.agents[0]).toMatchObject({ host: 'devbox', cwd: '/home/me/wt/lib', worktree });
    // A cwd outside the worktree, or a branch git would refuse, is refused for a remote agent too.
    expect(refusal(handleOf(agentWith('devbox', { cwd: '/home/me/app', worktree }))).toWire().field).toBe(
      'agents[0].cwd',
    );
    const badBranch = { ...worktree, branch: 'baton/../x' };
    expect(refusal(handleOf(agentWith('devbox', { cwd: '/home/me/wt', worktree: badBranch }))).toWire().field).toMatch(
      /^agents\[0\]\.worktree/,
    );
  });
});

describe('--agent vendor:label@host:dir', () => {
  const env = { HOME: '/home/me' };
  it('reads a host and keeps ~ for that host to expand', () => {
    expect(parseAgentSpec('claude:a@devbox:~/src/app', env)).toEqual({
      vendor: 'claude',
      label: 'a',
      cwd: '~/src/app',
      host: 'devbox',
    });
    expect(parseAgentSpec('shell@me@10.0.0.5:2222:/srv/app', env)).toEqual({
      vendor: 'shell',
      cwd: '/srv/app',
      host: 'me@10.0.0.5:2222',
    });
  });

  it('leaves a local directory local', () => {
    expect(parseAgentSpec('codex@~/src/app', env)).toEqual({ vendor: 'codex', cwd: '/home/me/src/app' });
    expect(parseAgentSpec('codex@/srv/a:b', env)).toEqual({ vendor: 'codex', cwd: '/srv/a:b' });
  });

  it('refuses a host that could be an ssh option', () => {
    expect(() => parseAgentSpec('claude@-oProxyCommand=x:/tmp', env)).toThrow(/is not a host/);
  });
});

describe('ssh as Baton runs it', () => {
  const options = { controlDir: '/home/me/.baton/ssh', configFile: '/home/me/test_ssh_config' };
  it('never prompts, refuses unknown host keys, shares one connection, and ends options before the host', () => {
    const args = sshArgs('me@devbox:2222', options);
    const opts = args.filter((_, i) => args[i - 1] === '-o');
    expect(opts).toEqual(
      expect.arrayContaining([
        'BatchMode=yes',
        'StrictHostKeyChecking=yes',
        'ControlMaster=auto',
        'ControlPath=/home/me/.baton/ssh/%C',
      ]),
    );
    expect(args.slice(-2)).toEqual(['--', 'me@devbox']);
    expect(args[args.indexOf('-p') + 1]).toBe('2222');
    expect(args.slice(0, 3)).toEqual(['-T', '-F', '/home/me/test_ssh_config']);
    expect(sshDestination('devbox')).toEqual({ destination: 'devbox', port: null });
    expect(() => sshArgs('-oProxyCommand=x', options)).toThrow();
  });

  it('says what to do about an unknown host key, in ssh’s own words too', () => {
    const said =
      'No ED25519 host key is known for [127.0.0.1]:2222 and you have requested strict checking.\nHost key verification failed.';
    const message = explainSshFailure('devbox', said);
    expect(message).toMatch(/not in your known_hosts/);
    expect(message).toMatch(/run `ssh devbox` in a terminal once/);
    expect(message).toContain('Host key verification failed.');
  });

  it('installs only a version that is a version', () => {
    expect(serverDir('0.1.0')).toBe('"$HOME/.baton/server/0.1.0"');
    expect(() => serverDir('0.1.0; rm -rf ~')).toThrow();
  });
});
