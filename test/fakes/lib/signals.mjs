// What the fake CLIs do with the per-session signal options Baton passes, as the real CLIs do (docs/attention.md):
// Claude Code's `--settings <json|file>` hooks (each a shell command, run with the event's JSON on standard input and
// waited for), Codex's `-c notify=[argv]` (run with the JSON as its last argument, not waited for). Also the fake
// model's tool call: a prompt saying "please run `cmd`" asks for approval first. Node builtins only.
import { spawn } from 'node:child_process';
import fs from 'node:fs';

/** The hooks of a `--settings` value (a JSON text or a file holding one), or {} when there are none. */
export function settingsHooks(value) {
  if (typeof value !== 'string') return {};
  let text = value;
  if (!value.trimStart().startsWith('{')) {
    try {
      text = fs.readFileSync(value, 'utf8');
    } catch {
      return {};
    }
  }
  try {
    const parsed = JSON.parse(text);
    return parsed && typeof parsed.hooks === 'object' && parsed.hooks !== null ? parsed.hooks : {};
  } catch {
    return {};
  }
}

/** Runs every command hook of `event` (matching `tool`, when given) through `sh -c`, JSON on stdin; waits for them. */
export async function runHooks(hooks, event, payload, tool = null) {
  const groups = Array.isArray(hooks[event]) ? hooks[event] : [];
  const runs = [];
  for (const group of groups) {
    if (tool !== null && typeof group.matcher === 'string' && group.matcher !== '' && group.matcher !== '*') {
      if (!new RegExp(`^(?:${group.matcher})$`).test(tool)) continue;
    }
    for (const h of Array.isArray(group.hooks) ? group.hooks : []) {
      if (h.type !== 'command' || typeof h.command !== 'string') continue;
      runs.push(
        new Promise((resolve) => {
          const child = spawn('/bin/sh', ['-c', h.command], { stdio: ['pipe', 'ignore', 'ignore'] });
          child.on('error', resolve);
          child.on('exit', resolve);
          child.stdin.on('error', () => undefined);
          child.stdin.end(JSON.stringify({ hook_event_name: event, ...payload }));
        }),
      );
    }
  }
  await Promise.all(runs);
}

/** The notify program of Codex's `-c notify=[…]` overrides (the last one wins), or null. */
export function notifyProgram(configs) {
  let program = null;
  for (const c of configs) {
    const m = /^notify\s*=\s*(.*)$/s.exec(c);
    if (!m) continue;
    try {
      const argv = JSON.parse(m[1]);
      if (Array.isArray(argv) && argv.length > 0 && argv.every((a) => typeof a === 'string')) program = argv;
    } catch {
      /* not an array Codex would take either */
    }
  }
  return program;
}

/** Runs the notify program with the JSON as its last argument, as Codex does: detached, not waited for. */
export function runNotify(program, payload) {
  if (!program) return;
  const [bin, ...args] = program;
  const child = spawn(bin, [...args, JSON.stringify(payload)], { stdio: 'ignore', detached: true });
  child.on('error', () => undefined);
  child.unref();
}

/** The command a prompt asks the fake model to run ("please run `ls -la`"), or null. */
export function toolRequest(text) {
  const m = /please run `([^`]+)`/i.exec(text);
  return m ? m[1] : null;
}

/** What the fake model answers once the tool ran (or was refused). */
export const toolAnswer = (command, ran) => (ran ? `Ran ${command}.` : `Did not run ${command}.`);

/** Gemini CLI's (and Qwen Code's) confirmation of a shell command; resolves to the model's answer. */
export async function geminiShellTool(command, tui) {
  const ran = await tui.ask([
    '',
    `? Shell ${command}`,
    `Allow execution of: '${command.split(' ')[0]}'?`,
    '● 1. Allow once',
    '  2. Allow always',
    '  3. No, suggest changes (esc)',
  ]);
  return toolAnswer(command, ran);
}
