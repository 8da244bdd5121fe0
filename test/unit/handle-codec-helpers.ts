// handle-codec*.test.ts's shared parts: the rules the codec is given, agents and raw handle bodies to encode, and
// the checks that a refusal names its field and rule and never echoes a secret.
import { expect } from 'vitest';
import { BatonError } from '../../shared/contract.js';
import { type VendorName } from '../../shared/words.js';
import { decodeHandle, type HandleAgent, type HandleRules } from '../../electron/core/handle/codec.js';

const CLAUDE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const rules: HandleRules = {
  sessionIdPattern(vendor: VendorName) {
    if (vendor === 'claude') return CLAUDE_ID;
    if (vendor === 'shell') return null;
    return undefined;
  },
};

export const SESSION = '0b5e1a4c-9d2f-4e6a-8b7c-1d2e3f4a5b6c';
export const RUN = { name: 'auth-refactor', id: 'run_0123456789abcdef' };
export const CREATED = '2025-06-01T12:00:00.000Z';

export function agent(n: number, over: Partial<HandleAgent> = {}): HandleAgent {
  return {
    id: `agt_${n.toString(36).padStart(16, '0')}`,
    label: `agent ${n}`,
    vendor: 'claude',
    sessionId: SESSION,
    cwd: '/home/me/project',
    ...over,
  };
}

export function rawJson(over: Record<string, unknown> = {}, agents: unknown[] = [agent(1)]): Record<string, unknown> {
  return { v: 1, run: RUN, createdAt: CREATED, agents, ...over };
}

export const b64 = (s: string) => `baton1.${Buffer.from(s, 'utf8').toString('base64url')}`;
export const b64json = (v: unknown) => b64(JSON.stringify(v));

/** Decodes, expects a refusal, and checks it names the field and rule without echoing the handle or `secret`. */
export function refused(text: string, field: string, rule: string | RegExp, secrets: string[] = []): BatonError {
  let caught: unknown;
  try {
    decodeHandle(text, rules);
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(BatonError);
  const e = caught as BatonError;
  expect(e.code).toBe('invalid');
  expect(e.field).toBe(field);
  if (typeof rule === 'string') expect(e.message).toContain(rule);
  else expect(e.message).toMatch(rule);
  expect(e.message).not.toContain(text.trim());
  for (const s of secrets) expect(e.message).not.toContain(s);
  return e;
}

/** The same bad agent both ways: base64url and raw JSON. */
export function refusedAgent(
  over: Partial<Record<keyof HandleAgent, unknown>>,
  field: string,
  rule: string | RegExp,
  secret?: string,
) {
  const json = rawJson({}, [{ ...agent(1), ...over }]);
  const secrets = secret === undefined ? [] : [secret];
  refused(b64json(json), field, rule, secrets);
  refused(JSON.stringify(json), field, rule, secrets);
}
