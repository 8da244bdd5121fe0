// The compat suite's view of an agent's screen: read it, wait for a text on it, and say something to a real CLI,
// waiting for the mock model to be asked and for the answer to show.
import type { RpcClient } from '../../shared/client.js';
import { type LoggedRequest } from './mock-model.js';
import { type CompatVendorSpec } from './vendors.js';
import { mock, sleep } from './compat-harness.js';
import { sendUntilAsked, type Sent } from './send-text.js';

async function screenOf(client: RpcClient, agentId: string): Promise<string> {
  return (await client.call('agent.screen', { agentId })).text;
}

/** Waits until the screen matches any of `patterns`; the error carries the last screen seen. */
export async function waitScreen(
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

export const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface Said extends Sent {
  screen: string;
  /** The mock's requests since the text was typed. */
  requests: LoggedRequest[];
}

/**
 * Types `text` with Baton's own agent.send (text, the adapter's pause, Enter), then waits for a request with it to
 * reach the mock and for `expected` on the screen. A CLI under load may still take Enter as part of a paste
 * (docs/vendors.md §12.3), or drop keys typed just after it started: `sendUntilAsked` retries, and that is reported.
 */
export async function say(
  client: RpcClient,
  agentId: string,
  text: string,
  expected: RegExp,
  spec: CompatVendorSpec,
): Promise<Said> {
  const mark = mock.mark();
  const reached = () => mock.log().some((e) => e.seq > mark && e.lastUser.includes(text));
  const deadline = Date.now() + spec.answerMs;
  const sent = await sendUntilAsked(client, agentId, text, reached, deadline);
  if (!reached()) {
    throw new Error(
      `'${text}' never reached the mock model (${sent.extraEnters} extra Enter, ${sent.retyped} retyped); the screen showed:\n${trimScreen(await screenOf(client, agentId))}`,
    );
  }
  const screen = await waitScreen(
    client,
    agentId,
    [expected],
    Math.max(5000, deadline - Date.now()),
    `${expected} on the screen`,
  );
  return { ...sent, screen, requests: mock.log().filter((e) => e.seq > mark) };
}
