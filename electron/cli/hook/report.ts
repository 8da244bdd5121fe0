// `baton hook <vendor>`: what a vendor's hook or notify program runs (docs/attention.md §4). It reads the vendor's
// JSON (standard input for Claude and Gemini, the last argument for Codex's notify), adds the agent's id and secret
// from its environment, and sends one line to the core's hook socket. It never prints to standard output and always
// exits 0: a vendor may read a hook's output as an answer, and a failed report must never stop the agent's turn.
import { connect } from 'node:net';
import { HOOK_ENV, HOOK_MAX_INPUT } from '../../../shared/hook-wire.js';

/** The longest a report may hold the vendor up (it waits for its hooks). */
const REPORT_TIMEOUT_MS = 2000;

export interface HookOutcome {
  sent: boolean;
  answer: string | null;
}

function parsed(text: string | null): unknown {
  if (text === null || text.trim() === '') return null;
  try {
    return JSON.parse(text.slice(0, HOOK_MAX_INPUT)) as unknown;
  } catch {
    return null;
  }
}

/** Standard input, when it is a pipe (never a terminal), up to the limit; null when there is none. */
async function readStdin(): Promise<string | null> {
  if (process.stdin.isTTY) return null;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = setTimeout(() => finish(), REPORT_TIMEOUT_MS);
    const finish = () => {
      clearTimeout(timer);
      process.stdin.pause();
      resolve(size === 0 ? null : Buffer.concat(chunks).toString('utf8'));
    };
    process.stdin.on('data', (c: Buffer) => {
      if (size < HOOK_MAX_INPUT) chunks.push(c);
      size += c.length;
    });
    process.stdin.on('end', finish);
    process.stdin.on('error', finish);
  });
}

/** Sends the report; `vendor` is the word after `hook`, `arg` the vendor's last argument (Codex's notify JSON). */
export async function sendHookReport(
  vendor: string,
  arg: string | null,
  env: NodeJS.ProcessEnv,
  stdinText?: string | null,
): Promise<HookOutcome> {
  const socket = env[HOOK_ENV.socket];
  const agent = env[HOOK_ENV.agent];
  const secret = env[HOOK_ENV.secret];
  if (!socket || !agent || !secret) return { sent: false, answer: null };
  const stdin = stdinText === undefined ? await readStdin() : stdinText;
  const line = `${JSON.stringify({ v: 1, agent, secret, vendor, stdin: parsed(stdin), arg: parsed(arg) })}\n`;
  return new Promise((resolve) => {
    let answer = '';
    const conn = connect(socket);
    const timer = setTimeout(() => conn.destroy(), REPORT_TIMEOUT_MS);
    conn.setEncoding('utf8');
    conn.on('connect', () => conn.write(line));
    conn.on('data', (d: string) => (answer += d));
    conn.on('error', () => undefined);
    conn.on('close', () => {
      clearTimeout(timer);
      const word = answer.trim();
      resolve({ sent: word !== '', answer: word === '' ? null : word });
    });
  });
}
