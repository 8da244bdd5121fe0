// `cursor-agent create-chat` (docs/vendors.md §7, [reported]): prints a new chat's UUID, so the id is known before the TUI
// starts, chosen by the vendor. Run with argv (no shell) in the agent's directory, with Baton's environment as an
// agent would have it (never Baton's token).
import { execFile } from 'node:child_process';
import type { VendorEnv } from '../adapter.js';
import { inheritedEnv } from '../kit/env.js';
import { UUID_SOURCE } from '../kit/ids.js';
import { CURSOR_CHAT_ID } from './store.js';

/** The chat id in `create-chat`'s output: exactly one distinct UUID, or null. */
export function parseCreateChatOutput(stdout: string): string | null {
  const plain = stdout.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
  const ids = new Set(plain.match(new RegExp(UUID_SOURCE, 'g')) ?? []);
  if (ids.size !== 1) return null;
  const [id] = ids;
  return id && CURSOR_CHAT_ID.test(id) ? id : null;
}

const firstLine = (s: string): string => (s.split('\n').find((l) => l.trim() !== '') ?? '').trim().slice(0, 200);

/**
 * Runs `<bin> create-chat` in `cwd` and returns the new chat's id, or throws a clear Error (`binEnvVar` is named when
 * the binary is missing; `timeoutMs` bounds a CLI that never answers).
 */
export function createChat(
  bin: string,
  cwd: string,
  env: VendorEnv,
  opts: { binEnvVar: string; timeoutMs: number },
): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      bin,
      ['create-chat'],
      { cwd, env: inheritedEnv(env), timeout: opts.timeoutMs, maxBuffer: 1024 * 1024, windowsHide: true },
      (err, stdout, stderr) => {
        const out = String(stdout);
        if (err) {
          const e = err as NodeJS.ErrnoException & { killed?: boolean; code?: unknown };
          if (e.code === 'ENOENT') {
            return reject(
              new Error(`Cursor CLI was not found (looked for '${bin}' on PATH); install it or set ${opts.binEnvVar}`),
            );
          }
          if (e.killed) {
            return reject(
              new Error(
                `'${bin} create-chat' did not answer within ${opts.timeoutMs / 1000} s, so no chat was created`,
              ),
            );
          }
          const why = firstLine(String(stderr)) || firstLine(out) || `exit code ${String(e.code)}`;
          return reject(new Error(`'${bin} create-chat' failed, so no chat was created: ${why}`));
        }
        const id = parseCreateChatOutput(out);
        if (!id)
          return reject(
            new Error(`'${bin} create-chat' did not print one chat id, so Baton cannot know which chat the agent has`),
          );
        resolve(id);
      },
    );
  });
}
