// The compat suite's view of an agent's screen: read it, wait for a text on it, and say something to a real CLI,
// waiting for the mock model to be asked and for the answer to show.
import type { RpcClient } from '../../shared/client.js';
import { type LoggedRequest } from './mock-model.js';
import { type CompatVendorSpec } from './vendors.js';
import { mock, sleep } from './compat-harness.js';

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
export async function say(
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
