// Typing a message to a real CLI until its model is asked. A CLI under load may take Enter as part of a paste and keep
// the text in its input box (then Enter again sends it); a CLI that has just started or resumed may show its prompt
// before its input box takes keys (Gemini resumed under a fresh HOME dropped the whole text in 1 of 4 runs here): then
// the text is typed again. Which of the two happened is told by the screen: the text shows once more than before it
// was typed only when it sits in the box. BATON_COMPAT_NO_RETYPE=1 turns every retry off: the product's agent.send
// alone must deliver the text.
import type { RpcClient } from '../../shared/client.js';

export interface Sent {
  /** Extra Enters pressed because the text sat in the input box. */
  extraEnters: number;
  /** Times the whole text was typed again because the CLI had dropped it. */
  retyped: number;
  /** What the first retry found: where the typed text was. */
  stuck: string | null;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const count = (hay: string, needle: string) => hay.split(needle).length - 1;

/**
 * agent.send `text`, then until `reached()` (or `deadline`): every 10 s without it, Enter again if the text sits in
 * the input box, else the text again; at most `retries` times in all.
 */
export async function sendUntilAsked(
  client: RpcClient,
  agentId: string,
  text: string,
  reached: () => boolean,
  deadline: number,
  retries = 3,
): Promise<Sent> {
  const screen = async () => (await client.call('agent.screen', { agentId })).text;
  const shownBefore = count(await screen(), text);
  await client.call('agent.send', { agentId, text });
  const sent: Sent = { extraEnters: 0, retyped: 0, stuck: null };
  if (process.env.BATON_COMPAT_NO_RETYPE === '1') retries = 0;
  let lastTry = Date.now();
  while (!reached() && Date.now() < deadline) {
    if (Date.now() - lastTry > 10_000 && sent.extraEnters + sent.retyped < retries) {
      const inBox = count(await screen(), text) > shownBefore;
      sent.stuck ??= inBox ? 'the text sat in the input box' : 'the text was not in the input box';
      if (inBox) {
        await client.call('agent.write', { agentId, data: '\r' });
        sent.extraEnters++;
      } else {
        await client.call('agent.send', { agentId, text });
        sent.retyped++;
      }
      lastTry = Date.now();
      // Said in the run's output: a retry that then passed is how a CLI's flakiness shows before it fails a CI.
      console.warn(
        `compat: ${JSON.stringify(text)} to ${agentId}: ${inBox ? 'Enter again' : 'typed again'} (${sent.stuck})`,
      );
    }
    await sleep(200);
  }
  return sent;
}

/** What the retries were, for the report ("2 extra Enter(s) and 1 retyping after agent.send (…)"), or null. */
export function retriesNote(sent: Sent): string | null {
  if (sent.extraEnters + sent.retyped === 0) return null;
  return `${sent.extraEnters} extra Enter(s) and ${sent.retyped} retyping(s) after agent.send (${sent.stuck})`;
}
